"""The Dealer Terminal's picture of a table, as typed frozen records (no I/O).

The Dealer Terminal (``turbokiosk dealer``) reads the controller's round state through the
dealer API and turns it into these records (:mod:`kiosk.table.core.dealer_link`); its screens are
made from them alone (:mod:`kiosk.table.presentation.dealer`).  Times are the controller's epoch
milliseconds; money is cents.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

#: cards in a pack (a shuffler's presentation, a manual entry)
PACK_SIZE = 3


class SeatState(Enum):
    """One seat as the dealer sees it in the round (``online`` says whether it is connected)."""

    WATCHING = "watching"  # seated, not in this round's betting
    BETTING = "betting"  # the betting window is open and the seat has not bet yet
    BET = "bet"  # the seat's bet is in
    DECIDING = "deciding"  # it has an offer and has not answered yet
    DECIDED = "decided"  # it answered its offer (or had none to make)
    TIMED_OUT = "timed_out"  # the window closed: it got the default
    SETTLED = "settled"  # its result is known
    VOIDED = "voided"  # its wagers were returned by a void


class Role(Enum):
    """Who signed in on the Dealer Terminal."""

    DEALER = "dealer"
    SUPERVISOR = "supervisor"


@dataclass(frozen=True)
class SeatLine:
    """One seat in the round."""

    seat: int
    state: SeatState
    online: bool = True
    stake: int = 0  # cents at stake in the round
    choice: str = ""  # the decision it made or was given ("play", "fold", "raise"...)
    paid: int = 0  # cents paid at settlement
    returned: int = 0  # cents returned by a void


@dataclass(frozen=True)
class DealStep:
    """The deal step the controller waits for: pack ``pack`` goes to ``location``."""

    pack: int
    packs_in_round: int
    location: str  # "array 1-3", "dealer", "community", ...
    presented: bool  # the source presented it (shuffler, virtual); manual: the dealer enters it
    cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class LaidPack:
    """A pack on the layout."""

    pack: int
    location: str
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Tilt:
    """The card check stopped the round: what it found; the supervisor re-reads or voids."""

    reason: str
    pack: int = 0
    cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class RecalledWager:
    """One wager of a seat in a recalled round and how it ended."""

    spot: str
    stake: int
    paid: int
    outcome: str  # the pay table's outcome text ("" when it lost)


@dataclass(frozen=True)
class RecalledSeatLine:
    """One seat of a recalled round: its wagers, its choice, what it was paid."""

    seat: int
    wagers: tuple[RecalledWager, ...]
    choice: str = ""
    stake: int = 0
    paid: int = 0
    returned: int = 0


@dataclass(frozen=True)
class RecallLine:
    """One finished round of the table's recall."""

    game_number: int
    cards: tuple[int, ...]  # every card of the round, in deal order
    seats: int
    wagered: int
    paid: int
    voided: str = ""  # the void's reason ("" when the round settled)
    returned: int = 0
    deck_check: str = ""  # the shuffler's reported deck check, when it dealt
    first_cards: tuple[int, ...] = ()  # the array (or the community cards)
    shared_cards: tuple[int, ...] = ()  # the dealer's hand
    seat_lines: tuple[RecalledSeatLine, ...] = ()


@dataclass(frozen=True)
class TableSnapshot:
    """The table as the controller knows it now."""

    table_id: str
    edition: str
    card_source: str  # "virtual", "shuffler" or "manual"
    phase: str  # kiosk.table.core.core.Phase values, "idle" .. "settled"
    game_number: int
    now_ms: int
    betting_deadline_ms: int = 0
    decision_deadline_ms: int = 0
    betting_ms: int = 0  # the windows' full lengths (for the countdown ring)
    decision_ms: int = 0
    paused: bool = False
    pause_reason: str = ""
    paused_left_ms: int = 0  # while paused: what the running window had left
    seats: tuple[SeatLine, ...] = ()
    next_step: DealStep | None = None
    packs: tuple[LaidPack, ...] = ()
    first_cards: tuple[int, ...] = ()  # Stadium's array, Turbo's community
    shared_cards: tuple[int, ...] = ()  # Stadium's dealer's hand
    tilt: Tilt | None = None
    deck_check: str = ""  # the shuffler's deck check, in words
    voided: str = ""  # the last round's void reason, while idle right after it
    auto_deal: bool = False
    recall: tuple[RecallLine, ...] = ()
    progressive: str = ""  # "Royal flush progressive $2,531.40" ("" : none)

    def on_layout(self) -> frozenset[int]:
        """Every card on the layout in this round."""
        laid = {x for pack in self.packs for x in pack.cards}
        return frozenset(laid) | frozenset(self.first_cards) | frozenset(self.shared_cards)


@dataclass(frozen=True)
class SignIn:
    """A PIN's answer from the controller."""

    accepted: bool
    role: Role
    message: str = ""  # why it was refused
    locked_until_ms: int = 0  # the role is locked out until then (0: not locked)
    must_change_pin: bool = False
