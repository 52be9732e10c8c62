"""The terminal and both simulators as real processes on pseudo-terminals, over pyserial.

Everything goes through the real stack: simulator program -> pty -> pyserial -> link thread ->
driver -> runtime -> journal, and back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.records import Tilt
from kiosk.terminal.core.state import Phase
from tests.helpers.serial_rig import Rig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    yield r
    r.close()


def test_note_is_escrowed_stacked_and_credited_once(rig):
    assert rig.bv("insert 2000").startswith("ok escrow")
    rig.until(lambda: rig.runtime.state.credits == [2000])
    rig.until(lambda: rig.bv_status()["unacked"] == [])
    for _ in range(20):
        rig.runtime.pump()
    assert rig.runtime.state.credits == [2000]
    assert rig.bv_status()["cashbox"]["notes"] == [2000]
    assert rig.runtime.state.lifetime["bills_in"] == 2000


def test_faults_tilt_with_the_reason_and_clear_when_fixed(rig):
    cases = [
        (rig.bv, "jam", "bill_jam"),
        (rig.bv, "cashbox-full", "cashbox_full"),
        (rig.bv, "cashbox-removed", "cashbox_removed"),
        (rig.printer, "paper-out", "paper_out"),
        (rig.printer, "jam", "printer_jam"),
        (rig.printer, "head-open", "head_open"),
    ]
    for send, fault, code in cases:
        assert send(f"fault {fault}") == "ok"
        rig.until(lambda code=code: code in rig.runtime.state.tilts)
        if send is rig.bv:
            assert rig.bv("insert 500") == "ok rejected REJECT_REASON_DISABLED"
        assert send(f"fix {fault}") == "ok"
        rig.until(lambda code=code: code not in rig.runtime.state.tilts)
    assert rig.printer("fault paper-low") == "ok"
    rig.until(lambda: rig.terminal.serial.printer.paper_low)
    assert rig.runtime.state.tilts == {}


def test_garbage_on_the_line_is_counted_and_harmless(rig):
    assert rig.bv("garbage 3000") == "ok"
    assert rig.bv("insert 500").startswith("ok escrow")
    rig.until(lambda: rig.runtime.state.credits == [500])
    stats = rig.terminal.serial.channels[0].stats()
    assert stats["frames_cobs_errors"] + stats["frames_crc_errors"] + stats["malformed"] > 0


def test_cable_pulled_then_put_back(rig):
    assert rig.printer("disconnect") == "ok"
    rig.until(lambda: "printer_link" in rig.runtime.state.tilts)
    assert rig.runtime.state.tilts["printer_link"].reason == "printer link lost"
    assert rig.printer("reconnect") == "ok"
    rig.until(lambda: "printer_link" not in rig.runtime.state.tilts)


def test_validator_killed_and_restarted(rig):
    rig.sims.processes["bill-validator"].kill()
    rig.sims.processes["bill-validator"].wait()
    rig.until(lambda: "bill_validator_link" in rig.runtime.state.tilts)
    rig.respawn("bill-validator")
    rig.until(lambda: "bill_validator_link" not in rig.runtime.state.tilts)
    rig.until(lambda: rig.bv_status()["enabled"])
    assert rig.bv("insert 10000").startswith("ok escrow")
    rig.until(lambda: rig.runtime.state.credits == [10_000])


def test_validator_killed_mid_stack_credits_once_after_restart(rig):
    rig.bv("insert 2000")
    rig.until(lambda: rig.runtime.state.escrow == {0: 2000})
    rig.sims.processes["bill-validator"].kill()  # stacking, or just about to
    rig.sims.processes["bill-validator"].wait()
    rig.respawn("bill-validator")
    rig.until(lambda: not rig.runtime.state.escrow and not rig.runtime.state.tilts)
    box = rig.bv_status()["cashbox"]["notes"]
    assert rig.runtime.state.credits == [sum(box)]


def test_voucher_png_barcode_is_the_journals_validation_number(rig):
    rig.bv("insert 10000")
    rig.until(lambda: rig.runtime.state.credits == [10_000])
    (started,) = rig.runtime.cash_out()
    assert isinstance(started, e.CashoutStarted)
    rig.until(lambda: rig.runtime.state.phase is not Phase.CASHOUT)
    assert rig.runtime.state.credits == [0]
    printed = json.loads(rig.printer("vouchers")[3:])["printed"]
    assert list(printed) == [started.validation_number]
    (code,) = zxingcpp.read_barcodes(Image.open(printed[started.validation_number]["png"]))
    assert code.format == zxingcpp.BarcodeFormat.ITF
    assert code.text == started.validation_number
    rows = [r.event for r in rig.runtime.journal.rows(after=0)]
    paid = [ev for ev in rows if isinstance(ev, e.VoucherPrinted)]
    assert [ev.validation_number for ev in paid] == [code.text]


def test_paper_out_mid_print_keeps_credits_and_no_ticket_then_retry(rig):
    rig.bv("insert 2000")
    rig.until(lambda: rig.runtime.state.credits == [2000])
    assert rig.printer("fail-next-print paper-out") == "ok"
    rig.runtime.cash_out()
    rig.until(lambda: "paper_out" in rig.runtime.state.tilts)
    rig.until(lambda: rig.runtime.state.phase is not Phase.CASHOUT)
    assert rig.runtime.state.credits == [2000]
    vouchers = json.loads(rig.printer("vouchers")[3:])
    assert vouchers["printed"] == {} and len(vouchers["voided"]) == 1
    rig.printer("fix paper-out")
    rig.until(lambda: not rig.runtime.state.tilts)
    rig.runtime.cash_out()
    rig.until(lambda: rig.runtime.state.credits == [0])
    vouchers = json.loads(rig.printer("vouchers")[3:])
    assert len(vouchers["printed"]) == 1 and vouchers["voided"][0] not in vouchers["printed"]


def test_note_returned_beyond_the_credit_limit(tmp_path):
    rig = Rig(tmp_path, TerminalConfig(max_wager=1000, table_max=1000, credit_limit=1000))
    try:
        rig.bv("insert 2000")
        rig.until(lambda: rig.bv_status()["handed_back"] != [])
        assert rig.bv_status()["handed_back"][-1] == {
            "note": 2000,
            "why": "RETURN_REASON_COMMANDED",
        }
        assert rig.runtime.state.credits == [0]
    finally:
        rig.close()


def test_sim_ctl_tamper_rewrite_and_replay_raise_the_tamper_tilt(rig):
    assert rig.printer("tamper rewrite").startswith("ok rewrote a frame")
    rig.until(lambda: "printer_tampered" in rig.runtime.state.tilts)
    assert rig.printer("tamper replay").startswith("ok replayed a frame")
    rig.until(lambda: "2 frames" in rig.runtime.state.tilts["printer_tampered"].reason)
    tilt = rig.runtime.state.tilts["printer_tampered"]
    assert tilt.needs_attendant and tilt.reason.startswith("printer link tampered")
    assert rig.terminal.serial.channels[1].stats()["tampered"] == 2
    assert rig.runtime.state.credits == [0]
    assert "bill_validator_tampered" not in rig.runtime.state.tilts


def test_a_cash_box_that_disagrees_with_the_journal_raises_the_reconcile_tilt(rig):
    def baselines() -> list[str]:
        rows = rig.runtime.journal.rows(after=0)
        return sorted(r.event.device for r in rows if isinstance(r.event, e.DeviceBaselineRecorded))

    rig.until(lambda: baselines() == ["bill validator", "printer"])
    assert json.loads(rig.bv("status")[3:])["baseline"] is True
    assert rig.bv("insert 2000").startswith("ok escrow")
    rig.until(lambda: rig.runtime.state.credits == [2000])
    assert rig.bv("cashbox-add 5000") == "ok"  # a note in the box the journal never saw
    assert rig.bv("insert 500").startswith("ok escrow")  # the next money event asks again
    rig.until(lambda: "bill_validator_reconcile" in rig.runtime.state.tilts)
    assert rig.runtime.state.tilts["bill_validator_reconcile"] == Tilt(
        reason="bill validator counted 3 notes ($75.00) since pairing, "
        "the journal 2 notes ($25.00)",
        needs_attendant=True,
    )
