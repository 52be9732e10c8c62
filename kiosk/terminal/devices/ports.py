"""What the terminal needs of a bill validator and a ticket printer.

A device never calls into the terminal: it queues its reports (as terminal commands), and the
runtime collects them with ``poll()``.  That keeps the terminal single-threaded and every report
journaled in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from kiosk.terminal.core.commands import Command

VoucherStatus = Literal["printed", "not_printed", "unknown"]


@dataclass(frozen=True)
class TicketInserted(Command):
    """A validator report, not a core command: a voucher is in escrow, read as this number.

    The runtime asks the host about it and passes the answer to the core as ``InsertTicket``.
    """

    validation_number: str
    seat: int = 0


@dataclass(frozen=True)
class Voucher:
    """Everything printed on a cash-out ticket."""

    validation_number: str  # 18 digits
    value: int  # cents
    terminal_id: str
    venue: str
    issued_at: int  # epoch ms
    expires_days: int
    sequence: int  # the terminal's voucher counter


class BillValidatorPort(Protocol):
    """A bill (and voucher) acceptor with an escrow position."""

    def set_enabled(self, enabled: bool, notes: tuple[int, ...]) -> None:
        """Accept notes of these values, or nothing at all."""
        ...

    def stack(self, seat: int) -> None:
        """Move the note in escrow to the cash box; a stacked report follows."""
        ...

    def return_note(self, seat: int) -> None:
        """Give the note in escrow back to the player."""
        ...

    def poll(self) -> list[Command]:
        """Reports since the last poll (InsertBill, BillStackedReport, BillReturnedReport,
        TicketInserted, TicketStackedReport, TicketReturnedReport, RaiseTilt, ClearTilt)."""
        ...

    def acknowledge(self, seat: int) -> None:
        """The terminal has journaled the seat's stacked note; until then it is reported again
        (at every power-up), and the terminal's escrow check makes a repeat harmless."""
        ...

    def recover(self) -> list[Command]:
        """At power-up: what became of a note that was in escrow when power was lost."""
        ...


class PrinterPort(Protocol):
    """A voucher printer."""

    def ready(self) -> bool:
        """True when a voucher can be printed now (paper, no fault, link up)."""
        ...

    def print_voucher(self, voucher: Voucher) -> None:
        """Print; a PrinterReport follows through poll()."""
        ...

    def voucher_status(self, validation_number: str) -> VoucherStatus:
        """At power-up: whether the voucher in progress was printed."""
        ...

    def poll(self) -> list[Command]:
        """Reports since the last poll."""
        ...


@runtime_checkable
class BillValidatorTestMode(Protocol):
    """Optional: the service menu's bill validator test (notes read and handed back, no credit)."""

    def set_test_mode(self, on: bool) -> None:
        """In test mode every note is read, then returned; nothing reaches the terminal."""
        ...

    def test_notes(self) -> list[int]:
        """Values of the notes read since the test mode was switched on (cents)."""
        ...


@runtime_checkable
class PrinterTestPrint(Protocol):
    """Optional: the service menu's test voucher (marked VOID, no validation number)."""

    def print_test_voucher(self, terminal_id: str, venue: str, at: int) -> str | None:
        """Print a test voucher; None when it printed, else why not."""
        ...


@runtime_checkable
class PrinterPaperLow(Protocol):
    """Optional: the printer says its paper roll is nearly used up (a warning, not a tilt:
    printing goes on; the player's screen shows it as a notice)."""

    @property
    def paper_low(self) -> bool:
        """Whether the paper is low now."""
        ...
