"""Help as pictures on the touchscreen, opened by a touch at each family's table in both
languages: the drawn pay rows are the pay tables the game pays from, the worked example is on
the page with its cards."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from kiosk.kernel.games.turbo import TurboRules
from kiosk.terminal.presentation.help import help_page
from tests.helpers.ui_kiosk import is_card_white
from ui.terminal.screens.help import ExampleStepView, PictureRowView

LANGUAGES = ("en", "es")


def _odds(value: Fraction) -> str:
    return f"{value.numerator:,}:{value.denominator:,}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("edition", ["turbo-football", "stadium-3cp"])
def test_help_draws_the_pay_tables_the_game_pays_from(
    kiosk: Any, edition: str, language: str
) -> None:
    k, d, app = kiosk, kiosk.driver, kiosk.app
    k.device("note", 2000)
    d.wait(lambda: d.screen == "menu")
    k.tap(f"game:{edition}")
    if language != "en":
        k.tap("language")
    k.tap("help")
    assert d.screen == "help"
    screen = app.root.ids.sm.current_screen
    game = app.session.rt.core.game()
    page = help_page(game, app.session.rt.state.config, language)
    assert screen.pay_rows() == [(t.title, list(t.rows)) for t in page.tables]
    if isinstance(game, TurboRules):  # and straight from the tiers
        tiers = sorted(game.paytables["first_down"].tiers, key=lambda t: t.odds, reverse=True)
        assert [p for _o, p in screen.pay_rows()[0][1]] == [_odds(t.odds) for t in tiers]
    shown = screen.all_widgets()  # every page's
    rows = [w for w in shown if isinstance(w, PictureRowView)]
    assert all(r.icon or r.has_cards for r in rows)  # every row has its picture
    steps = [w for w in shown if isinstance(w, ExampleStepView)]
    assert steps and steps[-1].won  # the example ends on what it paid back
    # the example's cards are drawn face up where the page shows them
    screen.show_part("example")
    d.frames(3)
    with_cards = next(s for s in steps if s.has_cards)
    card = with_cards.ids.cards.cards[0]
    x, y = card.to_window(card.x, card.y)
    assert is_card_white(d.frame().mean(x + 2, y + 2, card.width - 4, card.height - 4))
