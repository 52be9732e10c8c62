"""Ticket in: the host's part of a voucher inserted at the bill validator.

1. The validator reads the barcode and holds the voucher in escrow: ``TicketInserted``.
2. :func:`host_answer` asks the host to reserve it (unless the terminal would refuse any money
   now) and gives the core the answer as ``InsertTicket``.  The core journals
   ``TicketEscrowAccepted`` (stack) or ``TicketReturned`` (return) before anything moves.
3. The validator stacks: ``TicketStackedReport`` -> ``TicketRedeemed`` (credited, journaled)
   -> then the host hears ``ticket_stacked`` (and again through the outbox).  Or it returns:
   ``TicketReturnedReport`` -> ``TicketReturned`` -> ``ticket_returned``.

A power cut between 2 and 3 leaves the voucher journaled in escrow; at power-up the validator
reports what became of it and the same path finishes the job.  Host calls made after the
journal commit never decide money: if the host is unreachable they are logged and the host
learns the redemption from the store-and-forward outbox.
"""

from __future__ import annotations

import logging

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.devices.ports import TicketInserted
from kiosk.terminal.hostlink.ports import HostPort, HostUnavailableError

log = logging.getLogger(__name__)


def host_answer(
    core: TerminalCore, host: HostPort | None, report: TicketInserted
) -> c.InsertTicket:
    """The core command for an inserted voucher, with the host's verdict."""
    number, seat = report.validation_number, report.seat
    refusal = core.money_refusal(seat, 0)
    if refusal is not None:
        return c.InsertTicket(validation_number=number, refused=refusal, seat=seat)
    if host is None:
        return c.InsertTicket(
            validation_number=number, refused="ticket in is not available", seat=seat
        )
    try:
        answer = host.validate_ticket(number)
    except HostUnavailableError as exc:
        log.warning("ticket %s returned: %s", number, exc)
        return c.InsertTicket(validation_number=number, refused="host unavailable", seat=seat)
    if not answer.accepted:
        reason = answer.reason or "refused by the host"
        return c.InsertTicket(validation_number=number, refused=reason, seat=seat)
    return c.InsertTicket(validation_number=number, value=answer.value, seat=seat)


def tell_host(host: HostPort | None, command: c.Command, event: e.Event) -> None:
    """After the commit: finish the host's reservation of a voucher stacked or returned."""
    if host is None:
        return
    try:
        if isinstance(event, e.TicketRedeemed) and isinstance(command, c.TicketStackedReport):
            host.ticket_stacked(event.validation_number)
        elif isinstance(event, e.TicketReturned) and (
            isinstance(command, c.TicketReturnedReport)
            or (isinstance(command, c.InsertTicket) and not command.refused)
        ):
            host.ticket_returned(event.validation_number)
    except HostUnavailableError as exc:
        log.warning(
            "host not told about ticket %s: %s", getattr(event, "validation_number", ""), exc
        )
