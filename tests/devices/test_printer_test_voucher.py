"""The printer driver's test voucher against the printer firmware (deterministic wire).

A test voucher is VOID, carries no value and no validation number, and never enters the
vouchers the terminal asks about after a restart; every reason it cannot print is named.
"""

from __future__ import annotations

from pathlib import Path

from google.protobuf.timestamp_pb2 import Timestamp

from kiosk.terminal.devices.printer_driver import PrinterDriver, print_command
from kiosk.terminal.devices.sim.printer import PrinterMachine
from kiosk.terminal.devices.voucher import printed_text
from proto.turbokiosk.v1.device_pb2 import PrinterCommand, PrinterEvent
from tests.helpers.device_link import VOUCHER, Clock, Wire

AT = 1_800_000_000_000  # 2027-01-15 08:00:00 UTC


def rig(base: Path, *, up: bool = True) -> tuple[PrinterDriver, Wire, Clock]:
    clock = Clock()
    wire = Wire(clock, PrinterMachine(base, clock.ms, print_ms=100), up=up)
    driver = PrinterDriver(wire, clock=clock.seconds, connect_grace=0.5, answer_timeout=0.5)
    return driver, wire, clock


def test_printed_test_voucher_is_void_and_apart_from_the_vouchers(tmp_path):
    driver, wire, _ = rig(tmp_path)
    driver.poll()  # the link's and the status's tilts cleared
    assert driver.print_test_voucher("TK-7", "Riverside", AT) is None
    assert driver.test_vouchers == 1 and driver.poll() == []  # nothing for the terminal
    vouchers = wire.machine.vouchers()
    assert vouchers["printed"] == {} and vouchers["voided"] == []
    (test,) = vouchers["tests"]
    assert test["printed"] is True and test["venue"] == "Riverside"
    assert printed_text(Path(test["png"])) == [
        "RIVERSIDE",
        "TEST VOUCHER",
        "*** VOID ***",
        "NO VALUE - NOT NEGOTIABLE",
        "NO VALIDATION NUMBER",
        "2027-01-15   08:00:00 UTC   TEST # 0001",
        "TERMINAL TK-7",
        "*** VOID *** TEST *** VOID ***",
    ]
    assert driver.print_test_voucher("TK-7", "Riverside", AT) is None
    assert [t["number"] for t in wire.machine.vouchers()["tests"]] == [1, 2]


def test_every_reason_not_to_print_is_named(tmp_path):
    driver, wire, clock = rig(tmp_path / "a", up=False)
    clock.advance(600)
    assert driver.print_test_voucher("T", "V", AT) == "printer not connected"
    wire.connect(new_peer=True)
    for fault, reason in [
        ("paper-out", "paper out"),
        ("jam", "printer jam"),
        ("head-open", "printer head open"),
    ]:
        wire.machine.control(["fault", fault], clock.ms)
        assert driver.print_test_voucher("T", "V", AT) == reason
        wire.machine.control(["fix", fault], clock.ms)
    wire.machine.control(["fail-next-print", "paper-out"], clock.ms)  # runs out half way
    assert driver.print_test_voucher("T", "V", AT) == "paper out"
    assert printed_text(Path(wire.machine.vouchers()["tests"][-1]["png"]))[-1] == (
        "NOT PRINTED COMPLETELY"
    )
    wire.machine.control(["fix", "paper-out"], clock.ms)
    driver.print_voucher(VOUCHER)  # a cash-out voucher is printing
    assert driver.print_test_voucher("T", "V", AT) == "printer busy"
    wire.disconnect()
    assert driver.print_test_voucher("T", "V", AT) == "printer link down"
    assert driver.test_vouchers == 0


def test_power_lost_mid_test_voucher_voids_it_and_no_voucher_number(tmp_path):
    machine = PrinterMachine(tmp_path, 0, print_ms=100)
    at = Timestamp()
    at.FromMilliseconds(AT)
    job = PrinterCommand.PrintTestVoucher(test_id=7, terminal_id="T", venue="V", printed_at=at)
    machine.on_command(PrinterCommand(print_test_voucher=job).SerializeToString(), 0)
    busy = print_command(VOUCHER)
    machine.on_command(busy.SerializeToString(), 10)  # one job at a time
    events = [PrinterEvent.FromString(b) for b in machine.take_outgoing()]
    assert events[-1].voucher_failed.failure == PrinterEvent.FAILURE_BUSY
    restarted = PrinterMachine(tmp_path, 50, print_ms=100)  # power came back
    (done,) = [
        ev.test_voucher_done
        for ev in map(PrinterEvent.FromString, restarted.take_outgoing())
        if ev.HasField("test_voucher_done")
    ]
    assert done.test_id == 7 and not done.printed
    assert done.failure == PrinterEvent.FAILURE_POWER_LOST
    vouchers = restarted.vouchers()
    assert vouchers["printed"] == {} and vouchers["voided"] == []
    assert [t["printed"] for t in vouchers["tests"]] == [False]
    assert restarted.snapshot()["printing"] is None
