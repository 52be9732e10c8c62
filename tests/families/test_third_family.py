"""A third game family is one package plus data: the High Card test family (tests/families/
high_card) is registered by the test, and a real terminal plays it while the touchscreen's
views, the menu, help, game recall and ``turbokiosk play``'s text show it through the family
contract, with no layer's code edited for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.kernel.games import registry
from kiosk.kernel.games.base import RuleError
from kiosk.terminal.core.config import EditionConfig, TerminalConfig
from kiosk.terminal.core.state import RoundState
from kiosk.terminal.presentation.families import table_family
from kiosk.terminal.textui.families import text_family
from kiosk.terminal.textui.rules import rules_lines
from kiosk.terminal.textui.session import PlaySession
from kiosk.terminal.textui.show import round_lines
from tests.families import high_card
from tests.helpers.presentation_table import Table


def config() -> TerminalConfig:
    """Turbo Football and High Card (valid once High Card is registered)."""
    editions = (EditionConfig("turbo-football"), EditionConfig(high_card.EDITION_ID))
    return TerminalConfig(editions=editions)


@pytest.fixture
def installed() -> Iterator[None]:
    high_card.install()
    yield
    high_card.uninstall()


@pytest.fixture
def table(tmp_path: Path, installed: None) -> Iterator[Table]:
    t = Table(tmp_path, config())
    yield t
    t.rt.close()


def test_the_family_is_known_only_once_registered(installed: None) -> None:
    assert high_card.EDITION_ID in registry.edition_ids()
    assert registry.load_game(high_card.EDITION_ID).family == high_card.FAMILY_ID
    high_card.uninstall()
    try:
        with pytest.raises(RuleError, match="unknown edition 'high-card'"):
            registry.load_game(high_card.EDITION_ID)
    finally:
        high_card.install()


def test_a_family_cannot_take_an_edition_of_another(installed: None) -> None:
    with pytest.raises(ValueError, match="already registered"):
        registry.register(high_card.HighCardFamily())


def test_the_touchscreen_views_show_a_round_of_the_third_family(table: Table) -> None:
    s = table.session
    assert ("high-card", "High Card", "", "Beat the dealer's card") in s.editions()
    table.note(2000)
    assert s.select_edition(high_card.EDITION_ID)
    before = s.view()
    assert before.family == "high-card"
    assert [(v.id, v.label, v.pays_text) for v in before.spots] == [("bet", "Bet", "1:1")]
    s.select_chip(500)
    assert s.place_chip("bet")
    table.deal("5h Kd")  # the dealer's 5, the seat's king
    view = s.view()
    assert [f.name if f else None for f in view.first] == ["5h"]
    assert [f.name if f else None for f in view.own] == ["Kd"]
    assert view.deal_steps == (1, 2)
    assert view.hand_text == "Dealer: 5h"
    assert view.offer is None
    assert view.spots[0].results[0].text == "WIN $10.00"
    assert view.win_banner == "YOU WIN $10.00"
    assert view.credit_text == "$25.00"
    page = s.help()
    assert page.title == "High Card — rules and pays" and page.paragraphs[0] == "Bet"
    recalled = s.history(1)[0]
    assert recalled.family == "high-card"
    assert recalled.hand_text == "Dealer: 5h"
    assert [r.text for r in recalled.results] == ["WIN $10.00"]


def test_the_text_terminal_plays_and_recalls_the_third_family(table: Table) -> None:
    out: list[str] = []
    play = PlaySession(table.terminal, out.append)
    play.start(high_card.EDITION_ID)
    for line in ("bill 20", "bet bet 5"):
        assert play.handle(line)
    table.tour.script = "Qs 3c"  # the dealer's queen beats the seat's 3
    assert play.handle("deal")
    said = "\n".join(out)
    assert "Dealer's card: Qs" in said
    assert "Own cards: 3c" in said
    assert "Lose" in said
    lines = round_lines(RoundState.from_dict(table.rt.journal.recall(1)[0]))
    assert "High Card (high-card)" in lines[0]
    assert "  Dealer's card: Qs" in lines
    game = registry.load_game(high_card.EDITION_ID)
    assert rules_lines(game, config())[1] == "Beat the dealer's card: a win pays 1:1."


def test_without_parts_of_its_own_a_family_is_shown_plainly(table: Table) -> None:
    """Only the games layer knows the family: every layer falls back to its plain part."""
    from kiosk.terminal.presentation import families as table_families
    from kiosk.terminal.textui import families as text_families

    table_families.unregister(high_card.FAMILY_ID)
    text_families.unregister(high_card.FAMILY_ID)
    game = registry.load_game(high_card.EDITION_ID)
    assert table_family(game) is table_families.PLAIN
    assert text_family(game) is text_families.PLAIN
    s = table.session
    table.note(2000)
    assert s.select_edition(high_card.EDITION_ID)
    s.select_chip(500)
    assert s.place_chip("bet")
    table.deal("2h 2d")
    view = s.view()
    assert view.spots[0].pays_text == ""
    assert view.spots[0].results[0].text == "PUSH"
    lines = round_lines(RoundState.from_dict(table.rt.journal.recall(1)[0]))
    assert "  First deal: 2h" in lines
    assert "    Own cards: 2d" in lines
