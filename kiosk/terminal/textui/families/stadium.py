"""The Stadium family in text: the array with the chosen locations, the hand, the dealer, the
rules and the three pay tables."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from kiosk.kernel.cards import names
from kiosk.kernel.games import poker3
from kiosk.kernel.games.base import GameRules
from kiosk.kernel.games.stadium import ANTE_BONUS, FAMILY_ID, PLAY, StadiumRules
from kiosk.terminal.core.state import RoundState
from kiosk.terminal.textui.families import TextFamily, register
from kiosk.terminal.textui.show import (
    array_lines,
    dealer_text,
    odds_text,
    positions_text,
    three_card_text,
)

#: labels of result lines that are not wager spots placed before the deal
EXTRA_LABELS: Mapping[str, str] = {PLAY: "Play", ANTE_BONUS: "Ante bonus"}


def _rules(game: GameRules | None) -> StadiumRules:
    assert isinstance(game, StadiumRules), f"{game} is not a Stadium game"
    return game


def _category_pays(pays: Mapping[int, Fraction], category_names: tuple[str, ...]) -> str:
    return ", ".join(f"{category_names[c]} {odds_text(pays[c])}" for c in sorted(pays))


def stadium_lines(game: StadiumRules) -> list[str]:
    """Stadium: positions, ante and play, the qualifier and the three pay tables."""
    blind = [s.id for s in game.spots if s.group == "blind"]
    return [
        "Before the deal choose 3 of the 9 array positions (positions 1 5 9);",
        "locations row by row: 1 2 3 / 4 5 6 / 7 8 9.",
        "Wager spots (bet SPOT DOLLARS):",
        "  ante            Ante (mandatory): 1:1 against the dealer when you play",
        "  pairs_plus      Pairs Plus on your hand: "
        + _category_pays(game.pairs_plus.pays, poker3.CATEGORY3_NAMES),
        "  six_card_bonus  6-Card Bonus, best 5 of your hand and the dealer's: "
        + _category_pays(game.six_card_bonus.pays, poker3.CATEGORY5_NAMES),
        f"  blind bets on the array's rows and columns, same pays: {', '.join(blind)}",
        "After the array is dealt: 'play' adds a wager equal to the ante; 'fold' loses the "
        "ante and is taken when time runs out.",
        "The dealer qualifies with Queen high or better. Not qualifying: the ante wins 1:1 and "
        "the play pushes. Otherwise the better hand wins ante and play 1:1; a tie pushes.",
        "Ante bonus when you play, whatever the dealer holds: "
        + _category_pays(game.ante_bonus.pays, poker3.CATEGORY3_NAMES),
    ]


class StadiumText(TextFamily):
    """The Stadium family's :class:`~kiosk.terminal.textui.families.TextFamily`."""

    id = FAMILY_ID

    def extra_label(self, game: GameRules | None, spot: str) -> str | None:
        """The play wager and the ante bonus by name."""
        return EXTRA_LABELS.get(spot)

    def first_deal_lines(self, game: GameRules | None, rnd: RoundState) -> list[str]:
        """The array, three rows, a single seat's locations in brackets."""
        bets = rnd.bets
        marked = bets[0].bet.positions if len(bets) == 1 else ()
        lines = ["Array (locations 1-9 row by row; [ ] = your hand):"]
        lines += [f"  {line}" for line in array_lines(rnd.first, marked)]
        return lines

    def seat_hand_lines(self, game: GameRules | None, rnd: RoundState, index: int) -> list[str]:
        """The hand at the seat's chosen locations."""
        positions = rnd.bets[index].bet.positions
        first = rnd.first
        if first and positions:
            hand = [first[p] for p in positions]
            where = positions_text(positions)
            return [f"Hand (locations {where}): {names(hand)}  {three_card_text(hand)}"]
        return super().seat_hand_lines(game, rnd, index)

    def dealer_lines(self, game: GameRules | None, rnd: RoundState) -> list[str]:
        """``"Dealer: Qs 7h 2c  High card (qualifies)"``."""
        return [f"Dealer: {dealer_text(rnd.second_shared)}"]

    def rules_lines(self, game: GameRules | None) -> list[str]:
        """:func:`stadium_lines`."""
        return stadium_lines(_rules(game))


register(StadiumText())
