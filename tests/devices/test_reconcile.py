"""Reconciliation: the devices' money records against the journal
(kiosk/terminal/runtime/reconcile.py).

With the in-process devices (the same queries as the serial ones, answered at once): a baseline
is journaled at the first power-up; notes and vouchers keep the two sides equal; a cash box
that holds a note the journal never saw, or a journal replaced by an older copy, raises the
reconcile tilt naming both figures; and a power cut at any instant of a note's way to the cash
box or of a voucher's printing reconciles after recovery.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from kiosk.terminal.core import events as e
from kiosk.terminal.core.meters import METER_MODULUS, Meters
from kiosk.terminal.core.records import Tilt
from kiosk.terminal.devices import inprocess
from kiosk.terminal.devices.money_record import Figure, FigureBaseline, MoneyRecord, Tally
from kiosk.terminal.runtime import reconcile
from kiosk.terminal.store.journal import Journal
from tests.helpers.terminal_rig import Rig


def record(notes: Tally, baseline: FigureBaseline | None) -> MoneyRecord:
    return MoneyRecord(
        source="validator",
        device="bill validator",
        tilt="bill_validator_reconcile",
        figures=(Figure("notes", "bills_in", notes),),
        baseline=None if baseline is None else (baseline,),
    )


def test_judge_agrees_disagrees_and_asks_for_a_baseline():
    meters = Meters({"bills_in": 7000, "bills_in_count": 3})
    base = FigureBaseline(terminal=Tally(1, 2000), device=Tally(10, 50_000))
    assert reconcile.judge(meters, record(Tally(12, 55_000), base)) == reconcile.Agrees()
    verdict = reconcile.judge(meters, record(Tally(13, 65_000), base))
    assert verdict == reconcile.Disagrees(
        "bill validator counted 3 notes ($150.00) since pairing, the journal 2 notes ($50.00)"
    )
    assert reconcile.judge(meters, record(Tally(12, 55_000), None)) == reconcile.NeedsBaseline(
        (FigureBaseline(terminal=Tally(3, 7000), device=Tally(12, 55_000)),)
    )
    # a device whose counters went backwards (its memory was reset) disagrees
    assert isinstance(reconcile.judge(meters, record(Tally(9, 55_000), base)), reconcile.Disagrees)


def test_judge_follows_the_meters_roll_over():
    meters = Meters({"bills_in": 500, "bills_in_count": 1})
    base = FigureBaseline(terminal=Tally(0, METER_MODULUS - 1500), device=Tally(0, 0))
    assert reconcile.judge(meters, record(Tally(1, 2000), base)) == reconcile.Agrees()


def baselines(rig: Rig) -> list[e.DeviceBaselineRecorded]:
    rows = rig.runtime.journal.rows(after=0)
    return [r.event for r in rows if isinstance(r.event, e.DeviceBaselineRecorded)]


def test_first_power_up_journals_a_baseline_then_money_keeps_both_sides_equal(tmp_path: Path):
    rig = Rig(tmp_path / "t")
    rig.runtime.pump()
    assert [b.device for b in baselines(rig)] == ["bill validator", "printer"]
    for dollars in (20, 50, 100):
        rig.insert(dollars)
    rig.runtime.cash_out()
    rig.runtime.pump()
    assert rig.runtime.state.credits == [0]
    assert rig.runtime.state.tilts == {}
    rig.runtime = rig.power_cut()
    rig.runtime.pump()
    assert rig.runtime.state.tilts == {}
    assert len(baselines(rig)) == 2  # kept by the devices: not taken again
    rig.runtime.close()


def test_a_note_in_the_cash_box_that_the_journal_never_saw_raises_the_tilt(tmp_path: Path):
    rig = Rig(tmp_path / "t")
    rig.runtime.pump()
    rig.insert(20)
    memory = tmp_path / "t" / "devices" / "bill_validator.json"
    data = json.loads(memory.read_text())
    data["cashbox"].append(10_000)  # $100 in the box behind the terminal's back
    memory.write_text(json.dumps(data))
    rig.runtime = rig.power_cut()
    rig.runtime.pump()
    tilt = rig.runtime.state.tilts["bill_validator_reconcile"]
    assert tilt == Tilt(
        reason="bill validator counted 2 notes ($120.00) since pairing, "
        "the journal 1 notes ($20.00)",
        needs_attendant=True,
    )
    assert not rig.runtime.accepting_money()
    rig.runtime.close()


def test_an_older_card_image_is_caught_when_money_had_moved(tmp_path: Path):
    """The store and the signer's state rolled back together (an earlier image of the SD card
    written back): the journal and its anchor agree, and only the devices, whose memories are
    not on the card, know that money moved since."""
    rig = Rig(tmp_path / "t")
    rig.runtime.pump()
    rig.insert(20)
    rig.runtime.close()
    image = tmp_path / "image"
    shutil.copytree(tmp_path / "t", image / "t", ignore=shutil.ignore_patterns("devices"))
    if (tmp_path / "t.signer").exists():
        shutil.copytree(tmp_path / "t.signer", image / "t.signer")
    rig.runtime = rig.boot()
    rig.insert(50)
    rig.runtime.cash_out()
    rig.runtime.pump()
    rig.runtime.close()
    for name in ("terminal.sqlite3", "terminal.sqlite3-wal", "terminal.sqlite3-shm"):
        (tmp_path / "t" / name).unlink(missing_ok=True)
        if (image / "t" / name).exists():
            shutil.copy2(image / "t" / name, tmp_path / "t" / name)
    if (image / "t.signer").exists():
        shutil.rmtree(tmp_path / "t.signer")
        shutil.copytree(image / "t.signer", tmp_path / "t.signer")
    rig.runtime = rig.boot()  # the journal passes its own checks: a genuine older image
    assert rig.runtime.state.critical is None
    rig.runtime.pump()
    tilts = rig.runtime.state.tilts
    assert tilts["bill_validator_reconcile"].reason == (
        "bill validator counted 2 notes ($70.00) since pairing, the journal 1 notes ($20.00)"
    )
    assert tilts["printer_reconcile"].reason == (
        "printer counted 1 vouchers ($70.00) since pairing, the journal 0 vouchers ($0.00)"
    )
    rig.runtime.close()


class PowerCut(BaseException):
    """The power went: nothing after this instant happened."""


def count_writes(monkeypatch: pytest.MonkeyPatch, cut_at: int | None) -> list[int]:
    """Count durable writes (device memory and journal commits); cut before write ``cut_at``."""
    seen = [0]
    device_write = inprocess._durable_write
    journal_commit = Journal.commit

    def tick() -> None:
        seen[0] += 1
        if seen[0] == cut_at:
            raise PowerCut

    def write(*args: Any, **kwargs: Any) -> Any:
        tick()
        return device_write(*args, **kwargs)

    def commit(*args: Any, **kwargs: Any) -> Any:
        tick()
        return journal_commit(*args, **kwargs)

    monkeypatch.setattr(inprocess, "_durable_write", write)
    monkeypatch.setattr(Journal, "commit", commit)
    return seen


def money_moves(rig: Rig) -> None:
    rig.insert(20)
    rig.insert(100)
    rig.runtime.cash_out()
    rig.runtime.pump()


def test_a_power_cut_at_any_write_reconciles_after_recovery(tmp_path: Path):
    with pytest.MonkeyPatch.context() as mp:
        rig = Rig(tmp_path / "count")
        rig.runtime.pump()
        seen = count_writes(mp, None)
        money_moves(rig)
        total = seen[0]
        rig.runtime.close()
    assert total >= 10
    for cut in range(1, total + 1):
        with pytest.MonkeyPatch.context() as mp:
            rig = Rig(tmp_path / f"cut{cut}")
            rig.runtime.pump()
            count_writes(mp, cut)
            with pytest.raises(PowerCut):
                money_moves(rig)
        rig.runtime = rig.power_cut()
        for _ in range(3):
            rig.runtime.pump()
        state = rig.runtime.state
        assert "bill_validator_reconcile" not in state.tilts, (cut, state.tilts)
        assert "printer_reconcile" not in state.tilts, (cut, state.tilts)
        box = rig.validator.cashbox_total()
        paid = sum(v["value"] for v in rig.printer.printed().values())
        assert state.lifetime["bills_in"] == box, cut
        assert state.credits[0] + paid == box, cut  # nothing lost, nothing made up
        rig.runtime.close()


def test_after_an_audited_ram_clear_the_devices_take_a_new_baseline(tmp_path: Path):
    rig = Rig(tmp_path / "t")
    rig.runtime.pump()
    rig.insert(20)
    rig.runtime.cash_out()
    rig.runtime.pump()
    epoch = rig.runtime.store_epoch
    rig.runtime.ram_clear(by="operator", reason="test")
    assert rig.runtime.store_epoch != epoch
    rig.runtime.pump()
    assert rig.runtime.state.tilts == {}
    rebased = baselines(rig)
    assert [b.device for b in rebased] == ["bill validator", "printer"]
    assert all(b.journal["epoch"] == rig.runtime.store_epoch for b in rebased)
    assert rebased[0].counters == {"notes": 1, "notes_value": 2000}
    rig.insert(50)  # and money reconciles against the new store from there
    rig.runtime = rig.power_cut()
    rig.runtime.pump()
    assert rig.runtime.state.tilts == {}
    assert rig.runtime.state.lifetime["bills_in"] == 5000
    rig.runtime.close()
