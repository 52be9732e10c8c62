"""Power cuts at the worst moments, corrupted memory, and the credit self-audit."""

import sqlite3

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.state import Lockup, Phase
from kiosk.terminal.signer.client import LocalSigner, development_dir
from kiosk.terminal.signer.records import Head
from kiosk.terminal.store.audit import audit
from kiosk.terminal.store.journal import body_hash, canonical


def start_stadium(rig):
    rt = rig.runtime
    rig.insert(20)
    rt.execute(c.SelectEdition("stadium-3cp"))
    rt.execute(c.SelectPositions((0, 1, 2)))
    rt.execute(c.PlaceWager("ante", 500))
    rt.execute(c.PlaceWager("pairs_plus", 100))
    rt.execute(c.Deal())
    return rt


def test_power_cut_at_the_decision_offers_it_again_with_the_same_cards(rig):
    rt = start_stadium(rig)
    before = rt.state.to_snapshot()
    rt = rig.power_cut()
    after = rt.state.to_snapshot()
    assert after["round"]["first"] == before["round"]["first"]  # read back, never re-dealt
    assert after["credits"] == before["credits"] == [1400]
    assert rt.state.phase is Phase.DECISION
    assert "decision offered again" in rt.last_recovery.actions[0]
    rt.execute(c.Decide("play"))
    assert rt.state.phase is Phase.RESULT
    assert len(set(rt.state.round.first + rt.state.round.second_shared)) == 12
    assert rt.state.lifetime["power_resets"] == 2
    assert audit(rig.data_dir).ok


def test_power_cut_after_the_voucher_printed_pays_out_exactly_once(rig):
    rt = rig.runtime
    rig.insert(20)
    rt.cash_out()  # printed by the device; its report is not processed before the cut
    assert rt.state.credits == [2000]
    rt = rig.power_cut()
    assert rt.state.credits == [0]
    assert rt.state.lifetime["tickets_out_count"] == 1
    assert len(rig.printer.printed()) == 1
    rt.pump()
    assert rt.state.credits == [0] and rt.state.lifetime["tickets_out_count"] == 1


def test_power_cut_before_the_voucher_printed_keeps_the_credits(rig):
    rt = rig.runtime
    rig.insert(20)
    rig.printer.paper = False
    rt.execute(c.CashOut(validation_number="2" * 18, printer_ready=True))
    rt = rig.power_cut()  # the failure report was lost with the power
    assert rt.state.credits == [2000] and rt.state.cashout is None
    assert rig.printer.printed() == {}


def test_power_cut_with_a_note_on_its_way_to_the_cash_box_credits_it_once(rig):
    rt = rig.runtime
    assert rig.validator.insert(2000)
    rt.execute(rig.validator.poll()[0])  # escrow accepted; stack() ran, report still queued
    assert rt.state.escrow == {0: 2000} and rt.state.credits == [0]
    rt = rig.power_cut()
    assert rt.state.credits == [2000] and rt.state.escrow == {}
    assert rig.validator.cashbox_total() == 2000
    rt = rig.power_cut()  # and again: still credited once
    assert rt.state.credits == [2000]


def test_a_stacked_note_is_reported_at_every_power_up_until_acknowledged(rig):
    validator = rig.validator
    assert validator.insert(500)
    validator.stack(0)  # the terminal loses power before it journals the credit ...
    first = type(validator)(rig.data_dir / "devices").recover()
    # ... and again while recovering, before the re-report is journaled
    second = type(validator)(rig.data_dir / "devices").recover()
    # the same note, with the same count (the host takes a new count for a new note)
    note = c.BillStackedReport(value=500, seat=0, device="in-process validator", device_count=1)
    assert first == second == [note]
    validator.acknowledge(0)
    assert type(validator)(rig.data_dir / "devices").recover() == []


def test_a_changed_journal_row_is_a_critical_memory_error(rig):
    rt = start_stadium(rig)
    rt.close()
    db = sqlite3.connect(rig.data_dir / "terminal.sqlite3")
    db.execute("UPDATE journal SET body = replace(body, '500', '900') WHERE kind = 'RoundStarted'")
    db.commit()
    db.close()
    rt = rig.boot()
    assert Lockup.CRITICAL in rt.state.lockups()
    assert "chain hash" in rt.state.critical
    report = audit(rig.data_dir)
    assert not report.ok
    assert rt.validator.enabled is False


def test_a_missing_journal_row_is_a_critical_memory_error(rig):
    start_stadium(rig).close()
    db = sqlite3.connect(rig.data_dir / "terminal.sqlite3")
    db.execute("DELETE FROM journal WHERE seq = 3")
    db.commit()
    db.close()
    rt = rig.boot()
    assert "missing" in rt.state.critical


def test_credits_that_disagree_with_the_meters_lock_the_terminal(rig):
    """A snapshot the terminal's own signer signed (a bug, not tampering: that is
    tests/faults/test_tamper.py) whose credits disagree with the meters."""
    rt = rig.runtime
    rig.insert(20)
    rt.close()
    db = sqlite3.connect(rig.data_dir / "terminal.sqlite3")
    state = rt.state.to_snapshot()
    state["credits"] = [999_999]
    text = canonical(state)
    last, chain = db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC").fetchone()
    db.execute("INSERT INTO snapshots VALUES (?, ?, ?)", (last, text, body_hash(last, text)))
    signature = LocalSigner(development_dir(rig.data_dir)).sign_snapshot(
        Head(1, last, chain), body_hash(last, text)
    )
    db.execute("INSERT INTO snapshot_signatures VALUES (?, 1, ?)", (last, signature))
    db.commit()
    db.close()
    rt = rig.boot()
    assert rt.state.critical is not None and "credit audit" in rt.state.critical
    assert not rig.validator.insert(100)  # the validator is disabled


def test_critical_error_is_never_cleared_by_a_restart(rig):
    rt = rig.runtime
    rt.execute(c.ReportCritical(reason="test"))
    rt = rig.power_cut()
    assert rt.state.critical == "test"
    with pytest.raises(c.CommandError, match="critical"):
        rt.execute(c.ClearTilt(code="x", by="attendant"))


def test_rng_failure_tilts_and_refuses_to_deal(make_rig):
    r = make_rig()
    r.insert(20)
    rt = r.boot(rng_health=lambda: "health test failed (repetition count)")
    assert "rng_failure" in rt.state.tilts
    with pytest.raises(c.CommandError, match="tilt"):
        rt.execute(c.PlaceWager("bet_a", 100))
