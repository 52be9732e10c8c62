"""What the terminal needs of the slot-accounting host (the gRPC client implements it).

Calls that need an answer before the terminal can act (ticket validation, a validation number
for a voucher) are synchronous with a short timeout; everything the terminal reports (events,
meters) goes through the store-and-forward outbox instead and never blocks play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class HostUnavailableError(Exception):
    """The host did not answer in time; the caller falls back (return the ticket, handpay...)."""


@dataclass(frozen=True)
class TicketValidation:
    """The host's answer to a voucher inserted at this terminal."""

    accepted: bool
    value: int = 0  # cents, when accepted
    reason: str = ""  # why not, e.g. "already redeemed", "expired", "unknown"


class HostPort(Protocol):
    """Synchronous requests to the accounting host."""

    def validation_number(self, value: int) -> str:
        """An 18-digit validation number for a voucher of ``value`` cents about to print."""
        ...

    def validate_ticket(self, validation_number: str) -> TicketValidation:
        """Reserve an inserted voucher for redemption at this terminal (or refuse it)."""
        ...

    def ticket_stacked(self, validation_number: str) -> None:
        """The reserved voucher reached the cash box: redeemed (exactly once)."""
        ...

    def ticket_returned(self, validation_number: str) -> None:
        """The reserved voucher went back to the player: release the reservation."""
        ...
