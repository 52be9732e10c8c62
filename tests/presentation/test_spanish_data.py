"""A Spanish player sees the game data in Spanish: edition names, wager names, icon words,
outcomes, help and pay tables, results and recall — from the data files' translations."""

from __future__ import annotations

import pytest

from kiosk.kernel.games import nine_card_bonus, poker3
from kiosk.kernel.games.registry import edition_ids, load_game
from kiosk.kernel.games.turbo import TurboRules
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.presentation.help import HelpPage, help_page
from kiosk.terminal.presentation.words import GameWords, translations
from kiosk.tools.tour import STADIUM_CARDS, TURBO_CARDS
from tests.helpers.presentation_table import Table


def test_a_spanish_turbo_round_names_everything_in_spanish(table: Table) -> None:
    s = table.session
    s.set_language("es")
    table.note(5000)
    s.select_edition("turbo-football")
    view = s.view()
    assert view.title == "Turbo Fútbol Americano"
    assert [spot.label for spot in view.spots] == [
        "Primer Down",
        "Pase Largo",
        "Gol de Campo",
        "TD",
        "Bono 9 Cartas",
    ]
    s.select_chip(500)
    assert view.guide_text == "Toque una ficha y luego una apuesta · MÍN $1.00 MÁX $100.00"
    for spot in ("first_down", "long_pass", "nine_card_bonus"):
        assert s.place_chip(spot)
    table.deal(TURBO_CARDS)
    offer = s.view(revealed=3).offer
    assert offer is not None and offer.take_label == "DOBLAR"
    assert offer.prompt == "¿Doblar? Otra apuesta de $5.00 a su Primer Down"
    assert s.decide(True)
    done = s.view()
    assert done.icon_count_text == "15 balones"
    lines = {spot.id: spot for spot in done.spots}
    assert [(r.label, r.text) for r in lines["first_down"].results] == [
        ("Primer Down", "GANA $10.00 6+ balones en 9 cartas"),
        ("Doblar", "GANA $10.00 6+ balones en 9 cartas"),
    ]
    assert lines["first_down"].extra_text == "+ Doblar $5.00"
    assert [r.text for r in lines["long_pass"].results] == ["GANA $25.00 Super TD (14+ balones)"]
    assert [r.text for r in lines["nine_card_bonus"].results] == ["GANA $45.00 5 cartas de picas"]
    recalled = s.history()[0]
    assert recalled.heading.startswith("Partida 1  ·  Turbo Fútbol Americano")
    assert recalled.icons_text == "15 balones"
    assert ("Pase Largo", "$5.00") in recalled.wagers
    assert [r.label for r in recalled.results] == [
        "Primer Down",
        "Doblar",
        "Pase Largo",
        "Bono 9 Cartas",
    ]


def test_a_spanish_stadium_round_names_its_wagers_lines_and_hands_in_spanish(table: Table) -> None:
    s = table.session
    s.set_language("es")
    table.note(5000)
    s.select_edition("stadium-3cp")
    for position in (0, 4, 8):
        assert s.toggle_position(position)
    s.select_chip(500)
    for spot in ("ante", "pairs_plus", "six_card_bonus", "pairs_plus_row_3"):
        assert s.place_chip(spot)
    view = s.view()
    assert view.title == "Stadium Póquer de Tres Cartas"
    spots = {spot.id: spot for spot in view.spots}
    assert [spots[i].label for i in ("ante", "pairs_plus", "six_card_bonus")] == [
        "Ante",
        "Parejas Plus",
        "Bono 6 Cartas",
    ]
    row = spots["pairs_plus_row_3"]
    assert (row.label, row.kind_label, row.line_label) == (
        "Parejas Plus Fila 3",
        "Parejas Plus",
        "Fila 3",
    )
    assert spots["six_card_bonus_col_1"].label == "Bono 6 Cartas Columna 1"
    table.deal(STADIUM_CARDS)
    s.decide(True)
    done = s.view()
    results = {spot.id: spot.results for spot in done.spots}
    assert [(r.label, r.text) for r in results["ante"]] == [
        ("Ante", "GANA $10.00"),
        ("Jugada", "GANA $10.00"),
    ]
    assert [r.text for r in results["pairs_plus"]] == ["GANA $10.00 Pareja"]
    assert [r.text for r in results["six_card_bonus"]] == ["PIERDE Pareja"]
    assert [r.text for r in results["pairs_plus_row_3"]] == ["PIERDE Carta alta"]
    assert done.lines_text == "Filas y columnas: PIERDE"
    assert done.hand_text == "Su mano: Pareja de reinas"
    recalled = s.history()[0]
    assert ("Parejas Plus Fila 3", "$5.00") in recalled.wagers


def test_the_blind_lines_result_shows_on_the_hand_tab_too(table: Table) -> None:
    s = table.session
    table.note(5000)
    s.select_edition("stadium-3cp")
    for position in (0, 4, 8):
        s.toggle_position(position)
    s.select_chip(500)
    for spot in ("ante", "pairs_plus_row_1", "six_card_bonus_col_1"):
        assert s.place_chip(spot)
    assert s.view().lines_text == ""
    table.deal(STADIUM_CARDS)
    s.decide(True)
    assert s.view(in_flight=True).lines_text == ""  # not before the cards are all out
    assert s.view().lines_text == "Rows & columns: LOSE"


def texts_of(page: HelpPage) -> list[str]:
    """The help page's data-bearing texts, in page order: titles and outcome cells."""
    out = [page.title]
    for table in page.tables:
        out.append(table.title)
        out += [outcome for outcome, _pays in table.rows]
    return out


@pytest.mark.parametrize("edition_id", edition_ids())
def test_no_english_game_text_is_left_on_a_spanish_help_page(edition_id: str) -> None:
    game = load_game(edition_id)
    config = TerminalConfig()
    english, spanish = help_page(game, config, "en"), help_page(game, config, "es")
    same = {en for en, es in translations(game).get("es", {}).items() if en == es}
    same |= {"Ante", "Stadium Three Card Poker: rules and pays"}
    left = [
        en
        for en, es in zip(texts_of(english), texts_of(spanish), strict=True)
        if en == es and en not in same
    ]
    assert left == []
    assert all(es != en for es, en in zip(spanish.paragraphs, english.paragraphs, strict=True))


def test_spanish_help_pays_are_the_same_pays() -> None:
    game = load_game("turbo-hockey")
    config = TerminalConfig()
    english, spanish = help_page(game, config, "en"), help_page(game, config, "es")
    assert [t.title for t in spanish.tables][:2] == [
        "Saque Neutral",
        "Doblar (con 5 discos o menos en las comunes)",
    ]
    assert spanish.tables[0].rows == (
        ("6+ discos en las 3 cartas comunes", "3:2"),
        ("6+ discos en 9 cartas", "1:1"),
    )
    for en, es in zip(english.tables, spanish.tables, strict=True):
        assert [pays for _, pays in en.rows] == [pays for _, pays in es.rows]


def test_the_menu_lists_the_games_by_their_spanish_names(table: Table) -> None:
    table.session.set_language("es")
    titles = [title for _id, title, _icon, _desc in table.session.editions()]
    assert titles == [
        "Turbo Fútbol Americano",
        "Juegos Turbo de Iconos - Versión 2",
        "Turbo Hockey",
        "Turbo Baloncesto",
        "Turbo Béisbol",
        "Stadium Póquer de Tres Cartas",
    ]
    descriptions = [desc for *_rest, desc in table.session.editions()]
    assert descriptions[2] == "Cuente los discos en sus 9 cartas"


def test_a_text_without_a_translation_stays_english() -> None:
    words = GameWords(load_game("turbo-basketball"), "es")
    assert words("Three-Pointer") == "Triple"
    assert words("A house special") == "A house special"
    assert words("Lose (One pair)") == "Pierde (Pareja)"
    assert words("8-card straight flush") == "Escalera de color de 8 cartas"
    assert words("6 suited cards") == "6 cartas de diamantes"
    assert GameWords(load_game("turbo-basketball"), "en")("Three-Pointer") == "Three-Pointer"
    assert GameWords(None, "es").title == ""


def stadium_outcomes() -> set[str]:
    """Every outcome text Stadium settles with (kiosk.kernel.games.stadium)."""
    hands = {*poker3.CATEGORY3_NAMES, *poker3.CATEGORY5_NAMES}
    fixed = {"Fold", "Win", "Lose", "Tie: push", "Dealer does not qualify"}
    fixed |= {"Dealer does not qualify: push"}
    return hands | fixed | {f"Lose ({h})" for h in hands} | {f"Ante bonus: {h}" for h in hands}


def turbo_outcomes(game: TurboRules) -> set[str]:
    """Every outcome text a Turbo game settles with: its tiers and every 9 Card Bonus table's."""
    edition = game.edition
    tables = [edition.raise_rule.paytable, *(t for w in edition.wagers for t in w.paytables)]
    outcomes = {tier.outcome for table in tables for tier in table.tiers} | {"Lose"}
    for name in nine_card_bonus.available():
        outcomes |= {outcome for outcome, _, _ in nine_card_bonus.load_table(name).outcomes()}
    return outcomes


@pytest.mark.parametrize("edition_id", edition_ids())
def test_every_outcome_a_shipped_game_can_settle_with_reads_in_spanish(edition_id: str) -> None:
    game = load_game(edition_id)
    words = GameWords(game, "es")
    outcomes = turbo_outcomes(game) if isinstance(game, TurboRules) else stadium_outcomes()
    same = {en for en, es in translations(game).get("es", {}).items() if en == es}
    assert [o for o in sorted(outcomes) if words(o) == o and o not in same] == []
    shown = [(spot.label, words.spot(spot)) for spot in game.spots]
    shown.append((game.title, words.title))
    assert [en for en, es in shown if en == es and en not in same | {"Ante"}] == []
