"""Stadium Three Card Poker: the rules of a round.

**The array.**  The first deal is the 9-card array, three packs of three.  ``first_cards[i]`` is
the card at position ``i`` (0..8), which is *location* ``i + 1`` of the house rules: pack 1 goes
to locations 1-3 (its bottom card at 1), pack 2 to 4-6, pack 3 to 7-9.  The array is read as a
3x3 grid, location 1 top left::

    row 1:  1 2 3        positions  0 1 2
    row 2:  4 5 6                   3 4 5
    row 3:  7 8 9                   6 7 8

so column 1 is locations 1, 4, 7.  Several seats share the array and the dealer hand.

**A seat** picks 3 distinct positions before the deal (``SeatBet.positions``) and bets the
mandatory ``ante``, optionally ``pairs_plus`` and ``six_card_bonus`` on its own hand, and
blind ``pairs_plus_row_1`` .. ``pairs_plus_col_3`` and ``six_card_bonus_row_1`` ..
``six_card_bonus_col_3`` on the rows and columns of the array.

**The decision** after the array is dealt: ``play`` (an extra wager equal to the ante, spot
``play``) or ``fold`` (the default when the timer runs out).

**Settlement**, after the dealer's 3 cards (the second, shared deal):

* fold: the ante loses; the side wagers still resolve;
* play, dealer below Queen high: the ante wins 1:1, the play wager pushes;
* play, dealer qualifies: the higher three-card hand wins, ante and play 1:1 each way; a tie
  pushes both;
* play with a straight or better: the ante bonus pays on the ante whatever the dealer holds.
  It is its own result line, spot ``ante_bonus`` with stake 0 (the ante stake earns it), so
  meters see the ante's result and the bonus separately;
* Pairs Plus pays on the three cards of its hand (the seat's, or the row's / column's);
* the 6-Card Bonus pays on the best five of those three cards plus the dealer's three.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from kiosk.kernel.games import poker3, stadium_paytables
from kiosk.kernel.games.base import (
    DecisionOffer,
    RuleError,
    SeatBet,
    SeatSettlement,
    WagerResult,
    WagerSpot,
    pay,
)
from kiosk.kernel.games.family import PaytableChoice
from kiosk.kernel.games.pay_limits import PayLimits, SpotLimit, best, loadable
from kiosk.kernel.games.paytable import table_names
from kiosk.kernel.games.stadium_advice import PlayAdvice, advise, q64_play
from kiosk.kernel.games.stadium_paytables import (
    ANTE_PLAY,
    DEFAULTS,
    PAIRS_PLUS,
    SIX_CARD_BONUS,
    StadiumPaytable,
    load_table,
)

__all__ = [
    "ANTE",
    "ANTE_BONUS",
    "COLUMNS",
    "FAMILY",
    "FAMILY_ID",
    "FOLD",
    "GAME_ID",
    "LINES",
    "PLAY",
    "ROWS",
    "SPOTS",
    "TITLE",
    "PlayAdvice",
    "StadiumRules",
    "load",
    "optimal_play",
    "q64_play",
]

FAMILY_ID = "stadium"
GAME_ID = "stadium-3cp"
TITLE = "Stadium Three Card Poker"
ARRAY_SIZE = 9
HAND_SIZE = 3
ROWS: tuple[tuple[int, int, int], ...] = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
COLUMNS: tuple[tuple[int, int, int], ...] = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
#: Blind line id ("row_1" .. "col_3") -> its three positions.
LINES: Mapping[str, tuple[int, int, int]] = {
    **{f"row_{i + 1}": row for i, row in enumerate(ROWS)},
    **{f"col_{i + 1}": col for i, col in enumerate(COLUMNS)},
}

ANTE, PLAY, FOLD, ANTE_BONUS = "ante", "play", "fold", "ante_bonus"

_SIDE_LABELS = {PAIRS_PLUS: "Pairs Plus", SIX_CARD_BONUS: "6-Card Bonus"}


def _line_label(line: str) -> str:
    kind, number = line.split("_")
    return f"{'Row' if kind == 'row' else 'Column'} {number}"


SPOTS: tuple[WagerSpot, ...] = (
    WagerSpot(ANTE, "Ante", mandatory=True),
    WagerSpot(PAIRS_PLUS, "Pairs Plus", group="side"),
    WagerSpot(SIX_CARD_BONUS, "6-Card Bonus", group="side"),
    *(
        WagerSpot(f"{wager}_{line}", f"{label} {_line_label(line)}", group="blind")
        for wager, label in _SIDE_LABELS.items()
        for line in LINES
    ),
)
_SPOT_IDS = tuple(spot.id for spot in SPOTS)
#: Side spot id -> (its pay table's wager, the array line it bets on; None: the seat's hand).
_SIDE_SPOTS: Mapping[str, tuple[str, tuple[int, int, int] | None]] = {
    PAIRS_PLUS: (PAIRS_PLUS, None),
    SIX_CARD_BONUS: (SIX_CARD_BONUS, None),
    **{
        f"{wager}_{line}": (wager, cells) for wager in _SIDE_LABELS for line, cells in LINES.items()
    },
}


@dataclass(frozen=True)
class StadiumRules:
    """Stadium Three Card Poker with its three pay tables (a :class:`GameRules`)."""

    ante_bonus: StadiumPaytable
    pairs_plus: StadiumPaytable
    six_card_bonus: StadiumPaytable

    @property
    def game_id(self) -> str:
        """``"stadium-3cp"``."""
        return GAME_ID

    @property
    def title(self) -> str:
        """Display name."""
        return TITLE

    @property
    def family(self) -> str:
        """``"stadium"``."""
        return FAMILY_ID

    @property
    def spots(self) -> tuple[WagerSpot, ...]:
        """Ante, the two side wagers, then the twelve blind row/column wagers."""
        return SPOTS

    @property
    def positions(self) -> int:
        """Each seat chooses 3 positions of the array before the deal."""
        return HAND_SIZE

    @property
    def first_deal(self) -> int:
        """The 9-card array."""
        return ARRAY_SIZE

    @property
    def second_deal_per_seat(self) -> int:
        """No per-seat cards."""
        return 0

    @property
    def second_deal_shared(self) -> int:
        """The dealer's 3 cards."""
        return HAND_SIZE

    def validate_bet(self, bet: SeatBet) -> None:
        """3 distinct positions 0..8, an ante, known spots, positive integer stakes."""
        positions = bet.positions
        if len(positions) != HAND_SIZE or len(set(positions)) != HAND_SIZE:
            raise RuleError(f"choose exactly 3 distinct positions, got {positions!r}")
        for p in positions:
            if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < ARRAY_SIZE:
                raise RuleError(f"a position is 0..8, got {p!r}")
        if ANTE not in bet.wagers:
            raise RuleError("the ante is mandatory")
        for spot, stake in bet.wagers.items():
            if spot not in _SPOT_IDS:
                raise RuleError(f"no wager spot {spot!r} (known: {', '.join(_SPOT_IDS)})")
            if not isinstance(stake, int) or isinstance(stake, bool) or stake <= 0:
                raise RuleError(f"stake on {spot!r} must be a positive number of cents")

    def offer(self, bet: SeatBet, first_cards: tuple[int, ...]) -> DecisionOffer | None:
        """Play (for the ante's amount again) or fold; fold when time runs out."""
        self.validate_bet(bet)
        _check_deal(first_cards, ARRAY_SIZE, "array")
        return DecisionOffer(
            kind=PLAY,
            choices=(PLAY, FOLD),
            default=FOLD,
            take=PLAY,
            extra_wager=bet.wagers[ANTE],
            spot=PLAY,
        )

    def settle(
        self,
        bet: SeatBet,
        first_cards: tuple[int, ...],
        choice: str | None,
        seat_cards: tuple[int, ...],
        shared_second: tuple[int, ...],
    ) -> SeatSettlement:
        """Every result of the seat; see the module docstring for the rules."""
        self.validate_bet(bet)
        if choice not in (PLAY, FOLD):
            raise RuleError(f"the decision is 'play' or 'fold', got {choice!r}")
        if seat_cards:
            raise RuleError("Stadium deals no cards to a seat")
        _check_deal(first_cards, ARRAY_SIZE, "array")
        _check_deal(shared_second, HAND_SIZE, "dealer hand")
        _check_deal(first_cards + shared_second, ARRAY_SIZE + HAND_SIZE, "array and dealer")
        hand = tuple(first_cards[p] for p in bet.positions)
        results = list(self._ante_results(bet.wagers[ANTE], hand, shared_second, choice == PLAY))
        for spot, (wager, line) in _SIDE_SPOTS.items():
            stake = bet.wagers.get(spot)
            if stake is not None:
                cards = hand if line is None else tuple(first_cards[p] for p in line)
                results.append(self._side_result(spot, wager, stake, cards, shared_second))
        return SeatSettlement(tuple(results))

    def _ante_results(
        self, ante: int, hand: tuple[int, ...], dealer: tuple[int, ...], played: bool
    ) -> tuple[WagerResult, ...]:
        if not played:
            return (WagerResult(ANTE, ante, 0, "Fold"),)
        player_value, dealer_value = poker3.value3(hand), poker3.value3(dealer)
        one = Fraction(1)
        if not poker3.dealer_qualifies(dealer_value):
            ante_result = WagerResult(ANTE, ante, pay(ante, one), "Dealer does not qualify", one)
            play_result = WagerResult(PLAY, ante, ante, "Dealer does not qualify: push")
        elif player_value > dealer_value:
            ante_result = WagerResult(ANTE, ante, pay(ante, one), "Win", one)
            play_result = WagerResult(PLAY, ante, pay(ante, one), "Win", one)
        elif player_value == dealer_value:
            ante_result = WagerResult(ANTE, ante, ante, "Tie: push")
            play_result = WagerResult(PLAY, ante, ante, "Tie: push")
        else:
            ante_result = WagerResult(ANTE, ante, 0, "Lose")
            play_result = WagerResult(PLAY, ante, 0, "Lose")
        category = poker3.category3(player_value)
        bonus = self.ante_bonus.odds(category)
        if not bonus:
            return ante_result, play_result
        bonus_result = WagerResult(
            ANTE_BONUS,
            0,
            pay(ante, bonus) - ante,
            f"Ante bonus: {poker3.CATEGORY3_NAMES[category]}",
            bonus,
        )
        return ante_result, play_result, bonus_result

    def _side_result(
        self,
        spot: str,
        wager: str,
        stake: int,
        cards: tuple[int, ...],
        dealer: tuple[int, ...],
    ) -> WagerResult:
        if wager == PAIRS_PLUS:
            category = poker3.category3(poker3.value3(cards))
            odds, name = self.pairs_plus.odds(category), poker3.CATEGORY3_NAMES[category]
        else:
            category = poker3.best_five_category(cards + dealer)
            odds, name = self.six_card_bonus.odds(category), poker3.CATEGORY5_NAMES[category]
        if odds:
            return WagerResult(spot, stake, pay(stake, odds), name, odds)
        return WagerResult(spot, stake, 0, f"Lose ({name})")

    def optimal_play(self, array_cards: Sequence[int], positions: Sequence[int]) -> PlayAdvice:
        """Exact best decision seeing the whole array (see :func:`optimal_play`)."""
        return optimal_play(self, array_cards, positions)


def _check_deal(cards: Sequence[int], size: int, what: str) -> None:
    if len(cards) != size:
        raise RuleError(f"the {what} has {size} cards, got {len(cards)}")
    try:
        poker3.check_cards(cards, what)
    except ValueError as exc:
        raise RuleError(str(exc)) from exc


def optimal_play(
    rules: StadiumRules, array_cards: Sequence[int], positions: Sequence[int]
) -> PlayAdvice:
    """Exact Play/Fold for the seat holding ``positions`` of the array, when it sees all 9
    cards: the expected ante + play + ante bonus over the C(43,3) = 12,341 dealer hands left
    against folding (-1 ante).  About 0.1 ms; side wagers do not depend on the decision."""
    _check_deal(tuple(array_cards), ARRAY_SIZE, "array")
    rules.validate_bet(SeatBet({ANTE: 1}, tuple(positions)))
    hand = tuple(array_cards[p] for p in positions)
    return advise(hand, array_cards, rules.ante_bonus.pays)


def load(paytables: Mapping[str, str], environ: Mapping[str, str] | None = None) -> StadiumRules:
    """The rules with the chosen pay tables (wager id -> table name or file); the defaults
    are ``1-4-5``, ``1-4-6-30-40`` and ``1000-200-100-20-15-10-7``.  A bad or unknown table
    raises :class:`kiosk.kernel.games.paytable.PaytableError`."""
    chosen = {**DEFAULTS, **paytables}
    tables = {wager: load_table(wager, name, environ) for wager, name in chosen.items()}
    return StadiumRules(tables[ANTE_PLAY], tables[PAIRS_PLUS], tables[SIX_CARD_BONUS])


#: the operator's name of each pay table's wager
PAYTABLE_LABELS: Mapping[str, str] = {
    ANTE_PLAY: "Ante and Play (ante bonus)",
    PAIRS_PLUS: "Pairs Plus",
    SIX_CARD_BONUS: "6-Card Bonus",
}


class StadiumFamily:
    """Stadium Three Card Poker as a :class:`~kiosk.kernel.games.family.Family` (one edition)."""

    @property
    def id(self) -> str:
        """``"stadium"``."""
        return FAMILY_ID

    def edition_ids(self) -> tuple[str, ...]:
        """``("stadium-3cp",)``."""
        return (GAME_ID,)

    def load(self, edition_id: str, paytables: Mapping[str, str]) -> StadiumRules:
        """:func:`load`."""
        if edition_id != GAME_ID:
            raise RuleError(f"unknown Stadium edition {edition_id!r}; known: {GAME_ID}")
        return load(paytables)

    def title(self, edition_id: str) -> str:
        """The title."""
        return TITLE

    def paytable_choices(self, edition_id: str) -> tuple[PaytableChoice, ...]:
        """The Ante and Play (its ante bonus), Pairs Plus and 6-Card Bonus tables."""
        return tuple(
            PaytableChoice(
                wager,
                PAYTABLE_LABELS[wager],
                table_names(stadium_paytables.kind(wager)),
                DEFAULTS[wager],
            )
            for wager in stadium_paytables.WAGERS
        )

    def pay_limits(self, edition_id: str) -> PayLimits:
        """Ante and play 1:1; the ante bonus (stake 0) on the ante at the best ante-bonus odds;
        each side and blind spot at the best odds of every table of its wager."""
        if edition_id != GAME_ID:
            raise RuleError(f"unknown Stadium edition {edition_id!r}; known: {GAME_ID}")
        most = {
            wager: best(
                odds
                for table in loadable(
                    partial(load_table, wager), table_names(stadium_paytables.kind(wager))
                )
                for odds in table.pays.values()
            )
            for wager in stadium_paytables.WAGERS
        }
        one = Fraction(1)
        spots = {ANTE: SpotLimit(one), PLAY: SpotLimit(one)}
        spots[ANTE_BONUS] = SpotLimit(most[ANTE_PLAY], on=ANTE)
        for spot, (wager, _) in _SIDE_SPOTS.items():
            spots[spot] = SpotLimit(most[wager])
        return PayLimits(GAME_ID, spots)


FAMILY = StadiumFamily()
