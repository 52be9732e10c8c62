"""Stadium's help pictures: each pay table with an example hand drawn on every row, and one
round worked out by the rules."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from kiosk.kernel import cards
from kiosk.kernel.games import poker3
from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.stadium import ANTE, PLAY, StadiumRules
from kiosk.terminal.presentation.faces import face
from kiosk.terminal.presentation.families.stadium_hands import dealer_qualifies, three_card_name
from kiosk.terminal.presentation.help_pictures import (
    ExampleStep,
    HelpPictures,
    PictureRow,
    PictureTable,
    result_steps,
    wager_step,
)
from kiosk.terminal.presentation.i18n import game_text, text
from kiosk.terminal.presentation.spots import odds_text

#: a three-card hand of each category (poker3.CATEGORY3_NAMES order)
HANDS3 = ("Ah 9c 4s", "Qs Qd 7c", "Kd 9d 4d", "9c 8d 7s", "7s 7h 7d", "Qh Jh Th")
#: a five-card hand of each category (poker3.CATEGORY5_NAMES order)
HANDS5 = (
    "As Jd 8h 6c 3s",
    "9s 9d Ah 7c 3s",
    "Ks Kd 6h 6c 2s",
    "5s 5h 5d Kc 9h",
    "Td 9s 8h 7c 6d",
    "Ac Jc 8c 6c 2c",
    "Js Jh Jd 4c 4s",
    "8s 8h 8d 8c Kd",
    "9h 8h 7h 6h 5h",
    "As Ks Qs Js Ts",
)
#: the example round: the array row by row, the dealer, the positions, the stakes
EXAMPLE_ARRAY = "Qs 3h 9c 5d Qd 2s Jh 8h 7c"
EXAMPLE_DEALER = "Kc 6d 4s"
EXAMPLE_POSITIONS = (0, 4, 8)
EXAMPLE_ANTE, EXAMPLE_PAIRS_PLUS = 500, 100


def _rows(
    pays: Mapping[int, Fraction], names: tuple[str, ...], hands: tuple[str, ...], language: str
) -> tuple[PictureRow, ...]:
    return tuple(
        PictureRow(
            game_text(language, names[cat]),
            odds_text(pays[cat]),
            cards=tuple(face(code) for code in cards.cards(hands[cat])),
        )
        for cat in sorted(pays, reverse=True)
    )


def pay_tables(game: StadiumRules, language: str) -> tuple[PictureTable, ...]:
    """The Ante bonus, Pairs Plus and 6-Card Bonus tables, a hand drawn on each row."""
    c3, c5 = poker3.CATEGORY3_NAMES, poker3.CATEGORY5_NAMES
    return (
        PictureTable(
            text(language, "help_stadium_bonus"), _rows(game.ante_bonus.pays, c3, HANDS3, language)
        ),
        PictureTable(
            text(language, "help_pairs_plus"), _rows(game.pairs_plus.pays, c3, HANDS3, language)
        ),
        PictureTable(
            text(language, "help_six_card"), _rows(game.six_card_bonus.pays, c5, HANDS5, language)
        ),
    )


def example(game: StadiumRules, language: str) -> tuple[ExampleStep, ...]:
    """One round settled by the rules: Ante and Pairs Plus, the array, the hand picked, the
    dealer's hand, Play, what each wager pays."""
    array = cards.cards(EXAMPLE_ARRAY)
    dealer = cards.cards(EXAMPLE_DEALER)
    hand = tuple(array[p] for p in EXAMPLE_POSITIONS)
    bet = SeatBet({ANTE: EXAMPLE_ANTE, "pairs_plus": EXAMPLE_PAIRS_PLUS}, EXAMPLE_POSITIONS)
    settlement = game.settle(bet, array, PLAY, (), dealer)
    qualifies = text(language, "qualifies" if dealer_qualifies(dealer) else "not_qualifies")
    staked = bet.total + EXAMPLE_ANTE  # Play is the Ante's amount again
    steps = [
        wager_step(game, language, ANTE, EXAMPLE_ANTE),
        wager_step(game, language, "pairs_plus", EXAMPLE_PAIRS_PLUS),
        ExampleStep(text(language, "help_example_cards"), cards=tuple(face(c) for c in array)),
        ExampleStep(
            text(language, "help_example_hand", hand=three_card_name(hand, language)),
            cards=tuple(face(c) for c in hand),
        ),
        ExampleStep(
            text(
                language,
                "dealer_hand",
                hand=three_card_name(dealer, language),
                qualifies=qualifies,
            ),
            cards=tuple(face(c) for c in dealer),
        ),
    ]
    steps += result_steps(game, settlement, language, staked)
    return tuple(steps)


def pictures(game: StadiumRules, language: str) -> HelpPictures:
    """The Stadium help's pictures."""
    return HelpPictures(
        tables=pay_tables(game, language),
        example_title=text(language, "help_example_title"),
        example=example(game, language),
    )
