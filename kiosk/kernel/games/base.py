"""The shape every game shares, as the terminal sees it.

A round of every game in this product has the same skeleton:

1. each seat places a :class:`SeatBet` (wagers, and for Stadium the three chosen positions);
2. the *first deal* of shared cards (Turbo: 3 community cards; Stadium: the 9-card array);
3. at most one decision per seat (Turbo: raise or not; Stadium: play or fold), offered by
   :meth:`GameRules.offer` and costing :attr:`DecisionOffer.extra_wager` when taken;
4. the *second deal*: per-seat cards (Turbo: 6 each, in seat order) and/or shared cards
   (Stadium: the dealer's 3);
5. :meth:`GameRules.settle` pays every wager of a seat.

The terminal draws every card from the RNG in that order, journals it, and only then shows it.
Money is integer cents; a win at odds ``n:d`` returns ``stake + stake * n // d`` (the fraction of
a cent, possible only at odds like 3:2 on an odd stake, is never paid: breakage).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol


class RuleError(ValueError):
    """A bet or decision the rules do not allow; the message says which rule."""


@dataclass(frozen=True)
class WagerSpot:
    """A place on the layout where a seat may put chips."""

    id: str  # stable identifier: "first_down", "bet_a", "ante", "pairs_plus_row_1", ...
    label: str  # the edition's display name: "First Down", "Ante", ...
    mandatory: bool = False
    group: str = "main"  # "main", "side" or "blind"


@dataclass(frozen=True)
class SeatBet:
    """One seat's wagers for a round, placed before any card is dealt."""

    wagers: Mapping[str, int]  # spot id -> stake in cents (> 0)
    positions: tuple[int, ...] = ()  # Stadium only: 3 distinct array positions 0..8

    @property
    def total(self) -> int:
        """Total stake in cents."""
        return sum(self.wagers.values())


@dataclass(frozen=True)
class DecisionOffer:
    """The one decision a seat may make after the first deal."""

    kind: str  # "raise" or "play"
    choices: tuple[str, ...]  # e.g. ("raise", "no_raise") or ("play", "fold")
    default: str  # taken when the seat does not answer in time
    take: str  # the choice that costs extra_wager ("raise" / "play")
    extra_wager: int  # cents added as the wager spot named by ``spot`` when ``take`` is chosen
    spot: str  # "raise" / "play"


@dataclass(frozen=True)
class WagerResult:
    """How one wager of a seat ended."""

    spot: str
    stake: int  # cents
    paid: int  # cents returned to the player: 0 lost, stake on a push, stake + win on a win
    outcome: str  # human-readable: "Super TD", "Pair", "Dealer does not qualify", "Lose"
    odds: Fraction = Fraction(0)  # pay multiple of a win, e.g. Fraction(3, 2); 0 if not a win

    @property
    def win(self) -> int:
        """Net result in cents (negative when lost)."""
        return self.paid - self.stake


@dataclass(frozen=True)
class SeatSettlement:
    """Every wager result of one seat in one round."""

    results: tuple[WagerResult, ...] = field(default_factory=tuple)

    @property
    def total_stake(self) -> int:
        """All cents wagered by the seat, decision wager included."""
        return sum(r.stake for r in self.results)

    @property
    def total_paid(self) -> int:
        """All cents returned to the seat."""
        return sum(r.paid for r in self.results)


def pay(stake: int, odds: Fraction) -> int:
    """Cents returned on a winning stake at ``odds`` (stake back plus the win, breakage down)."""
    return stake + (stake * odds.numerator) // odds.denominator


class GameRules(Protocol):
    """Rules of one configured game (edition plus chosen pay tables)."""

    @property
    def game_id(self) -> str:
        """Edition id, e.g. ``"turbo-football"``, ``"icon-v2"``, ``"stadium-3cp"``."""
        ...

    @property
    def title(self) -> str:
        """Display name of the edition."""
        ...

    @property
    def family(self) -> str:
        """Id of the game's family (``"turbo"``, ``"stadium"``):
        :mod:`kiosk.kernel.games.family`."""
        ...

    @property
    def spots(self) -> tuple[WagerSpot, ...]:
        """Every wager spot a seat may bet on before the deal."""
        ...

    @property
    def positions(self) -> int:
        """Array positions each seat chooses before the deal (Stadium 3, Turbo 0)."""
        ...

    @property
    def first_deal(self) -> int:
        """Shared cards dealt before the decision (Turbo 3, Stadium 9)."""
        ...

    @property
    def second_deal_per_seat(self) -> int:
        """Cards dealt to each seat after the decision (Turbo 6, Stadium 0)."""
        ...

    @property
    def second_deal_shared(self) -> int:
        """Shared cards dealt after the decision (Turbo 0, Stadium 3 for the dealer)."""
        ...

    def validate_bet(self, bet: SeatBet) -> None:
        """Raise :class:`RuleError` unless the bet is allowed (limits are the terminal's job)."""
        ...

    def offer(self, bet: SeatBet, first_cards: tuple[int, ...]) -> DecisionOffer | None:
        """The decision the seat may make after the first deal, or None when there is none."""
        ...

    def settle(
        self,
        bet: SeatBet,
        first_cards: tuple[int, ...],
        choice: str | None,
        seat_cards: tuple[int, ...],
        shared_second: tuple[int, ...],
    ) -> SeatSettlement:
        """Pay every wager of the seat (``choice`` is None when no decision was offered)."""
        ...
