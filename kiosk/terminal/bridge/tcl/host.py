"""The host side of TCL, sans-IO: status polling and one print job at a time.

The host polls ``^S|^`` (faster while a job is out) and sends a job as ``^P|template|1|fields
...|^``, which the printer does not answer: what became of it is read from the statuses that
follow, through :data:`JOB_TABLE` ((job stage, what the status shows) -> what happened).  A
printer that stops answering for ``link_timeout_ms`` is a lost link.

Templates: ``0`` the cash-out voucher (the eight lines of :func:`kiosk.terminal.devices.voucher.
voucher_lines`, then the number its ITF barcode carries), ``1`` the service menu's test voucher
(the eight lines of :func:`~kiosk.terminal.devices.voucher.test_voucher_lines`): the printer's
resident ones.  Regions and templates of the host's own (:meth:`TclPrinter.define`,
:mod:`kiosk.terminal.bridge.tcl.layout`) are sent whenever the printer starts answering and
again after it reports a reset (a power cycle may lose them), before any job.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kiosk.terminal.bridge.native import SerialSettings
from kiosk.terminal.bridge.tcl.codec import RESPONSE, Decoder, Message, encode
from kiosk.terminal.bridge.tcl.status import TclStatus, parse_status

SETTINGS = SerialSettings(baudrate=38400, parity="N")
VOUCHER_TEMPLATE, TEST_TEMPLATE = "0", "1"


@dataclass(frozen=True)
class PrinterLinkChanged:
    """The printer answers (``up``) or has stopped answering."""

    up: bool


@dataclass(frozen=True)
class PrinterIdentified:
    """The firmware the printer names in its status."""

    firmware: str


@dataclass(frozen=True)
class PrinterCondition:
    """The printer's condition, when it changes."""

    paper_low: bool
    paper_out: bool
    jammed: bool
    head_open: bool
    busy: bool


@dataclass(frozen=True)
class JobStarted:
    """The printer is printing the job."""

    job: str


@dataclass(frozen=True)
class JobPrinted:
    """The job was printed completely and presented."""

    job: str


@dataclass(frozen=True)
class JobFailed:
    """The job was not printed: ``failure`` is ``paper_out``, ``jammed``, ``head_open``,
    ``power_lost`` or ``not_taken``; ``partial`` when some of it was printed (and voided)."""

    job: str
    failure: str
    partial: bool


PrinterNativeEvent = (
    PrinterLinkChanged | PrinterIdentified | PrinterCondition | JobStarted | JobPrinted | JobFailed
)


class Stage(enum.Enum):
    """How far a job got, as the host knows it."""

    QUEUED = "queued"  # not sent yet
    SENT = "sent"  # sent (or maybe sent: resumed after a restart); not seen printing
    STARTED = "started"  # seen printing
    RESUMED = "resumed"  # seen printing before the bridge restarted


class Outcome(enum.Enum):
    """What a status means for the job out."""

    WAIT = "wait"
    STARTED = "started"
    PRINTED = "printed"
    FAILED = "failed"
    FAILED_PARTIAL = "failed partial"
    NOT_TAKEN = "not taken"


def judge(stage: Stage, status: TclStatus, *, waited_out: bool) -> Outcome:
    """:data:`JOB_TABLE`'s reading of one status for a job at ``stage``."""
    if stage in (Stage.STARTED, Stage.RESUMED):
        if status.reset:
            return Outcome.FAILED_PARTIAL  # the printer restarted in the middle of it
        if status.busy:
            return Outcome.WAIT
        if status.paper_in_chute:
            return Outcome.PRINTED  # a finished ticket waits in the chute, whatever came after
        if status.stopped:
            return Outcome.FAILED_PARTIAL
        if stage is Stage.STARTED:
            return Outcome.FAILED_PARTIAL  # cut short by a fault that came and went between polls
        return Outcome.PRINTED  # (resumed: the ticket may have been taken meanwhile)
    if status.busy:
        return Outcome.STARTED
    if status.paper_in_chute:
        return Outcome.PRINTED  # started and finished between two polls
    if status.stopped:
        return Outcome.FAILED
    return Outcome.NOT_TAKEN if waited_out else Outcome.WAIT


#: the job table, spelled out (tests/bridge/test_tcl.py checks :func:`judge` against it):
#: (stage, busy, fault, paper in chute, waited out) -> outcome
JOB_TABLE: dict[tuple[Stage, bool, bool, bool, bool], Outcome] = {
    (Stage.SENT, True, False, False, False): Outcome.STARTED,
    (Stage.SENT, False, True, False, False): Outcome.FAILED,
    (Stage.SENT, False, False, True, False): Outcome.PRINTED,
    (Stage.SENT, False, False, False, False): Outcome.WAIT,
    (Stage.SENT, False, False, False, True): Outcome.NOT_TAKEN,
    (Stage.STARTED, True, False, False, False): Outcome.WAIT,
    (Stage.STARTED, True, True, False, False): Outcome.WAIT,
    (Stage.STARTED, False, False, False, False): Outcome.FAILED_PARTIAL,
    (Stage.STARTED, False, False, True, False): Outcome.PRINTED,
    (Stage.STARTED, False, True, False, False): Outcome.FAILED_PARTIAL,
    (Stage.RESUMED, True, False, False, False): Outcome.WAIT,
    (Stage.RESUMED, False, False, False, False): Outcome.PRINTED,
    (Stage.RESUMED, False, False, True, False): Outcome.PRINTED,
    (Stage.RESUMED, False, True, False, False): Outcome.FAILED_PARTIAL,
}


class TclPrinter:
    """A TCL ticket printer seen from the host."""

    settings = SETTINGS

    def __init__(
        self,
        *,
        idle_poll_ms: int = 100,
        busy_poll_ms: int = 50,
        reply_timeout_ms: int = 300,
        link_timeout_ms: int = 2000,
        start_timeout_ms: int = 1000,
    ) -> None:
        self.idle_poll_ms, self.busy_poll_ms = idle_poll_ms, busy_poll_ms
        self.reply_timeout_ms, self.link_timeout_ms = reply_timeout_ms, link_timeout_ms
        self.start_timeout_ms = start_timeout_ms
        self.decoder = Decoder(RESPONSE)
        self.status: TclStatus | None = None
        self._events: list[PrinterNativeEvent] = []
        self._job: tuple[str, Stage, bytes] | None = None
        self._job_since = 0
        self._waiting = False  # a status request is out
        self._sent_at = 0
        self._next_poll = 0
        self._last_heard: int | None = None
        self._up = False
        self._firmware = ""
        self._condition: PrinterCondition | None = None
        self._definitions = b""  # the host's regions and templates, as sent
        self._defined = False  # sent since the link came up and the last reset
        self.definitions_sent = 0

    # --- the bridge's side ---------------------------------------------------------------------

    def define(self, messages: Sequence[Message]) -> None:
        """Regions and templates (``^R``, ``^T``) to send before any job, whenever the printer
        starts answering or reports a reset."""
        self._definitions = b"".join(encode(m) for m in messages)
        self._defined = False

    def print_job(self, job: str, template: str, fields: tuple[str, ...]) -> None:
        """Print ``fields`` in ``template`` (one job at a time); named ``job`` in its events."""
        command = encode(Message("P", (template, "1", *fields)))
        self._job = (job, Stage.QUEUED, command)

    def resume(self, job: str, *, started: bool) -> None:
        """A job sent before the bridge restarted: learn its fate from the statuses."""
        self._job = (job, Stage.RESUMED if started else Stage.SENT, b"")
        self._job_since = self._last_heard or 0

    def events(self) -> list[PrinterNativeEvent]:
        """Events since the last call."""
        out, self._events = self._events, []
        return out

    # --- the line --------------------------------------------------------------------------------

    def receive(self, data: bytes, now_ms: int) -> None:
        """Bytes from the printer."""
        for message in self.decoder.feed(data):
            if message.code != "S" or not self._waiting:
                continue
            status = parse_status(message.raw)
            if status is None:
                continue
            self._waiting = False
            self._last_heard = now_ms
            if not self._up:
                self._up = True
                self._defined = False  # a printer that was away may have lost them
                self._events.append(PrinterLinkChanged(up=True))
                if self._job is not None and self._job[1] is not Stage.QUEUED:
                    self._job_since = now_ms
            self._on_status(status, now_ms)

    def transmit(self, now_ms: int) -> bytes:
        """A job to send, a status request, or b""."""
        if self._waiting:
            if now_ms - self._sent_at < self.reply_timeout_ms:
                return b""
            self._waiting = False
            self.decoder.reset()
            heard = self._last_heard
            if self._up and (heard is None or now_ms - heard >= self.link_timeout_ms):
                self._up = False
                self._events.append(PrinterLinkChanged(up=False))
        if self._up and self.status is not None and self._definitions and not self._defined:
            self._defined = True
            self.definitions_sent += 1
            return self._definitions
        job = self._job
        if job is not None and job[1] is Stage.QUEUED and self._up and self.status is not None:
            self._job = (job[0], Stage.SENT, b"")
            self._job_since = now_ms
            return job[2]
        if now_ms >= self._next_poll or not self._up:
            busy = self._job is not None
            self._next_poll = now_ms + (self.busy_poll_ms if busy else self.idle_poll_ms)
            self._waiting, self._sent_at = True, now_ms
            return encode(Message("S"))
        return b""

    def next_deadline(self) -> int:
        """When :meth:`transmit` has something to send."""
        if self._waiting:
            return self._sent_at + self.reply_timeout_ms
        return self._next_poll

    # --- inside ---------------------------------------------------------------------------------

    def _on_status(self, status: TclStatus, now_ms: int) -> None:
        self.status = status
        if status.reset:
            self._defined = False  # the printer restarted: define again before the next job
        if status.firmware != self._firmware:
            self._firmware = status.firmware
            self._events.append(PrinterIdentified(firmware=status.firmware))
        job = self._job
        if job is not None and job[1] is not Stage.QUEUED:
            name, stage, _ = job
            waited_out = now_ms - self._job_since >= self.start_timeout_ms
            outcome = judge(stage, status, waited_out=waited_out)
            OUTCOMES[outcome](self, name, status)
        condition = PrinterCondition(
            paper_low=status.paper_low,
            paper_out=status.paper_out,
            jammed=status.jammed or status.system_error or status.head_error or status.offline,
            head_open=status.head_open,
            busy=status.busy,
        )
        if condition != self._condition:
            self._condition = condition
            self._events.append(condition)

    def _wait(self, name: str, status: TclStatus) -> None:
        pass

    def _started(self, name: str, status: TclStatus) -> None:
        self._job = (name, Stage.STARTED, b"")
        self._events.append(JobStarted(name))

    def _printed(self, name: str, status: TclStatus) -> None:
        self._job = None
        self._events.append(JobPrinted(name))

    def _failed(self, name: str, status: TclStatus) -> None:
        self._job = None
        self._events.append(JobFailed(name, status.stopped or "jammed", partial=False))

    def _failed_partial(self, name: str, status: TclStatus) -> None:
        self._job = None
        failure = "power_lost" if status.reset else (status.stopped or "jammed")
        self._events.append(JobFailed(name, failure, partial=True))

    def _not_taken(self, name: str, status: TclStatus) -> None:
        self._job = None
        self._events.append(JobFailed(name, "not_taken", partial=False))


OUTCOMES: dict[Outcome, Callable[[TclPrinter, str, TclStatus], None]] = {
    Outcome.WAIT: TclPrinter._wait,
    Outcome.STARTED: TclPrinter._started,
    Outcome.PRINTED: TclPrinter._printed,
    Outcome.FAILED: TclPrinter._failed,
    Outcome.FAILED_PARTIAL: TclPrinter._failed_partial,
    Outcome.NOT_TAKEN: TclPrinter._not_taken,
}
