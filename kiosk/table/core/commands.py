"""What the table controller is asked to do, and the typed refusals (in the manner of h11).

Every refusal leaves the table unchanged.  :class:`DuplicateReportError` is not a failure: the
same report (a seat's wager or decision for the same game number) is already journaled, so a
retry or a reconnect never doubles it; the controller answers it with the journaled record.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.table.core.events import Bet


class TableCommandError(Exception):
    """A command the table refuses; the message says why."""


class IllegalCommandError(TableCommandError):
    """The command is not legal in the table's phase."""


class InvalidArgumentError(TableCommandError):
    """The command names another table, an unknown or absent seat, a bad bet or bad cards."""


class StaleReportError(TableCommandError):
    """A report for a game number that is not the table's current round."""


class DuplicateReportError(TableCommandError):
    """The identical report is already journaled (idempotent retry: nothing to do)."""


class ReportMismatchError(TableCommandError):
    """A report for (table, game number, seat) that differs from the one already journaled."""


@dataclass(frozen=True)
class Join:
    seat: int


@dataclass(frozen=True)
class Leave:
    seat: int


@dataclass(frozen=True)
class OpenRound:
    """The dealer's "New Game": the betting countdown starts."""


@dataclass(frozen=True)
class ReportWager:
    table_id: str
    game_number: int
    seat: int
    bet: Bet


@dataclass(frozen=True)
class ReportDecision:
    table_id: str
    game_number: int
    seat: int
    choice: str


@dataclass(frozen=True)
class Tick:
    """Time passed: closes the betting countdown or the decision window at their deadlines."""


@dataclass(frozen=True)
class CardsDrawn:
    """Cards for the draw :meth:`TableCore.draws_needed` asked for, in its order."""

    cards: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class CloseRound:
    """The dealer's "Confirm": the settled round is closed."""


@dataclass(frozen=True)
class VoidRound:
    reason: str


@dataclass(frozen=True)
class CloseBets:
    """The dealer closes bets before the countdown ends."""

    game_number: int


@dataclass(frozen=True)
class DeckReading:
    """A card-reading shuffler's deck: its shuffle number and every card it read, in order."""

    shuffle: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class LayPack:
    """The dealer laid pack ``pack`` of a physical card source (``shuffler`` or ``manual``).

    ``cards`` are the pack's cards as the source gave them (bottom card first), ``presented_as``
    the pack number the source gave it (a shuffler's; the dealer's own for ``manual``) and
    ``deck`` the shuffler's reading of the deck it comes from (None for ``manual``).
    """

    game_number: int
    pack: int
    cards: tuple[int, ...]
    presented_as: int
    deck: DeckReading | None = None


@dataclass(frozen=True)
class SourceFault:
    """The card source cannot give pack ``pack`` (a shuffler jam, an unreadable card)."""

    game_number: int
    pack: int
    reason: str


@dataclass(frozen=True)
class ReRead:
    """The supervisor clears a card tilt: pack ``pack`` is read again."""

    game_number: int
    pack: int
    by: str = ""


@dataclass(frozen=True)
class PauseTable:
    reason: str
    by: str = ""


@dataclass(frozen=True)
class ResumeTable:
    by: str = ""


Command = (
    Join
    | Leave
    | OpenRound
    | ReportWager
    | ReportDecision
    | Tick
    | CardsDrawn
    | CloseRound
    | VoidRound
    | CloseBets
    | LayPack
    | SourceFault
    | ReRead
    | PauseTable
    | ResumeTable
)
