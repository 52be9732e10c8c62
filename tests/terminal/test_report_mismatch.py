"""Device reports through the runtime: a duplicate is ignored quietly, one that disagrees with
the state tilts for an attendant and is in the event log (in-process devices and the serial
validator's firmware simulator behind its real driver)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Lockup
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.devices.sim.validator import ValidatorMachine
from kiosk.terminal.devices.validator_driver import ValidatorDriver
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import REPORT_MISMATCH_TILT, TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.audit import audit
from kiosk.terminal.store.port import sqlite_journal
from proto.turbokiosk.v1.device_pb2 import ValidatorEvent
from rng import Csprng
from tests.helpers.device_link import Clock, Wire
from tests.helpers.terminal_rig import Rig


class MiscountingValidator(InProcessBillValidator):
    """Stacks the note in escrow but reports it as a $5 note (a firmware fault)."""

    def poll(self) -> list[c.Command]:
        return [
            c.BillStackedReport(value=500, seat=r.seat) if isinstance(r, c.BillStackedReport) else r
            for r in super().poll()
        ]


class StutteringValidator(InProcessBillValidator):
    """Reports every stacked note twice."""

    def poll(self) -> list[c.Command]:
        out: list[c.Command] = []
        for report in super().poll():
            out += [report, report] if isinstance(report, c.BillStackedReport) else [report]
        return out


class DeafValidator(InProcessBillValidator):
    """Never hears the terminal's acknowledgement (as if the power went just before it)."""

    def acknowledge(self, seat: int) -> None:
        pass


class DeviceRig(Rig):
    """The terminal rig; a subclass names a misbehaving validator in ``validator_class``."""


def rig_with(validator: type[InProcessBillValidator], base: Path) -> DeviceRig:
    class ThisRig(DeviceRig):
        validator_class = validator

    return ThisRig(base)


def mismatch_tilts(rt: TerminalRuntime) -> list[e.TiltRaised]:
    rows = rt.journal.event_log(kinds=["TiltRaised"])
    return [
        r.event
        for r in rows
        if isinstance(r.event, e.TiltRaised) and r.event.code == REPORT_MISMATCH_TILT
    ]


def test_a_stacked_value_that_disagrees_tilts_for_an_attendant(tmp_path: Path) -> None:
    rig = rig_with(MiscountingValidator, tmp_path / "t")
    rt = rig.runtime
    assert rig.validator.insert(2000)
    rt.pump()
    assert rt.state.credits == [0]  # nothing credited on a report the state contradicts
    tilt = rt.state.tilts[REPORT_MISMATCH_TILT]
    assert tilt.needs_attendant is True
    assert tilt.reason == (
        "bill validator reported the note of 500 stacked; "
        "the terminal expected the note of 2000 in escrow"
    )
    assert Lockup.TILT in rt.state.lockups()
    [logged] = mismatch_tilts(rt)  # journaled, so in the event log
    assert logged.reason == tilt.reason and logged.needs_attendant
    assert rt.state.lifetime["bills_in"] == 0
    rt.close()
    # the note is in the cash box and not in the journal: the validator's record disputes it,
    # which the audit reports (decision 0038); nothing else is wrong
    report = audit(rig.data_dir)
    assert [p.split(":")[0] for p in report.problems] == ["device records"]
    assert "bill_validator_reconcile" in report.problems[0]


def test_a_stacked_note_reported_twice_is_credited_once_and_quietly(tmp_path: Path) -> None:
    rig = rig_with(StutteringValidator, tmp_path / "t")
    rt = rig.runtime
    assert rig.validator.insert(2000)
    rt.pump()
    assert rt.state.credits == [2000] and rt.state.lifetime["bills_in_count"] == 1
    assert rt.state.tilts == {} and mismatch_tilts(rt) == []
    rt.close()


def test_a_stacked_note_reported_again_after_a_power_cut_is_a_duplicate(tmp_path: Path) -> None:
    rig = rig_with(DeafValidator, tmp_path / "t")
    assert rig.validator.insert(2000)
    rig.runtime.pump()
    rt = rig.power_cut()  # the validator still holds the note as unacknowledged: reported again
    assert rt.state.credits == [2000] and rt.state.lifetime["bills_in_count"] == 1
    assert rt.state.tilts == {} and mismatch_tilts(rt) == []
    rt.close()


class MiscountingMachine(ValidatorMachine):
    """The validator's firmware simulator, with a fault: it reports a stacked note as $5."""

    def _emit(self, event: ValidatorEvent) -> None:
        if event.WhichOneof("event") == "stacked" and event.stacked.item.note_value:
            event.stacked.item.note_value = 500
        super()._emit(event)


def test_a_serial_validator_that_miscounts_tilts_the_terminal(tmp_path: Path) -> None:
    clock = Clock()
    machine = MiscountingMachine(tmp_path / "bv", clock.ms, stack_ms=100, escrow_timeout_ms=5000)
    wire = Wire(clock, machine)
    rng = Csprng()
    driver = ValidatorDriver(wire, clock=clock.seconds, connect_grace=0.5)
    rt = TerminalRuntime(
        tmp_path / "terminal",
        journal=sqlite_journal(tmp_path / "terminal"),
        deck_factory=RngDeckFactory(rng),
        validator=driver,
        printer=InProcessPrinter(tmp_path / "printer"),
        validation_numbers=LocalValidationNumbers(rng.randbelow),
        clock=clock,
    )
    rt.power_up()
    for _ in range(20):  # the link comes up and the validator is enabled
        clock.advance(100)
        wire.run()
        rt.pump()
    reply: Any = machine.control(["insert", "2000"], clock.ms)
    assert "2000" in str(reply) or reply
    for _ in range(40):
        clock.advance(100)
        wire.run()
        rt.pump()
        if REPORT_MISMATCH_TILT in rt.state.tilts:
            break
    assert rt.state.credits == [0]
    assert "the note of 500 stacked" in rt.state.tilts[REPORT_MISMATCH_TILT].reason
    assert "the note of 2000 in escrow" in rt.state.tilts[REPORT_MISMATCH_TILT].reason
    assert len(mismatch_tilts(rt)) == 1
    rt.close()
