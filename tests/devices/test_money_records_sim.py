"""The simulated firmware's money records: what the validator and the printer remember."""

from __future__ import annotations

from pathlib import Path

from kiosk.terminal.devices.ports import Voucher
from kiosk.terminal.devices.printer_driver import print_command
from kiosk.terminal.devices.sim.printer import PrinterMachine
from kiosk.terminal.devices.sim.validator import ValidatorMachine
from proto.turbokiosk.v1.device_pb2 import (
    Tally,
    ValidatorBaseline,
    ValidatorCommand,
    ValidatorEvent,
)


def stack(machine: ValidatorMachine, cents: int, now: int) -> int:
    machine.on_command(
        ValidatorCommand(
            set_acceptance=ValidatorCommand.SetAcceptance(enabled=True, note_values=[cents])
        ).SerializeToString(),
        now,
    )
    escrow = int(machine.control(["insert", str(cents)], now).split()[-1])
    machine.on_command(
        ValidatorCommand(stack=ValidatorCommand.Stack(escrow_event_id=escrow)).SerializeToString(),
        now,
    )
    machine.tick(now + 1000)
    unacked = machine.mem.data["unacked"][-1]["id"]
    ack = ValidatorCommand()
    ack.acknowledge.up_to_event_id = unacked
    machine.on_command(ack.SerializeToString(), now + 1000)
    return now + 1000


def test_the_cash_box_record_empties_with_the_box_and_the_lifetime_counters_do_not(tmp_path: Path):
    machine = ValidatorMachine(tmp_path, 0, pairing="aaaa")
    machine.on_link_up(True, 0)
    now = stack(machine, 2000, 0)
    now = stack(machine, 500, now)
    record = machine.cashbox_record(7)
    assert dict(record.notes_by_value) == {2000: 1, 500: 1}
    assert (record.lifetime_notes.count, record.lifetime_notes.value) == (2, 2500)
    assert not record.HasField("baseline")
    machine.control(["fault", "cashbox-removed"], now)
    machine.control(["fix", "cashbox-removed"], now)
    now = stack(machine, 100, now)
    record = machine.cashbox_record(8)
    assert dict(record.notes_by_value) == {100: 1} and record.cashbox_removals == 1
    assert (record.lifetime_notes.count, record.lifetime_notes.value) == (3, 2600)


def test_the_baseline_belongs_to_the_pairing_it_was_given_under(tmp_path: Path):
    machine = ValidatorMachine(tmp_path, 0, pairing="aaaa")
    kept = ValidatorBaseline(terminal_notes=Tally(count=4, value=900))
    command = ValidatorCommand(set_baseline=kept)
    machine.on_command(command.SerializeToString(), 0)
    assert ValidatorMachine(tmp_path, 0, pairing="aaaa").cashbox_record(1).baseline == kept
    assert not ValidatorMachine(tmp_path, 0, pairing="bbbb").cashbox_record(1).HasField("baseline")


def test_the_record_answers_the_request_in_order_with_the_events(tmp_path: Path):
    machine = ValidatorMachine(tmp_path, 0)
    request = ValidatorCommand()
    request.record_request.request_id = 42
    machine.on_command(request.SerializeToString(), 0)
    (answer,) = [ValidatorEvent.FromString(p) for p in machine.take_outgoing()]
    assert answer.cashbox_record.request_id == 42


def test_the_printer_counts_what_it_printed(tmp_path: Path):
    printer = PrinterMachine(tmp_path, 0, print_ms=10, pairing="aaaa")
    voucher = Voucher("1" * 18, 2500, "TK-1", "Venue", 0, 30, 1)
    printer.on_command(print_command(voucher).SerializeToString(), 0)
    printer.tick(100)
    record = printer.printed_record(3)
    assert (record.lifetime_vouchers.count, record.lifetime_vouchers.value) == (1, 2500)
    assert [(v.validation_number, v.value) for v in record.last_printed] == [("1" * 18, 2500)]
