"""Help as pictures, without Kivy: every row read from the pay table the game pays from (an
operator's other table changes it), the right picture on each row, a worked example settled by
the rules, in both languages."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kiosk.kernel import cards
from kiosk.kernel.games import poker3
from kiosk.kernel.games.registry import load_game
from kiosk.kernel.games.stadium import StadiumRules
from kiosk.kernel.games.turbo import TurboRules, edition_ids
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.presentation.families.stadium_help import HANDS3, HANDS5
from kiosk.terminal.presentation.help import help_page
from kiosk.terminal.presentation.help_pictures import help_pictures

LANGUAGES = ("en", "es")


def _odds(value: Fraction) -> str:
    return f"{value.numerator:,}:{value.denominator:,}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("edition", [*edition_ids(), "stadium-3cp"])
def test_picture_rows_are_the_help_pages_rows(edition: str, language: str) -> None:
    game = load_game(edition)
    pictures = help_pictures(game, language)
    page = help_page(game, TerminalConfig(), language)
    assert pictures is not None
    drawn = [(t.title, [(r.outcome, r.pays) for r in t.rows]) for t in pictures.tables]
    assert drawn == [(t.title, list(t.rows)) for t in page.tables]


def test_turbo_rows_are_the_icon_tiers_with_the_icon_and_its_count() -> None:
    game = load_game("turbo-football")
    assert isinstance(game, TurboRules)
    pictures = help_pictures(game, "en")
    assert pictures is not None
    first = pictures.tables[0]
    tiers = sorted(game.paytables["first_down"].tiers, key=lambda t: t.odds, reverse=True)
    assert [(r.pays, r.count_text, r.icon) for r in first.rows] == [
        (_odds(t.odds), f"{t.min_icons}+", "football") for t in tiers
    ]
    bonus = pictures.tables[-1]
    assert game.nine_card_bonus is not None
    suited = [r for r in bonus.rows if "spades in your 9 cards" in r.outcome]
    assert [r.pays for r in suited] == [
        _odds(Fraction(game.nine_card_bonus.pays[n - 4])) for n in range(9, 3, -1)
    ]
    assert all(c.suit == game.suit for r in bonus.rows for c in r.cards)


def test_an_operators_other_pay_table_is_what_the_help_draws() -> None:
    standard = help_pictures(load_game("stadium-3cp"), "en")
    other = help_pictures(load_game("stadium-3cp", {"pairs_plus": "1-3-6-30-40"}), "en")
    assert standard is not None and other is not None
    rows = {r.outcome: r.pays for r in other.tables[1].rows}
    assert rows["Straight"] == "6:1" and rows["Flush"] == "3:1"
    assert {r.outcome: r.pays for r in standard.tables[1].rows}["Flush"] == "4:1"


def test_every_stadium_row_draws_a_hand_of_its_category() -> None:
    game = load_game("stadium-3cp")
    assert isinstance(game, StadiumRules)
    for category, hand in enumerate(HANDS3):
        assert poker3.category3(poker3.value3(cards.cards(hand))) == category, hand
    for category, hand in enumerate(HANDS5):
        assert poker3.best_five_category(cards.cards(hand)) == category, hand
    pictures = help_pictures(game, "en")
    assert pictures is not None
    for table, names in zip(
        pictures.tables,
        (poker3.CATEGORY3_NAMES, poker3.CATEGORY3_NAMES, poker3.CATEGORY5_NAMES),
        strict=True,
    ):
        for row in table.rows:
            category = names.index(row.outcome)
            codes = [c.code for c in row.cards]
            if len(codes) == 3:
                assert poker3.category3(poker3.value3(codes)) == category
            else:
                assert poker3.best_five_category(codes) == category


@pytest.mark.parametrize(
    ("edition", "language", "lines"),
    [
        (
            "turbo-football",
            "en",
            [
                "You bet $5.00 on First Down",
                "You bet $1.00 on Long Pass",
                "The cards",
                "15 footballs: 6+ footballs in 9 cards",
                "First Down pays 1:1: you get $10.00 back",
                "Long Pass pays 4:1: you get $5.00 back",
                "Total back: $15.00 on $6.00 bet",
            ],
        ),
        (
            "turbo-hockey",
            "es",
            [
                "Apuesta $5.00 en Saque Neutral",
                "Apuesta $1.00 en Escapada",
                "Las cartas",
                "15 discos: 6+ discos en 9 cartas",
                "Saque Neutral paga 1:1: recibe $10.00",
                "Escapada paga 4:1: recibe $5.00",
                "Recibe en total: $15.00 por $6.00 apostados",
            ],
        ),
        (
            "stadium-3cp",
            "es",
            [
                "Apuesta $5.00 en Ante",
                "Apuesta $1.00 en Parejas Plus",
                "Las cartas",
                "Su mano: Pareja",
                "Banca: Carta alta: rey — califica",
                "Ante paga 1:1: recibe $10.00",
                "Jugada paga 1:1: recibe $10.00",
                "Parejas Plus paga 1:1: recibe $2.00",
                "Recibe en total: $22.00 por $11.00 apostados",
            ],
        ),
    ],
)
def test_the_worked_example_is_a_round_the_rules_settled(
    edition: str, language: str, lines: list[str]
) -> None:
    pictures = help_pictures(load_game(edition), language)
    assert pictures is not None
    assert [step.text for step in pictures.example] == lines
    cards_shown = [step.cards for step in pictures.example if step.cards]
    assert len(cards_shown[0]) == 9
