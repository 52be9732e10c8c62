"""The table view: what a player sees is the terminal's state, and never the result early."""

from __future__ import annotations

from fractions import Fraction

from kiosk.kernel.games.registry import load_game
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.presentation.chips import chip_text, chip_values
from kiosk.terminal.presentation.help import help_page
from kiosk.terminal.presentation.table import allowed
from kiosk.tools.tour import STADIUM_CARDS, TURBO_CARDS
from tests.helpers.presentation_table import Table


def test_chip_values_follow_the_denomination_and_the_limits() -> None:
    assert chip_values(TerminalConfig()) == (25, 100, 500, 2_500, 10_000)
    dollar = TerminalConfig(denomination=100, min_wager=100, max_wager=2_500, table_max=10_000)
    assert chip_values(dollar) == (100, 500, 2_500)
    odd = TerminalConfig(denomination=30, min_wager=300, max_wager=3_000, table_max=30_000)
    assert chip_values(odd) == (30,)
    assert [chip_text(v) for v in (25, 100, 2_500, 100_000, 150)] == [
        "25¢",
        "$1",
        "$25",
        "$1K",
        "$1.50",
    ]


def test_a_turbo_round_seen_card_by_card(table: Table) -> None:
    s = table.session
    table.note(2000)
    s.select_edition("turbo-football")
    s.select_chip(500)
    assert s.place_chip("first_down")
    view = s.view()
    assert view.wager_text == "$5.00" and view.credit_text == "$20.00" and view.can_deal
    table.deal(TURBO_CARDS)
    hidden = s.view(revealed=0)
    assert hidden.first == (None, None, None) and hidden.offer is None and not hidden.can_deal
    two = s.view(revealed=2)
    assert [f.name for f in two.first if f] == ["Js", "4h"] and two.icon_count == 4
    assert two.offer is None  # the community is not all out yet
    assert s.view(revealed=3, in_flight=True).offer is None  # the third card is still moving
    three = s.view(revealed=3)
    assert three.offer is not None and three.offer.take_label == "DOUBLE"
    # no decision timer unless the operator sets one (decision 0054): no countdown shown
    assert (three.offer.seconds_left, three.offer.total_seconds) == (0, 0)
    assert three.offer.default_text == ""
    table.clock.advance(60)
    later = s.view(revealed=3).offer
    assert later is not None and later.default_text == ""  # the round still waits
    assert s.decide(True)
    settled = table.rt.state
    assert settled.credits == [2000 - 1000 + 2000]  # First Down and the Double win 1:1
    dealing = s.view(revealed=5)
    assert dealing.credit_text == "$10.00" and dealing.win_text == "$0.00"
    assert not any(spot.results for spot in dealing.spots)
    holding = s.view(in_flight=True)
    assert holding.win_text == "$0.00" and holding.credit_text == "$10.00"
    done = s.view()
    assert done.win_text == "$20.00" and done.credit_text == "$30.00"
    assert done.icon_count == 15 and done.icon_count_text == "15 footballs"
    first_down = next(spot for spot in done.spots if spot.id == "first_down")
    assert [r.text for r in first_down.results] == [
        "WIN $10.00 6+ footballs in 9 cards",
        "WIN $10.00 6+ footballs in 9 cards",
    ]
    assert first_down.extra_text == "+ Double $5.00" and first_down.highlight == "win"
    assert done.win_banner == "YOU WIN $20.00"


def test_a_stadium_round_with_the_dealer(table: Table) -> None:
    s = table.session
    table.note(2000)
    s.select_edition("stadium-3cp")
    for position in (0, 4, 8):
        assert s.toggle_position(position)
    s.select_chip(500)
    s.place_chip("ante")
    assert s.view().guide_text == "Touch DEAL to play · MIN $1.00 MAX $100.00"
    table.deal(STADIUM_CARDS)
    packs = s.view(revealed=6)
    assert sum(f is not None for f in packs.first) == 6 and packs.offer is None
    moving = s.view(revealed=9, in_flight=True)
    assert moving.offer is None and moving.hand_text == ""
    view = s.view(revealed=9)
    assert view.dealer_face_down and view.hand_text == "Your hand: Pair of Queens"
    assert view.offer is not None and view.offer.take_label == "PLAY $5.00"
    assert view.offer.default_text == ""  # no timer: the player decides (decision 0054)
    s.decide(True)
    done = s.view()
    assert not done.dealer_face_down
    assert done.dealer_text == "Dealer: King high — qualifies"
    ante = next(spot for spot in done.spots if spot.id == "ante")
    assert [r.text for r in ante.results] == ["WIN $10.00", "WIN $10.00"]


def test_positions_toggle_and_a_fourth_replaces_the_first(table: Table) -> None:
    s = table.session
    table.note(2000)
    s.select_edition("stadium-3cp")
    for position in (1, 2, 3):
        s.toggle_position(position)
    s.toggle_position(2)
    assert table.rt.state.pending_positions[0] == (1, 3)
    s.toggle_position(5)
    s.toggle_position(7)
    assert table.rt.state.pending_positions[0] == (3, 5, 7)


def test_buttons_follow_the_terminals_command_table(table: Table) -> None:
    s = table.session
    state = table.rt.state
    assert not s.view().can_deal and not s.view().can_cash_out
    table.note(2000)
    assert s.view().can_cash_out and not s.view().can_deal
    s.place_chip("first_down")
    assert s.view().can_deal == allowed(state, c.Deal)
    table.rt.execute(c.SetDoor(door="main", open=True))
    view = s.view()
    assert not view.can_deal and not view.can_bet and not view.can_cash_out
    lockup = s.lockup()
    assert lockup is not None and lockup.title == "DOOR OPEN" and lockup.reason == "Open: main door"


def test_refusals_are_in_the_players_words_and_language(table: Table) -> None:
    s = table.session
    table.note(100)
    s.select_chip(500)
    assert not s.place_chip("first_down")
    assert s.notice is not None and s.notice.text == "Not enough credits"
    s.set_language("es")
    s.select_chip(25)
    s.place_chip("long_pass")
    assert not s.deal()
    assert s.notice is not None and s.notice.text == "Lo mínimo por apuesta es $1.00"


def test_help_pays_are_the_tables_the_game_pays_from() -> None:
    config = TerminalConfig()
    game = load_game("turbo-football")
    page = help_page(game, config, "en")
    tables = {t.title: dict(t.rows) for t in page.tables}
    for wager in game.edition.wagers:  # type: ignore[attr-defined]
        for tier in game.paytables[wager.id].tiers:  # type: ignore[attr-defined]
            pays = Fraction(tier.odds)
            text = f"{pays.numerator:,}:{pays.denominator:,}"
            assert tables[wager.label][tier.outcome] == text
    bonus = tables["9 Card Bonus"]
    assert bonus["9 spades in your 9 cards"] == "10,000:1"
    assert bonus["4 spades in your 9 cards"] == "3:1"
    stadium = help_page(load_game("stadium-3cp"), config, "es")
    pairs_plus = dict(stadium.tables[1].rows)
    assert pairs_plus == {
        "Escalera de color": "40:1",
        "Trío": "30:1",
        "Escalera": "6:1",
        "Color": "4:1",
        "Pareja": "1:1",
    }
    assert any("$1.00" in p and "$100.00" in p for p in page.paragraphs)
