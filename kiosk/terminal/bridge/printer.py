"""The bridge's ticket printer: the terminal's sealed-link printer on one side, a TCL printer
(:class:`~kiosk.terminal.bridge.tcl.host.TclPrinter`) on the other.

Towards the terminal it is the simulated printer's firmware
(:class:`~kiosk.terminal.devices.sim.printer. PrinterMachine`: the vouchers printed and voided, the
job in progress, the answers about a voucher, the printed record and the baseline), with its memory
in the bridge's SQLite journal. A job is journaled before it is sent, journaled again when the
printer is seen printing it, and settled (printed, or voided) only by what the printer's statuses
say.  A bridge restarted with a job open asks the printer's statuses what became of it
(:meth:`TclPrinter.resume`), and answers the terminal's question about that voucher only then.
Vouchers are printed in the bridge's own template (:mod:`kiosk.terminal.bridge.tcl.layout`),
which the printer is given whenever it starts answering.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kiosk.terminal.bridge.journal import BridgeJournal
from kiosk.terminal.bridge.tcl.host import (
    TEST_TEMPLATE,
    JobFailed,
    JobPrinted,
    JobStarted,
    PrinterCondition,
    PrinterIdentified,
    PrinterLinkChanged,
    TclPrinter,
)
from kiosk.terminal.bridge.tcl.layout import VOUCHER_REGIONS, voucher_fields
from kiosk.terminal.bridge.tcl.layout import VOUCHER_TEMPLATE as VOUCHER_LAYOUT
from kiosk.terminal.devices.ports import Voucher
from kiosk.terminal.devices.sim.memory import DeviceMemory
from kiosk.terminal.devices.sim.printer import PrinterMachine
from kiosk.terminal.devices.voucher import TestVoucher, test_voucher_lines, voucher_lines
from proto.turbokiosk.v1.device_pb2 import DeviceIdentity, PrinterCommand, PrinterEvent

Ev = PrinterEvent
FAILURES = {
    "paper_out": Ev.FAILURE_PAPER_OUT,
    "jammed": Ev.FAILURE_JAM,
    "head_open": Ev.FAILURE_HEAD_OPEN,
    "power_lost": Ev.FAILURE_POWER_LOST,
    "not_taken": Ev.FAILURE_BAD_REQUEST,
}


def job_name(job: dict[str, Any]) -> str:
    """The name a job goes by at the printer: its validation number, or ``test-<id>``."""
    return f"test-{job['test_id']}" if "test_id" in job else str(job["validation_number"])


class BridgePrinter(PrinterMachine):
    """A real TCL printer behind the sealed link (see the module's docstring)."""

    def __init__(self, native: TclPrinter, state_dir: Path, now: int, *, pairing: str = "") -> None:
        self.native = native
        native.define((*(r.message() for r in VOUCHER_REGIONS), VOUCHER_LAYOUT.message()))
        self.device_up = False
        super().__init__(state_dir, now, pairing=pairing)

    def _memory(self, state_dir: Path, default: dict[str, Any]) -> DeviceMemory:
        return BridgeJournal(state_dir / "bridge-printer.sqlite", default)

    def _power_up_job(self, job: dict[str, Any]) -> None:
        self.native.resume(job_name(job), started=bool(job.get("started")))

    # --- the device's side ----------------------------------------------------------------------

    def device_receive(self, data: bytes, now: int) -> None:
        """Bytes from the printer; what they settle is journaled at once."""
        self.native.receive(data, now)
        self._handle_native()

    def device_transmit(self, now: int) -> bytes:
        """Bytes for the printer."""
        self._handle_native()
        return self.native.transmit(now)

    def _handle_native(self) -> None:
        for event in self.native.events():
            match event:
                case PrinterLinkChanged(up=up):
                    self.device_up = up
                case PrinterIdentified(firmware=firmware):
                    self.identity = DeviceIdentity(
                        model="TCL printer", serial_number="", firmware=firmware
                    )
                case JobStarted():
                    job = self.mem.data["printing"]
                    if job is not None:
                        job["started"] = True
                        self.mem.save()
                case JobPrinted(job=name):
                    self._settled(name, None)
                case JobFailed(job=name, failure=failure):
                    self._settled(name, FAILURES[failure])
                case PrinterCondition():
                    self._condition(event)

    def _settled(self, name: str, failure: Ev.Failure | None) -> None:
        job = self.mem.data["printing"]
        if job is None or job_name(job) != name:
            return
        job.pop("started", None)
        if failure is None:
            self._complete(job)
        else:
            self._void(job, failure)
        for number in self._deferred:
            self._answer(number)
        self._deferred.clear()

    def _condition(self, condition: PrinterCondition) -> None:
        faults = self.mem.data["faults"]
        now = {
            "paper_low": condition.paper_low,
            "paper_out": condition.paper_out,
            "jammed": condition.jammed,
            "head_open": condition.head_open,
        }
        if now != faults:
            faults.update(now)
            self.mem.save()
            self._emit_status()

    # --- the firmware's steps, done by the printer -----------------------------------------------

    def _print(self, msg: PrinterCommand.PrintVoucher, now: int) -> None:
        before = self.mem.data["printing"]
        super()._print(msg, now)
        job = self.mem.data["printing"]
        if job is not None and job is not before:
            voucher = Voucher(**{k: v for k, v in job.items() if k != "started"})
            fields = voucher_fields(voucher_lines(voucher), voucher.validation_number)
            self.native.print_job(job_name(job), VOUCHER_LAYOUT.id, fields)

    def _print_test(self, msg: PrinterCommand.PrintTestVoucher, now: int) -> None:
        before = self.mem.data["printing"]
        super()._print_test(msg, now)
        job = self.mem.data["printing"]
        if job is not None and job is not before:
            fields = tuple(test_voucher_lines(TestVoucher(**job["voucher"])))
            self.native.print_job(job_name(job), TEST_TEMPLATE, fields)

    def tick(self, now: int) -> None:
        """Nothing of its own: the printer's statuses settle a job."""

    def next_deadline(self) -> int | None:
        return self.native.next_deadline()

    def _complete(self, job: dict[str, Any]) -> None:
        if "test_id" in job:
            return self._finish_test(job, None)
        voucher = Voucher(**job)
        d = self.mem.data
        d["printed"][voucher.validation_number] = job
        d["printing"] = None
        d["lifetime"] = [d["lifetime"][0] + 1, d["lifetime"][1] + voucher.value]
        self.mem.save()
        printed = Ev.VoucherPrinted(validation_number=voucher.validation_number)
        self._emit(self._event(voucher_printed=printed))
        self._emit_status()
        return None

    def _void(self, job: dict[str, Any], failure: Ev.Failure) -> None:
        if "test_id" in job:
            return self._finish_test(job, failure)
        number = job["validation_number"]
        d = self.mem.data
        d["voided"].append(number)
        d["printing"] = None
        self.mem.save()
        self._failed(number, failure, partial=failure != Ev.FAILURE_BAD_REQUEST)
        self._emit_status()
        return None

    def _finish_test(self, job: dict[str, Any], failure: Ev.Failure | None) -> None:
        d = self.mem.data
        record = {**job["voucher"], "test_id": job["test_id"], "printed": failure is None}
        d["tests"] = [*d["tests"][-19:], record]
        d["printing"] = None
        self.mem.save()
        self._test_done(job["test_id"], failure)
        self._emit_status()

    def control(self, words: list[str], now: int) -> str:
        """``status``: the bridge's record; ``vouchers``: what it knows printed and voided."""
        if words == ["status"]:
            snapshot = {**self.snapshot(), "device_up": self.device_up}
            return "ok " + json.dumps(snapshot, sort_keys=True)
        if words == ["vouchers"]:
            d = self.mem.data
            return "ok " + json.dumps({"printed": d["printed"], "voided": d["voided"]})
        return "error commands: status | vouchers"
