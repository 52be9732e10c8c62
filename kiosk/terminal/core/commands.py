"""Commands: what a player, an attendant, a device, the host or the runtime asks of the terminal.

The core answers each with a list of events, or raises a :class:`CommandError` (a clear message,
nothing changed) of one of five kinds, in the manner of h11: :class:`IllegalCommandError`,
:class:`TerminalLockedError`, :class:`InvalidArgumentError`, :class:`DuplicateReportError` and
:class:`ReportMismatchError`.  Money is in cents; ``seat`` is 0 on a single-player kiosk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: the one CommandError (:mod:`kiosk.kernel.errors`): the base of the five kinds below
from kiosk.kernel.errors import CommandError as CommandError


class IllegalCommandError(CommandError):
    """Not legal in the terminal's present phase or state (a deal with no wager, a cash-out
    with no credits, a printer answer with no voucher printing...)."""


class TerminalLockedError(CommandError):
    """Refused because a lockup (tilt, door, handpay, host disable, critical error...) stops it."""

    def __init__(self, message: str, lockup: str) -> None:
        super().__init__(message)
        self.lockup = lockup


class InvalidArgumentError(CommandError):
    """The command's own fields are wrong (no such seat, spot or role, a bad amount, a
    validation number without 18 digits, a configuration or PIN record refused)."""


class TransferRefusedError(InvalidArgumentError):
    """An electronic funds transfer the terminal will not make; ``reason`` says why:
    ``amount`` (not a valid amount), ``limit`` (over the transfer limit), ``credit_limit``
    (the credits would pass the credit limit), ``credits`` (fewer credits than asked)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class DuplicateReportError(CommandError):
    """A device reported again what the journal already holds (a stacked or returned note or
    voucher): nothing to do, and nothing to credit twice."""


class ReportMismatchError(CommandError):
    """A device report that disagrees with the state: a stacked value other than the note in
    escrow, a voucher stacked that was never escrowed...  The runtime tilts for an attendant."""

    def __init__(self, device: str, reported: str, expected: str, message: str = "") -> None:
        super().__init__(
            message or f"{device} reported {reported} but the terminal expected {expected}"
        )
        self.device = device
        self.reported = reported
        self.expected = expected


@dataclass(frozen=True)
class Command:
    """Base of every command."""


@dataclass(frozen=True)
class PowerUp(Command):
    """The terminal process started; ``recovered`` says what recovery resolved."""

    software_version: str
    recovered: str = ""


@dataclass(frozen=True)
class InsertBill(Command):
    """The bill validator holds a note in escrow: the terminal decides stack or return."""

    value: int
    seat: int = 0


@dataclass(frozen=True)
class BillStackedReport(Command):
    """The bill validator reports the note in the cash box."""

    value: int
    seat: int = 0
    device: str = ""  # the validator (model and serial number), "" when unknown
    device_count: int = 0  # its event number for the note (only grows); 0 when it has none


@dataclass(frozen=True)
class BillReturnedReport(Command):
    """The bill validator returned or rejected the note in escrow."""

    value: int
    reason: str
    seat: int = 0


@dataclass(frozen=True)
class InsertTicket(Command):
    """The bill validator holds a voucher in escrow and the host answered: stack or return.

    The runtime asks the host (I/O) and passes the answer in: ``value`` is what the host
    reserved for this terminal, ``refused`` why it did not ("" when it did).
    """

    validation_number: str
    value: int = 0
    refused: str = ""
    seat: int = 0


@dataclass(frozen=True)
class TicketStackedReport(Command):
    """The bill validator reports the voucher in escrow in the cash box: credit it."""

    validation_number: str
    seat: int = 0


@dataclass(frozen=True)
class TicketReturnedReport(Command):
    """The bill validator gave the voucher in escrow back to the player."""

    validation_number: str
    reason: str
    seat: int = 0


@dataclass(frozen=True)
class SelectEdition(Command):
    """Choose the game for the next round (only between rounds)."""

    edition: str


@dataclass(frozen=True)
class PlaceWager(Command):
    """Add ``amount`` cents to a wager spot (not yet taken from the credit meter)."""

    spot: str
    amount: int
    seat: int = 0


@dataclass(frozen=True)
class ClearWagers(Command):
    """Take back every wager placed for the next round."""

    seat: int = 0


@dataclass(frozen=True)
class RepeatWagers(Command):
    """Place again the wagers (and positions) of the seat's last round."""

    seat: int = 0


@dataclass(frozen=True)
class SelectPositions(Command):
    """Stadium: the three array positions (0..8) that become the seat's hand."""

    positions: tuple[int, ...]
    seat: int = 0


@dataclass(frozen=True)
class Deal(Command):
    """Commit the placed wagers and start the round (at a table: its ``table_game``)."""

    table_id: str = ""
    table_game: int = 0


@dataclass(frozen=True)
class VoidRound(Command):
    """A table round ends without a result: every wager in it is returned (kiosk/terminal/seat)."""

    reason: str


@dataclass(frozen=True)
class CardsDrawn(Command):
    """The runtime drew the cards the core asked for (:meth:`TerminalCore.cards_needed`)."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class Decide(Command):
    """A seat's answer to its decision (raise / play); ``automatic`` when the timer ran out."""

    choice: str
    seat: int = 0
    automatic: bool = False


@dataclass(frozen=True)
class CashOut(Command):
    """Cash the seat's credits out to a voucher with this validation number.

    When the printer cannot print (``printer_ready`` False) or the amount is above the voucher
    limit, the cash-out becomes a handpay for the attendant.
    """

    validation_number: str
    seat: int = 0
    printer_ready: bool = True


@dataclass(frozen=True)
class PrinterReport(Command):
    """The printer's answer for the voucher in progress (not printed: the credits stay)."""

    printed: bool
    reason: str = ""


@dataclass(frozen=True)
class AttendantReset(Command):
    """The attendant paid the handpay in progress by hand."""

    by: str = "attendant"


@dataclass(frozen=True)
class RaiseTilt(Command):
    """A fault (device, RNG, link...) that stops play."""

    code: str
    reason: str
    needs_attendant: bool = False


@dataclass(frozen=True)
class ClearTilt(Command):
    """The fault is resolved (a tilt that needs an attendant needs ``by``)."""

    code: str
    by: str = ""


@dataclass(frozen=True)
class SetDoor(Command):
    """A cabinet door switch changed."""

    door: str
    open: bool


#: the disable that holds play from the host link's start until its first hello has checked
#: the store against the host's anchor (decision 0038); only an enable giving
#: :data:`ANCHOR_CHECKED` as its reason (the host link's) lifts it, not the SAS host's nor a
#: simulator's
ANCHOR_WAIT = "waiting for the host link: the host's anchor is checked before play"
ANCHOR_CHECKED = "host's anchor checked"
#: the start of the disable reason while the host refuses this terminal itself (its identity:
#: not enrolled, retired, not a terminal's certificate; decision 0035).  During the anchor wait
#: it takes the wait's place (the player reads why), and it holds play as the wait does: only
#: an enable giving :data:`ANCHOR_CHECKED` (the link's, after a hello) lifts it
IDENTITY_REFUSED = "host refused this terminal"


@dataclass(frozen=True)
class SetEnabled(Command):
    """The host enabled or disabled play (disable takes effect at the end of the game)."""

    enabled: bool
    reason: str = ""


@dataclass(frozen=True)
class SetService(Command):
    """The service menu was entered or left with a role."""

    active: bool
    role: str = ""


@dataclass(frozen=True)
class ChangeConfig(Command):
    """New configuration (as a dict), only with zero credits and no round in progress.

    ``version`` 0: the version in force plus one (a change in the menu); otherwise the version
    of an imported file, which must be newer than the version in force.
    """

    config: dict[str, Any]
    by: str
    version: int = 0
    source: str = "service menu"


@dataclass(frozen=True)
class ResetPeriodMeters(Command):
    """Clear the period meter set."""

    by: str


@dataclass(frozen=True)
class RecordDeviceBaseline(Command):
    """A device without a reconciliation baseline (just paired or replaced) gets one: the
    journal's meters and the device's counters now (kiosk/terminal/runtime/reconcile.py)."""

    device: str
    journal: dict[str, int]
    counters: dict[str, int]


@dataclass(frozen=True)
class ConfirmDeviceRecords(Command):
    """The accounting host's confirmation of a device records dispute (a host command, audited
    on the host): the dispute's tilt ``code`` ends and the device is reconciled from a new
    baseline (``device``, ``journal``, ``counters`` as :class:`RecordDeviceBaseline`).  ``reason``,
    when given, must be the dispute's reason now: the host confirms what its operator saw."""

    code: str
    by: str
    device: str
    journal: dict[str, int]
    counters: dict[str, int]
    reason: str = ""


@dataclass(frozen=True)
class ReportCritical(Command):
    """The runtime found non-volatile memory or the credit audit wrong."""

    reason: str


@dataclass(frozen=True)
class RecordWithdrawal(Command):
    """Power-up withdrew the signer's last head
    (:class:`~kiosk.terminal.core.events.HeadWithdrawn`); an earlier withdrawal less than
    ``window_ms`` before locks the terminal for the operator."""

    epoch: int
    seq: int
    chain_hash: str
    store_seq: int
    game_number: int = 0
    window_ms: int = 24 * 3600 * 1000
    #: when the signer withdrew heads before (epoch ms; kept by the signer, not the store)
    earlier: tuple[int, ...] = ()


@dataclass(frozen=True)
class RecordPinEntry(Command):
    """The service layer checked a role's PIN (the PIN itself never reaches the core).

    ``accepted``: it was right.  Otherwise ``failures`` is the role's count of wrong PINs in a
    row with this one (wrong PINs counted outside the journal included) and ``locked_until``
    when the lock-out policy locks the role (0: not locked).
    """

    role: str
    accepted: bool
    failures: int = 0
    locked_until: int = 0


@dataclass(frozen=True)
class SetPin(Command):
    """Replace a role's PIN record by a new salted hash (``record``: kdf, n, r, p, salt, hash)."""

    role: str
    record: dict[str, Any]
    must_change: bool
    reason: str
    by: str = ""


@dataclass(frozen=True)
class MigratePins(Command):
    """Take in the PIN records of the previous release's ``pins.json`` (a store without any)."""

    records: dict[str, Any]
    source: str


@dataclass(frozen=True)
class TransferFunds(Command):
    """An electronic funds transfer from a SAS host (AFT 72, legacy bonus 8A).

    ``kind`` is one of :data:`~kiosk.terminal.core.records.TRANSFER_KINDS`; ``cashable`` the
    cents asked for; ``partial`` lets a transfer to the host take fewer (the credits there are);
    ``limit`` the operator's transfer limit in force (journaled with the transfer).  A
    ``transaction_id`` the journal already holds is refused as a duplicate: the transfer is
    made once, whatever the host repeats.
    """

    kind: str
    transaction_id: str
    cashable: int
    limit: int
    partial: bool = False
    tax_status: int = 0
    pos_id: int = 0
    seat: int = 0


@dataclass(frozen=True)
class PayProgressive(Command):
    """Pay a progressive hit of this terminal (decision 0066): ``award`` cents of the meter
    ``progressive`` won by the wager ``key`` (``source/game/seat/spot``, the hit's identity in
    the progressive's journal).  Below the handpay limit it reaches the seat's credits; at or
    above it (``handpay``, as the progressive journaled it) it locks for the attendant.  A key
    the journal already holds is refused as a duplicate: a hit is paid once."""

    seat: int
    key: str
    progressive: str
    outcome: str  # the winning outcome, as the player reads it ("Royal flush")
    award: int
    handpay: bool
