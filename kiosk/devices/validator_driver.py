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
                       cashbox_removed
link lost / back       ``RaiseTilt`` / ``ClearTilt`` bill_validator_link
=====================  ==========================================================

Exactly-once crediting rests on three things: the link delivers each event once and in order;
the validator keeps a stacked or returned event until the terminal acknowledges it (at the
poll after the one that handed it over, i.e. after the runtime journaled it) and takes no new
item into escrow meanwhile; and the terminal core credits a stack report only for the item its
journal holds in escrow.  An item in escrow that this driver never reported (the terminal
restarted) is returned to the player.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

from kiosk.devices.driver import Channel, DriverBase
from kiosk.devices.ports import TicketInserted
from kiosk.terminal import commands as c
from proto.turbokiosk.v1.device_pb2 import (
    AcknowledgeEvents,
    DeviceStatusRequest,
    EscrowItem,
    ValidatorCommand,
    ValidatorEvent,
)

log = logging.getLogger(__name__)

LINK_TILT = "bill_validator_link"
#: status flag -> (tilt code, reason)
FAULTS = {
    "jammed": ("bill_jam", "bill validator jam"),
    "cashbox_full": ("cashbox_full", "cash box full"),
    "cashbox_removed": ("cashbox_removed", "cash box removed"),
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
        self.rejections: deque[tuple[str, str]] = deque(maxlen=100)
        self._escrow = 0  # escrow event id of the item last reported to the terminal
        self._returning = 0  # escrow event id of an unknown item we asked to return
        self._ack_due = 0  # highest stacked/returned event id handled
        self._handed = 0  # ... of those already handed to the terminal
        self._acked = 0

    # --- BillValidatorPort ---------------------------------------------------------------

    def set_enabled(self, enabled: bool, notes: tuple[int, ...]) -> None:
        """Accept these notes (and vouchers), or nothing."""
        self.enabled, self.notes = enabled, tuple(notes)
        self._send_acceptance()

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

    def _on_payload(self, payload: bytes) -> None:
        ev = ValidatorEvent()
        ev.ParseFromString(payload)
        kind = ev.WhichOneof("event")
        if kind == "escrowed":
            self._escrowed(ev.event_id, ev.escrowed.item)
        elif kind == "stacked":
            self._resolved(ev.event_id, ev.stacked.escrow_event_id)
            self._stacked(ev.stacked.item)
        elif kind == "returned":
            self._resolved(ev.event_id, ev.returned.escrow_event_id)
            reason = RETURN_REASONS.get(ev.returned.reason, "returned")
            self._returned(ev.returned.item, reason)
        elif kind == "rejected":
            why = REJECT_REASONS.get(ev.rejected.reason, "rejected")
            self.rejections.append((describe(ev.rejected.item), why))
            log.info("bill validator rejected %s: %s", describe(ev.rejected.item), why)
        elif kind == "status":
            self._status(ev.status)
        elif kind == "identity":
            self.identity = (
                f"{ev.identity.model} {ev.identity.serial_number} {ev.identity.firmware}"
            )
        elif kind == "refused":
            log.info("bill validator refused a command: %s", ev.refused.reason)

    def _escrowed(self, event_id: int, item: EscrowItem) -> None:
        self._escrow = event_id
        if item.WhichOneof("item") == "ticket_number":
            self._report(TicketInserted(validation_number=item.ticket_number, seat=self.seat))
        else:
            self._report(c.InsertBill(value=item.note_value, seat=self.seat))

    def _resolved(self, event_id: int, escrow_id: int) -> None:
        self._ack_due = max(self._ack_due, event_id)
        if escrow_id == self._escrow:
            self._escrow = 0
        if escrow_id == self._returning:
            self._returning = 0

    def _stacked(self, item: EscrowItem) -> None:
        if item.WhichOneof("item") == "ticket_number":
            self._report(
                c.TicketStackedReport(validation_number=item.ticket_number, seat=self.seat)
            )
        else:
            self._report(c.BillStackedReport(value=item.note_value, seat=self.seat))

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
        held = status.escrow_event_id
        if held and held not in (self._escrow, self._returning):
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
        acceptance = ValidatorCommand.SetAcceptance(
            enabled=self.enabled,
            note_values=self.notes if self.enabled else (),
            tickets=self.enabled and self.accept_tickets,
        )
        self._command(ValidatorCommand(set_acceptance=acceptance))

    def _command(self, command: ValidatorCommand) -> None:
        self._send(command.SerializeToString())
