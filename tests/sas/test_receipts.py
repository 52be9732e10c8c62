"""AFT transaction receipts (decision 0067): asked by the transfer's flag, printed on the ticket
printer with the host's 75 data and the transfer's amount, once per transaction id whatever the
host repeats and across a power cut at any step; 72 and 74 say so."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.host.sas import funds as host
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.devices.inprocess import InProcessPrinter
from kiosk.terminal.devices.printer_driver import PrinterDriver
from kiosk.terminal.devices.sim.printer import PrinterMachine
from kiosk.terminal.devices.voucher import printed_text
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.sas.receipts import RECEIPTS_FILE, ReceiptLog
from kiosk.terminal.sas.wire import LongPoll as P
from kiosk.terminal.textui.session import PlaySession
from tests.helpers.device_link import Clock, Wire
from tests.helpers.sas_rig import ADDRESS, SasRig

AT = 1_800_000_000_000
FIELDS = {0x00: "TURBO CASINO", 0x01: "1 MAIN ST", 0x10: "THANK YOU"}


def _send(rig: SasRig, poll: host.HostPoll) -> host.TransferReply:
    reply = rig.poll(poll.frame(ADDRESS))
    assert reply is not None and len(reply) > 1
    return host.transfer_reply(wire.parse_response(reply, poll.code))


def _printer(rig: SasRig) -> InProcessPrinter:
    printer = rig.terminal.runtime.printer
    assert isinstance(printer, InProcessPrinter)
    return printer


def test_a_receipt_is_printed_once_with_the_hosts_lines(rig: SasRig) -> None:
    assert rig.poll(host.receipt_data(FIELDS).frame(ADDRESS)) == bytes([ADDRESS])
    status = rig.long(P.AFT_LOCK_AND_STATUS, bytes([0xFF, 0]) + bytes(2))
    assert status[8] & 0x01  # the printer prints transaction receipts
    request = host.transfer("in", 2500, "R-0001", asset=ADDRESS, receipt=True)
    first = _send(rig, request)
    assert (first.status, first.receipt_status) == (0x40, 0x40)  # pending, receipt pending
    rig.terminal.runtime.pump()
    done = _send(rig, host.interrogate())
    assert (done.status, done.receipt_status) == (0x00, 0x00)  # made, receipt printed
    again = _send(rig, request)  # the host repeats: its record, no second receipt
    assert (again.status, again.receipt_status) == (0x00, 0x00)
    rig.terminal.runtime.pump()
    (receipt,) = _printer(rig).receipts().values()
    assert receipt["lines"][:7] == [
        "TURBO CASINO",
        "1 MAIN ST",
        "TRANSFER TO MACHINE",
        f"ASSET {ADDRESS}",
        "ID R-0001",
        "AMOUNT $25.00",
        "THANK YOU",
    ]
    plain = _send(rig, host.transfer("in", 100, "R-0002", asset=ADDRESS))
    rig.terminal.runtime.pump()
    assert plain.receipt_status == 0xFF
    assert _send(rig, host.interrogate()).receipt_status == 0xFF  # none asked: none printed
    assert list(_printer(rig).receipts()) == ["R-0001"]


def test_a_receipt_the_printer_cannot_print_stays_pending(rig: SasRig) -> None:
    printer = _printer(rig)
    printer.paper = False
    _send(rig, host.transfer("in", 700, "P-1", asset=ADDRESS, receipt=True))
    rig.terminal.runtime.pump()
    made = _send(rig, host.interrogate())
    assert (made.status, made.receipt_status) == (0x00, 0x40)  # money moved, receipt owed
    assert rig.terminal.runtime.state.credits[0] == 700
    printer.paper = True
    rig.link._housekeeping()  # once a second on the SAS thread: the receipt tried again
    rig.terminal.runtime.pump()
    assert _send(rig, host.interrogate()).receipt_status == 0x00
    assert list(printer.receipts()) == ["P-1"]


def _rig(terminal: Terminal) -> SasRig:
    out: list[str] = []
    session = PlaySession(terminal, out.append)
    session.start()
    assert terminal.sas_link is not None
    return SasRig(terminal, session, terminal.sas_link, lines=out)


def test_a_power_cut_at_any_step_prints_the_receipt_once(tmp_path: Path) -> None:
    """Cut after the receipt was owed (before printing), and after printing (before it was
    marked printed): after power-up each is printed, each once."""
    data = tmp_path / "terminal"
    settings = SasSettings(port="/dev/null", address=ADDRESS, wakeup="gap")
    terminal = build_terminal(data, sas=settings)
    try:
        rig = _rig(terminal)
        printer = _printer(rig)
        printer.paper = False  # neither can print before the cut
        for txid in ("C-1", "C-2"):
            _send(rig, host.transfer("in", 300, txid, asset=ADDRESS, receipt=True))
            terminal.runtime.pump()
        printer.paper = True
        printer.print_receipt("C-2", ["printed just before the cut"], AT)  # not marked printed
    finally:
        terminal.close()
    assert ReceiptLog(data / RECEIPTS_FILE).pending() == ["C-1", "C-2"]
    terminal = build_terminal(data, sas=settings)
    try:
        rig = _rig(terminal)
        terminal.runtime.pump()
        assert ReceiptLog(data / RECEIPTS_FILE).pending() == []
        receipts = _printer(rig).receipts()
        assert sorted(receipts) == ["C-1", "C-2"]
        assert receipts["C-2"]["lines"] == ["printed just before the cut"]  # not again
        assert [_send(rig, host.interrogate(0x80 + n)).receipt_status for n in (1, 2)] == [0, 0]
    finally:
        terminal.close()


def test_the_printer_simulator_prints_a_receipt_once_per_id(tmp_path: Path) -> None:
    clock = Clock()
    wire_ = Wire(clock, PrinterMachine(tmp_path, clock.ms, print_ms=100))
    driver = PrinterDriver(wire_, clock=clock.seconds, connect_grace=0.5, answer_timeout=0.5)
    driver.poll()
    lines = ["TURBO CASINO", "TRANSFER TO MACHINE", "AMOUNT $25.00"]
    assert driver.receipt_printed("R-1") is False
    assert driver.print_receipt("R-1", lines, AT) is None
    assert driver.print_receipt("R-1", ["again"], AT) is None  # printed before: not again
    (kept,) = wire_.machine.receipts().values()
    assert printed_text(Path(kept["png"])) == lines
    assert driver.receipt_printed("R-1") is True
    wire_.machine.control(["fault", "paper-out"], clock.ms)
    assert driver.print_receipt("R-2", lines, AT) == "paper out"
    assert driver.receipt_printed("R-2") is False
    # a receipt remembered but not yet cut when the power went is presented at power-up
    part = tmp_path / "receipts" / "R-1.png.part"
    Path(kept["png"]).replace(part)
    PrinterMachine(tmp_path, clock.ms)
    assert Path(kept["png"]).exists() and not part.exists()


def test_a_printer_that_raises_leaves_the_receipt_owed(
    rig: SasRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(receipt_id: str, lines: list[str], at: int) -> str | None:
        raise OSError("device link gone")

    monkeypatch.setattr(_printer(rig), "print_receipt", broken)
    _send(rig, host.transfer("in", 900, "E-1", asset=ADDRESS, receipt=True))
    rig.terminal.runtime.pump()  # the terminal's thread goes on
    made = _send(rig, host.interrogate())
    assert (made.status, made.receipt_status) == (0x00, 0x40)
    assert rig.terminal.runtime.state.credits[0] == 900
