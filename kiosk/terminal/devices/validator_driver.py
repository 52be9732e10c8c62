"""The terminal's bill validator driver: :class:`BillValidatorPort` over a device link.

Device events become terminal reports:

=====================  ==========================================================
validator event        report
=====================  ==========================================================
Escrowed (note)        ``InsertBill`` -> the terminal answers with stack / return
Escrowed (ticket)      ``TicketInserted`` -> the runtime asks the host, then
                       ``InsertTicket``
Stacked                ``BillStackedReport`` / ``TicketStackedReport`` (credit)
Returned               ``BillReturnedReport`` / ``TicketReturnedReport``
Rejected               nothing to credit: kept in :attr:`rejections`, logged
Status                 ``RaiseTilt`` / ``ClearTilt``: bill_jam, cashbox_full,
                       cashbox_removed, bill_validator_cheated,
                       bill_validator_failure
link lost / back       ``RaiseTilt`` / ``ClearTilt`` bill_validator_link
=====================  ==========================================================

Exactly-once crediting rests on three things: the link delivers each event once and in order;
the validator keeps a stacked or returned event until the terminal acknowledges it (at the
poll after the one that handed it over, i.e. after the runtime journaled it) and takes no new
item into escrow meanwhile; and the terminal core credits a stack report only for the item its
journal holds in escrow.  An item in escrow that this driver never reported (the terminal
restarted) is returned to the player.

The service menu's bill validator test (:meth:`ValidatorDriver.set_test_mode`) needs nothing of
the validator but the acceptance it already knows: while the test runs the driver asks for
every note value and tickets, under acceptance ids of its own (``SetAcceptance.acceptance_id``,
echoed in ``Escrowed``).  An item taken under a test acceptance is never reported to the
terminal: the driver notes its value and returns it at once, and its ``Returned`` event is
acknowledged without a report.  So a test note can reach neither the credit meter nor the
journal, whenever the test stops (an item escrowed under the test acceptance is returned even
when its event arrives after the test stopped) and whatever restarts (a validator that restarts
returns its escrow by itself; a terminal that restarts returns whatever escrow it does not
know).  A validator that does not echo acceptance ids is served by the driver's mode at the
time the escrow event is handled; the driver handles every event already received before it
leaves test mode.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import deque
from collections.abc import Callable

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import NOTE_VALUES
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices.driver import Channel, DriverBase
from kiosk.terminal.devices.money_record import Baseline, Figure, FigureBaseline, MoneyRecord, Tally
from kiosk.terminal.devices.ports import TicketInserted
from proto.turbokiosk.v1.device_pb2 import (
    AcknowledgeEvents,
    DeviceRecordRequest,
    DeviceStatusRequest,
    EscrowItem,
    ValidatorBaseline,
    ValidatorCommand,
    ValidatorEvent,
)
from proto.turbokiosk.v1.device_pb2 import Tally as TallyMessage

log = logging.getLogger(__name__)

LINK_TILT = TiltCode.BILL_VALIDATOR_LINK
RECONCILE_TILT = TiltCode.BILL_VALIDATOR_RECONCILE
#: status flag -> (tilt code, reason)
FAULTS = {
    "jammed": (TiltCode.BILL_JAM, "bill validator jam"),
    "cashbox_full": (TiltCode.CASHBOX_FULL, "cash box full"),
    "cashbox_removed": (TiltCode.CASHBOX_REMOVED, "cash box removed"),
    "cheated": (TiltCode.BILL_VALIDATOR_CHEATED, "bill validator cheating attempt"),
}
RETURN_REASONS = {
    ValidatorEvent.RETURN_REASON_COMMANDED: "returned",
    ValidatorEvent.RETURN_REASON_ESCROW_TIMEOUT: "escrow timeout",
    ValidatorEvent.RETURN_REASON_POWER_UP: "returned at power-up",
    ValidatorEvent.RETURN_REASON_CASHBOX_FULL: "cash box full",
}
REJECT_REASONS = {
    ValidatorEvent.REJECT_REASON_DISABLED: "validator disabled",
    ValidatorEvent.REJECT_REASON_NOT_ACCEPTED: "not accepted",
    ValidatorEvent.REJECT_REASON_NOT_RECOGNISED: "not recognised",
    ValidatorEvent.REJECT_REASON_ESCROW_BUSY: "escrow busy",
    ValidatorEvent.REJECT_REASON_FAULT: "validator fault",
}


def describe(item: EscrowItem) -> str:
    """``note 2000`` or ``ticket 123...``."""
    if item.WhichOneof("item") == "ticket_number":
        return f"ticket {item.ticket_number}"
    return f"note {item.note_value}"


class ValidatorDriver(DriverBase):
    """A bill (and voucher) validator on a device link."""

    link_tilt = LINK_TILT
    tamper_tilt = TiltCode.BILL_VALIDATOR_TAMPERED
    device_name = "bill validator"

    def __init__(
        self,
        channel: Channel,
        *,
        clock: Callable[[], float] = time.monotonic,
        connect_grace: float = 3.0,
        accept_tickets: bool = True,
        seat: int = 0,
    ) -> None:
        super().__init__(channel, clock=clock, connect_grace=connect_grace)
        self.accept_tickets = accept_tickets
        self.seat = seat
        self.enabled = False
        self.notes: tuple[int, ...] = ()
        self.status: ValidatorEvent.Status | None = None
        self.identity = ""
        self.device = ""  # model and serial number: the name the host keeps note counts by
        self.rejections: deque[tuple[str, str]] = deque(maxlen=100)
        self._escrow = 0  # escrow event id of the item last reported to the terminal
        self._returning = 0  # escrow event id of an unknown item we asked to return
        self._ack_due = 0  # highest stacked/returned event id handled
        self._handed = 0  # ... of those already handed to the terminal
        self._acked = 0
        self.test_mode = False
        self._test_notes: list[int] = []
        self._test_tickets: list[str] = []
        # acceptance ids: random start, so that no two driver lifetimes share one
        self._acceptance_id = secrets.randbits(48)
        self._test_acceptances: set[int] = set()  # ids sent while the test ran
        self._test_escrows: set[int] = set()  # escrow event ids of test items being returned
        self._reconciling = False  # the runtime asked for money records (after power-up)
        self._record_id = 0  # the latest record request: older answers are ignored

    # --- BillValidatorPort ---------------------------------------------------------------

    def set_enabled(self, enabled: bool, notes: tuple[int, ...]) -> None:
        """Accept these notes (and vouchers), or nothing (in force once a test stops)."""
        self.enabled, self.notes = enabled, tuple(notes)
        if not self.test_mode:
            self._send_acceptance()

    # --- BillValidatorTestMode ------------------------------------------------------------

    def set_test_mode(self, on: bool) -> None:
        """Start the service menu's test (every note and ticket is read and returned, nothing
        reported; the list of notes read starts afresh) or stop it (the terminal's own
        acceptance again; a test item still in escrow is returned all the same)."""
        if on == self.test_mode:
            return
        if on:
            self._test_notes, self._test_tickets = [], []
        else:
            self._drain()  # events already here were sent under the test acceptance
        self.test_mode = on
        self._send_acceptance()

    def test_notes(self) -> list[int]:
        """Values of the notes read (and returned) since the test started, cents."""
        self._drain()
        return list(self._test_notes)

    def test_tickets(self) -> list[str]:
        """Validation numbers of the tickets read (and returned) since the test started."""
        self._drain()
        return list(self._test_tickets)

    def stack(self, seat: int) -> None:
        """Stack the item in escrow (the one this driver reported)."""
        if self._escrow:
            self._command(
                ValidatorCommand(stack=ValidatorCommand.Stack(escrow_event_id=self._escrow))
            )

    def return_note(self, seat: int) -> None:
        """Return the item in escrow to the player."""
        if self._escrow:
            self._command(
                ValidatorCommand(
                    return_escrow=ValidatorCommand.Return(
                        escrow_event_id=self._escrow, reason="terminal"
                    )
                )
            )

    def poll(self) -> list[c.Command]:
        """Reports since the last poll; acknowledges what the last poll handed over."""
        self._acknowledge()
        self._drain()
        return self._hand_over()

    def acknowledge(self, seat: int) -> None:
        """The terminal journaled a stack report: the validator may forget it now."""
        self._acknowledge()

    def recover(self) -> list[c.Command]:
        """At power-up: what became of the item in escrow (waits for the validator a while)."""
        self._wait_until(lambda: self.status is not None, self.connect_grace)
        self._check_connect()
        if self.status is not None and self.status.escrow_event_id:
            self._wait_until(lambda: self.status is None or not self.status.escrow_event_id, 3.0)
        return self._hand_over(tilts=False)  # conditions follow with the first poll

    # --- MoneyRecordPort ------------------------------------------------------------------

    def request_money_record(self) -> None:
        """Ask for the cash-box record now, and after every item stacked from now on."""
        self._reconciling = True
        self._request_record()

    def set_money_baseline(self, baseline: Baseline, epoch: int) -> None:
        """Have the validator keep this baseline (figures: notes, tickets)."""
        notes, tickets = baseline
        kept = ValidatorBaseline(
            terminal_notes=_tally(notes.terminal),
            terminal_tickets=_tally(tickets.terminal),
            device_notes=_tally(notes.device),
            device_tickets=_tally(tickets.device),
            journal_epoch=epoch,
        )
        self._command(ValidatorCommand(set_baseline=kept))

    def _request_record(self) -> None:
        self._record_id = secrets.randbits(63) | 1
        request = DeviceRecordRequest(request_id=self._record_id)
        self._command(ValidatorCommand(record_request=request))

    def _cashbox_record(self, record: ValidatorEvent.CashboxRecord) -> None:
        if record.request_id != self._record_id:
            return  # an answer to an older request: a newer one is on its way
        notes = Tally(record.lifetime_notes.count, record.lifetime_notes.value)
        tickets = Tally(record.lifetime_tickets.count, 0)
        baseline, epoch = None, 0
        if record.HasField("baseline"):
            b = record.baseline
            epoch = b.journal_epoch
            baseline = (
                FigureBaseline(_of(b.terminal_notes), _of(b.device_notes)),
                FigureBaseline(_of(b.terminal_tickets), _of(b.device_tickets)),
            )
        box = ", ".join(f"{n} x {v}" for v, n in sorted(record.notes_by_value.items()))
        self._report(
            MoneyRecord(
                source="validator",
                device=self.device_name,
                tilt=RECONCILE_TILT,
                figures=(
                    Figure("notes", "bills_in", notes),
                    Figure("tickets", "tickets_in", tickets, values=False),
                ),
                baseline=baseline,
                detail=f"cash box: notes {box or 'none'}; tickets {record.tickets}",
                baseline_epoch=epoch,
            )
        )

    def _hand_over(self, *, tilts: bool = True) -> list[c.Command]:
        self._handed = self._ack_due
        reports = self._take_reports()
        if tilts:
            return reports
        self._reports = [r for r in reports if isinstance(r, c.RaiseTilt | c.ClearTilt)]
        return [r for r in reports if not isinstance(r, c.RaiseTilt | c.ClearTilt)]

    # --- events ---------------------------------------------------------------------------

    def _on_link_up(self, new_peer: bool) -> None:
        self._send_acceptance()
        self._command(ValidatorCommand(status_request=DeviceStatusRequest()))
        if self._reconciling and new_peer:  # the validator restarted: ask again
            self._request_record()

    def _on_payload(self, payload: bytes) -> None:
        ev = ValidatorEvent()
        ev.ParseFromString(payload)
        kind = ev.WhichOneof("event")
        if kind == "escrowed":
            if self._under_test(ev.escrowed.acceptance_id):
                self._test_escrowed(ev.event_id, ev.escrowed.item)
            else:
                self._escrowed(ev.event_id, ev.escrowed.item)
        elif kind == "stacked":
            self._resolved(ev.event_id, ev.stacked.escrow_event_id)
            if ev.stacked.escrow_event_id in self._test_escrows:
                self._test_escrows.discard(ev.stacked.escrow_event_id)
                log.error("bill validator stacked test %s: not credited", describe(ev.stacked.item))
            else:
                self._stacked(ev.stacked.item, ev.event_id)
            if self._reconciling:  # a money event: its record comes after it
                self._request_record()
        elif kind == "returned":
            clean = self._acked == self._handed == self._ack_due
            self._resolved(ev.event_id, ev.returned.escrow_event_id)
            if ev.returned.escrow_event_id in self._test_escrows:
                self._test_returned(ev.returned.escrow_event_id, clean)
            else:
                reason = RETURN_REASONS.get(ev.returned.reason, "returned")
                self._returned(ev.returned.item, reason)
        elif kind == "rejected":
            why = REJECT_REASONS.get(ev.rejected.reason, "rejected")
            if ev.rejected.detail:
                why = f"{why}: {ev.rejected.detail}"
            self.rejections.append((describe(ev.rejected.item), why))
            log.info("bill validator rejected %s: %s", describe(ev.rejected.item), why)
        elif kind == "status":
            self._status(ev.status)
        elif kind == "identity":
            self.identity = (
                f"{ev.identity.model} {ev.identity.serial_number} {ev.identity.firmware}"
            )
            self.device = f"{ev.identity.model} {ev.identity.serial_number}".strip()
        elif kind == "refused":
            log.info("bill validator refused a command: %s", ev.refused.reason)
        elif kind == "cashbox_record":
            self._cashbox_record(ev.cashbox_record)

    def _escrowed(self, event_id: int, item: EscrowItem) -> None:
        self._escrow = event_id
        if item.WhichOneof("item") == "ticket_number":
            self._report(TicketInserted(validation_number=item.ticket_number, seat=self.seat))
        else:
            self._report(c.InsertBill(value=item.note_value, seat=self.seat))

    def _under_test(self, acceptance_id: int) -> bool:
        if acceptance_id:
            return acceptance_id in self._test_acceptances
        return self.test_mode  # a validator that does not echo acceptance ids

    def _test_escrowed(self, event_id: int, item: EscrowItem) -> None:
        if item.WhichOneof("item") == "ticket_number":
            self._test_tickets.append(item.ticket_number)
        else:
            self._test_notes.append(item.note_value)
        log.info("bill validator test: %s read, returned", describe(item))
        self._test_escrows.add(event_id)
        self._command(
            ValidatorCommand(
                return_escrow=ValidatorCommand.Return(
                    escrow_event_id=event_id, reason="bill validator test"
                )
            )
        )

    def _test_returned(self, escrow_id: int, clean: bool) -> None:
        self._test_escrows.discard(escrow_id)
        if clean:  # nothing of the terminal's waits for an acknowledgement: forget it now
            self._handed = self._ack_due
            self._acknowledge()

    def _resolved(self, event_id: int, escrow_id: int) -> None:
        self._ack_due = max(self._ack_due, event_id)
        if escrow_id == self._escrow:
            self._escrow = 0
        if escrow_id == self._returning:
            self._returning = 0

    def _stacked(self, item: EscrowItem, event_id: int) -> None:
        if item.WhichOneof("item") == "ticket_number":
            self._report(
                c.TicketStackedReport(validation_number=item.ticket_number, seat=self.seat)
            )
        else:  # the event id numbers the note for the host (it only grows, device.proto)
            device = self.device or f"bill validator seat {self.seat}"
            self._report(
                c.BillStackedReport(
                    value=item.note_value, seat=self.seat, device=device, device_count=event_id
                )
            )

    def _returned(self, item: EscrowItem, reason: str) -> None:
        if item.WhichOneof("item") == "ticket_number":
            self._report(
                c.TicketReturnedReport(
                    validation_number=item.ticket_number, reason=reason, seat=self.seat
                )
            )
        else:
            self._report(c.BillReturnedReport(value=item.note_value, reason=reason, seat=self.seat))

    def _status(self, status: ValidatorEvent.Status) -> None:
        self.status = status
        for flag, (code, reason) in FAULTS.items():
            self._condition(code, bool(getattr(status, flag)), reason)
        self._condition(
            TiltCode.BILL_VALIDATOR_FAILURE,
            bool(status.failure),
            f"bill validator failure: {status.failure}",
        )
        held = status.escrow_event_id
        if held and held not in (self._escrow, self._returning) and held not in self._test_escrows:
            self._returning = held  # in escrow from before the terminal restarted: give it back
            self._command(
                ValidatorCommand(
                    return_escrow=ValidatorCommand.Return(
                        escrow_event_id=held, reason="unknown to the terminal"
                    )
                )
            )

    # --- commands ---------------------------------------------------------------------------

    def _acknowledge(self) -> None:
        if self._handed > self._acked:
            self._acked = self._handed
            self._command(
                ValidatorCommand(acknowledge=AcknowledgeEvents(up_to_event_id=self._acked))
            )

    def _send_acceptance(self) -> None:
        self._acceptance_id += 1
        if self.test_mode:
            self._test_acceptances.add(self._acceptance_id)
            acceptance = ValidatorCommand.SetAcceptance(
                enabled=True,
                note_values=sorted(NOTE_VALUES),
                tickets=True,
                acceptance_id=self._acceptance_id,
            )
        else:
            acceptance = ValidatorCommand.SetAcceptance(
                enabled=self.enabled,
                note_values=self.notes if self.enabled else (),
                tickets=self.enabled and self.accept_tickets,
                acceptance_id=self._acceptance_id,
            )
        self._command(ValidatorCommand(set_acceptance=acceptance))

    def _command(self, command: ValidatorCommand) -> None:
        self._send(command.SerializeToString())


def _tally(tally: Tally) -> TallyMessage:
    return TallyMessage(count=tally.count, value=tally.value)


def _of(message: TallyMessage) -> Tally:
    return Tally(message.count, message.value)
