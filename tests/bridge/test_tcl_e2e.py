"""TCL end to end over ptys: the TCL printer simulator behind its bridge, with the ID-003
acceptor behind its own (both devices bridged, as a cabinet with real devices would be)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from kiosk.terminal.bridge.tcl.layout import VOUCHER_TEMPLATE
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Phase
from kiosk.terminal.devices.voucher import printed_text
from tests.bridge.rig import BridgeRig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[BridgeRig]:
    r = BridgeRig(tmp_path, validator="id003", printer="tcl")
    yield r
    r.close()


def test_a_voucher_printed_on_the_tcl_printer_is_rendered_and_its_barcode_decodes(
    rig: BridgeRig,
) -> None:
    assert rig.bv("insert 10000") == "ok accepting"
    rig.until(lambda: rig.runtime.state.credits == [10_000])
    (started,) = rig.runtime.cash_out()
    assert isinstance(started, e.CashoutStarted)
    rig.until(lambda: rig.runtime.state.phase is not Phase.CASHOUT)
    assert rig.runtime.state.credits == [0]
    printed = json.loads(rig.printer("vouchers")[3:])["printed"]
    assert list(printed) == [started.validation_number]
    png = Path(printed[started.validation_number]["png"])
    (code,) = zxingcpp.read_barcodes(Image.open(png))
    assert code.format == zxingcpp.BarcodeFormat.ITF
    assert code.text == started.validation_number
    assert printed_text(png)[4] == "$100.00"
    # printed through the template the bridge defined at start-up, not a resident one
    kept = json.loads(rig.printer("templates")[3:])
    assert kept["templates"] == {"V": list(VOUCHER_TEMPLATE.message().fields)}
    with Image.open(png) as img:
        assert img.size == (VOUCHER_TEMPLATE.width, VOUCHER_TEMPLATE.length)
    rows = [r.event for r in rig.runtime.journal.rows(after=0)]
    paid = [ev for ev in rows if isinstance(ev, e.VoucherPrinted)]
    assert [ev.validation_number for ev in paid] == [code.text]


def test_each_printer_fault_shows_its_tilt_and_a_cut_job_keeps_the_credits(
    rig: BridgeRig,
) -> None:
    for fault, code in (
        ("paper-out", "paper_out"),
        ("jam", "printer_jam"),
        ("head-open", "head_open"),
    ):
        assert rig.printer(f"fault {fault}") == "ok"
        rig.until(rig.tilted(code))
        assert rig.printer(f"fix {fault}") == "ok"
        rig.until(rig.tilted(code, on=False))
    assert rig.printer("fault paper-low") == "ok"
    rig.until(lambda: rig.terminal.serial.printer.paper_low)
    assert rig.bv("insert 2000") == "ok accepting"
    rig.until(lambda: rig.runtime.state.credits == [2000])
    assert rig.printer("fail-next-print jam") == "ok"
    rig.runtime.cash_out()
    rig.until(lambda: "printer_jam" in rig.runtime.state.tilts)
    rig.until(lambda: rig.runtime.state.phase is not Phase.CASHOUT)
    assert rig.runtime.state.credits == [2000]
    vouchers = json.loads(rig.printer("vouchers")[3:])
    assert vouchers["printed"] == {} and len(vouchers["voided"]) == 1
    assert rig.printer("fix jam") == "ok"
    rig.until(lambda: not rig.runtime.state.tilts)
    rig.runtime.cash_out()
    rig.until(lambda: rig.runtime.state.credits == [0])
    vouchers = json.loads(rig.printer("vouchers")[3:])
    assert len(vouchers["printed"]) == 1


def test_a_silent_printer_is_the_terminal_s_printer_link_tilt(rig: BridgeRig) -> None:
    assert rig.printer("fault mute") == "ok"
    rig.until(lambda: "printer_link" in rig.runtime.state.tilts)
    assert rig.printer("fix mute") == "ok"
    rig.until(lambda: "printer_link" not in rig.runtime.state.tilts)
