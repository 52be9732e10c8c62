"""The terminal's ticket printer driver: :class:`PrinterPort` over a device link.

A voucher is printed once at most, and its credits leave the meter only when the printer says
it printed it completely (``PrinterReport(printed=True)``).  A failure, a lost link or a
printer restart never leaves both a ticket and the credits: the driver asks the printer what
became of the voucher in progress whenever the link comes back, and the printer's own
non-volatile memory answers (a voucher cut short is voided, never presented).

Status becomes tilts: ``paper_out``, ``printer_jam``, ``head_open`` and ``printer_link``;
paper low is only a warning (:attr:`PrinterDriver.paper_low`).

The service menu's test voucher (:meth:`PrinterDriver.print_test_voucher`) is a job of its own
(``PrintTestVoucher``, answered by ``TestVoucherDone``): no value, no validation number, no
report to the terminal, so it touches neither the credits nor the voucher sequence.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable

from google.protobuf.timestamp_pb2 import Timestamp

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices.driver import Channel, DriverBase
from kiosk.terminal.devices.money_record import Baseline, Figure, FigureBaseline, MoneyRecord, Tally
from kiosk.terminal.devices.ports import Voucher, VoucherStatus
from proto.turbokiosk.v1.device_pb2 import (
    DeviceRecordRequest,
    DeviceStatusRequest,
    PrinterBaseline,
    PrinterCommand,
    PrinterEvent,
)
from proto.turbokiosk.v1.device_pb2 import Tally as TallyMessage

log = logging.getLogger(__name__)

LINK_TILT = TiltCode.PRINTER_LINK
RECONCILE_TILT = TiltCode.PRINTER_RECONCILE
#: status flag -> (tilt code, reason)
FAULTS = {
    "paper_out": (TiltCode.PAPER_OUT, "printer out of paper"),
    "jammed": (TiltCode.PRINTER_JAM, "printer jam"),
    "head_open": (TiltCode.HEAD_OPEN, "printer head open"),
}
FAILURES = {
    PrinterEvent.FAILURE_PAPER_OUT: "paper out",
    PrinterEvent.FAILURE_JAM: "printer jam",
    PrinterEvent.FAILURE_HEAD_OPEN: "printer head open",
    PrinterEvent.FAILURE_POWER_LOST: "printer lost power while printing",
    PrinterEvent.FAILURE_BUSY: "printer busy",
    PrinterEvent.FAILURE_BAD_REQUEST: "printer refused the voucher",
}


def print_command(voucher: Voucher) -> PrinterCommand:
    """The PrintVoucher message for a voucher."""
    issued = Timestamp()
    issued.FromMilliseconds(voucher.issued_at)
    job = PrinterCommand.PrintVoucher(
        validation_number=voucher.validation_number,
        value=voucher.value,
        terminal_id=voucher.terminal_id,
        venue=voucher.venue,
        issued_at=issued,
        expires_days=voucher.expires_days,
        sequence=voucher.sequence,
    )
    return PrinterCommand(print_voucher=job)


def voucher_of(job: PrinterCommand.PrintVoucher) -> Voucher:
    """Inverse of :func:`print_command` (the printer's side)."""
    return Voucher(
        validation_number=job.validation_number,
        value=job.value,
        terminal_id=job.terminal_id,
        venue=job.venue,
        issued_at=job.issued_at.ToMilliseconds(),
        expires_days=job.expires_days,
        sequence=job.sequence,
    )


class PrinterDriver(DriverBase):
    """A voucher printer on a device link."""

    link_tilt = LINK_TILT
    tamper_tilt = TiltCode.PRINTER_TAMPERED
    device_name = "printer"

    def __init__(
        self,
        channel: Channel,
        *,
        clock: Callable[[], float] = time.monotonic,
        connect_grace: float = 3.0,
        answer_timeout: float = 5.0,
    ) -> None:
        super().__init__(channel, clock=clock, connect_grace=connect_grace)
        self.answer_timeout = answer_timeout
        self.status: PrinterEvent.Status | None = None
        self.identity = ""
        self.job = ""  # validation number of the voucher in progress
        self.test_vouchers = 0  # test vouchers printed by this driver
        self._answers: dict[str, int] = {}  # voucher status replies by number
        self._test_answers: dict[int, PrinterEvent.TestVoucherDone] = {}
        self._test_id = 0  # the test voucher being printed
        self._receipts: dict[str, PrinterEvent.ReceiptDone] = {}  # receipt answers by id
        self._receipt_states: dict[str, bool] = {}  # receipt status answers: printed
        self._reconciling = False  # the runtime asked for money records (after power-up)
        self._record_id = 0  # the latest record request: older answers are ignored

    @property
    def paper(self) -> bool | None:
        """Paper in (None while the printer's status is unknown)."""
        return None if self.status is None else not self.status.paper_out

    @property
    def fault(self) -> str | None:
        """The printer's fault, if any (``printer jam``, ``printer head open``)."""
        s = self.status
        if s is None:
            return None
        return "printer jam" if s.jammed else "printer head open" if s.head_open else None

    @property
    def paper_low(self) -> bool:
        """The paper roll is nearly used up (a warning; printing goes on)."""
        return self.status is not None and self.status.paper_low

    # --- PrinterPort --------------------------------------------------------------------------

    def ready(self) -> bool:
        """Link up, status known, no fault, nothing printing."""
        self._drain()
        s = self.status
        return (
            self.link_up
            and s is not None
            and not (s.paper_out or s.jammed or s.head_open or s.busy)
            and not self.job
        )

    def print_voucher(self, voucher: Voucher) -> None:
        """Send the print job; the PrinterReport comes through poll()."""
        self.job = voucher.validation_number
        self._command(print_command(voucher))

    def voucher_status(self, validation_number: str) -> VoucherStatus:
        """At power-up: ask the printer whether this voucher was printed."""
        self._answers.pop(validation_number, None)
        if not self._wait_until(lambda: self.link_up, self.connect_grace):
            self._check_connect()
            self.job = validation_number  # asked again, and reported, when the link is up
            return "unknown"
        self._ask(validation_number)
        if not self._wait_until(lambda: validation_number in self._answers, self.answer_timeout):
            self.job = validation_number
            return "unknown"
        state = self._answers.pop(validation_number)
        if state == PrinterEvent.VOUCHER_STATE_PRINTED:
            return "printed"
        if state == PrinterEvent.VOUCHER_STATE_NOT_PRINTED:
            return "not_printed"
        return "unknown"

    def poll(self) -> list[c.Command]:
        """Reports since the last poll."""
        self._drain()
        return self._take_reports()

    # --- PrinterTestPrint -----------------------------------------------------------------

    def print_test_voucher(self, terminal_id: str, venue: str, at: int) -> str | None:
        """Print a VOID test voucher, waiting for the printer; None when printed, else why not."""
        problem = self.not_ready_reason()
        if problem is not None:
            return problem
        test_id = self._test_id = secrets.randbits(63) | 1
        printed_at = Timestamp()
        printed_at.FromMilliseconds(at)
        job = PrinterCommand.PrintTestVoucher(
            test_id=test_id, terminal_id=terminal_id, venue=venue, printed_at=printed_at
        )
        self._command(PrinterCommand(print_test_voucher=job))
        try:
            self._wait_until(
                lambda: test_id in self._test_answers or not self.link_up, self.answer_timeout
            )
        finally:
            self._test_id = 0
        done = self._test_answers.pop(test_id, None)
        if done is None:
            lost = "link lost" if not self.link_up else "no answer"
            return f"printer {lost} while printing it (look at the printer)"
        if not done.printed:
            return FAILURES.get(done.failure, "not printed")
        self.test_vouchers += 1
        return None

    # --- ReceiptPrinter ---------------------------------------------------------------------

    def print_receipt(self, receipt_id: str, lines: list[str], at: int) -> str | None:
        """Print a transaction receipt, waiting for the printer (which prints an id once);
        None when printed, else why not."""
        problem = self.not_ready_reason()
        if problem is not None:
            return problem
        self._receipts.pop(receipt_id, None)
        printed_at = Timestamp()
        printed_at.FromMilliseconds(at)
        job = PrinterCommand.PrintReceipt(receipt_id=receipt_id, lines=lines, printed_at=printed_at)
        self._command(PrinterCommand(print_receipt=job))
        self._wait_until(
            lambda: receipt_id in self._receipts or not self.link_up, self.answer_timeout
        )
        done = self._receipts.pop(receipt_id, None)
        if done is None:
            lost = "link lost" if not self.link_up else "no answer"
            return f"printer {lost} while printing the receipt"
        return None if done.printed else FAILURES.get(done.failure, "not printed")

    def receipt_printed(self, receipt_id: str) -> bool | None:
        """Ask the printer whether it printed this receipt (None: no answer now)."""
        if not self._wait_until(lambda: self.link_up, self.connect_grace):
            return None
        self._receipt_states.pop(receipt_id, None)
        request = PrinterCommand.ReceiptStatusRequest(receipt_id=receipt_id)
        self._command(PrinterCommand(receipt_status_request=request))
        self._wait_until(lambda: receipt_id in self._receipt_states, self.answer_timeout)
        return self._receipt_states.pop(receipt_id, None)

    def not_ready_reason(self) -> str | None:
        """Why nothing can be printed now (link, paper, fault, a voucher printing), or None."""
        self._drain()
        s = self.status
        if not self.link_up:
            return "printer link down" if self._ever_up else "printer not connected"
        if s is None:
            return "printer status unknown"
        if s.paper_out:
            return FAILURES[PrinterEvent.FAILURE_PAPER_OUT]
        if s.jammed:
            return FAILURES[PrinterEvent.FAILURE_JAM]
        if s.head_open:
            return FAILURES[PrinterEvent.FAILURE_HEAD_OPEN]
        if s.busy or self.job:
            return FAILURES[PrinterEvent.FAILURE_BUSY]
        return None

    # --- MoneyRecordPort ----------------------------------------------------------------------

    def request_money_record(self) -> None:
        """Ask for the printed record now, and after every voucher printed from now on."""
        self._reconciling = True
        self._request_record()

    def set_money_baseline(self, baseline: Baseline, epoch: int) -> None:
        """Have the printer keep this baseline (figure: vouchers)."""
        (vouchers,) = baseline
        kept = PrinterBaseline(
            terminal_vouchers=TallyMessage(
                count=vouchers.terminal.count, value=vouchers.terminal.value
            ),
            device_vouchers=TallyMessage(count=vouchers.device.count, value=vouchers.device.value),
            journal_epoch=epoch,
        )
        self._command(PrinterCommand(set_baseline=kept))

    def _request_record(self) -> None:
        self._record_id = secrets.randbits(63) | 1
        request = DeviceRecordRequest(request_id=self._record_id)
        self._command(PrinterCommand(record_request=request))

    def _printed_record(self, record: PrinterEvent.PrintedRecord) -> None:
        if record.request_id != self._record_id:
            return  # an answer to an older request: a newer one is on its way
        baseline, epoch = None, 0
        if record.HasField("baseline"):
            b = record.baseline
            epoch = b.journal_epoch
            baseline = (
                FigureBaseline(
                    Tally(b.terminal_vouchers.count, b.terminal_vouchers.value),
                    Tally(b.device_vouchers.count, b.device_vouchers.value),
                ),
            )
        last = ", ".join(f"{v.validation_number} {v.value}" for v in record.last_printed[-3:])
        lifetime = Tally(record.lifetime_vouchers.count, record.lifetime_vouchers.value)
        self._report(
            MoneyRecord(
                source="printer",
                device=self.device_name,
                tilt=RECONCILE_TILT,
                figures=(Figure("vouchers", "tickets_out", lifetime),),
                baseline=baseline,
                detail=f"last printed: {last or 'none'}",
                baseline_epoch=epoch,
            )
        )

    # --- events ---------------------------------------------------------------------------------

    def _on_link_up(self, new_peer: bool) -> None:
        self._command(PrinterCommand(status_request=DeviceStatusRequest()))
        if self._reconciling and new_peer:  # the printer restarted: ask again
            self._request_record()
        if self.job:  # what became of the voucher in progress while we could not hear?
            self._ask(self.job)

    def _on_payload(self, payload: bytes) -> None:
        ev = PrinterEvent()
        ev.ParseFromString(payload)
        kind = ev.WhichOneof("event")
        if kind == "status":
            self.status = ev.status
            for flag, (code, reason) in FAULTS.items():
                self._condition(code, bool(getattr(ev.status, flag)), reason)
        elif kind == "voucher_printed":
            self._finish(ev.voucher_printed.validation_number, True, "")
            if self._reconciling:  # a money event: its record comes after it
                self._request_record()
        elif kind == "voucher_failed":
            failed = ev.voucher_failed
            reason = FAILURES.get(failed.failure, "not printed")
            self._finish(failed.validation_number, False, reason)
        elif kind == "voucher_status":
            number, state = ev.voucher_status.validation_number, ev.voucher_status.state
            self._answers[number] = state
            if number == self.job and state == PrinterEvent.VOUCHER_STATE_PRINTED:
                self._finish(number, True, "")
                if self._reconciling:
                    self._request_record()
            elif number == self.job and state == PrinterEvent.VOUCHER_STATE_NOT_PRINTED:
                self._finish(number, False, "not printed (printer link interrupted)")
        elif kind == "test_voucher_done":
            if ev.test_voucher_done.test_id == self._test_id:
                self._test_answers[self._test_id] = ev.test_voucher_done
        elif kind == "receipt_done":
            done = ev.receipt_done
            self._receipts[done.receipt_id] = done
        elif kind == "receipt_status":
            self._receipt_states[ev.receipt_status.receipt_id] = ev.receipt_status.printed
        elif kind == "identity":
            self.identity = (
                f"{ev.identity.model} {ev.identity.serial_number} {ev.identity.firmware}"
            )
        elif kind == "printed_record":
            self._printed_record(ev.printed_record)

    def _finish(self, number: str, printed: bool, reason: str) -> None:
        if number != self.job:
            log.info("printer: result for %s, which is not in progress (ignored)", number)
            return
        self.job = ""
        self._report(c.PrinterReport(printed=printed, reason=reason))

    def _ask(self, number: str) -> None:
        request = PrinterCommand.VoucherStatusRequest(validation_number=number)
        self._command(PrinterCommand(voucher_status_request=request))

    def _command(self, command: PrinterCommand) -> None:
        self._send(command.SerializeToString())
