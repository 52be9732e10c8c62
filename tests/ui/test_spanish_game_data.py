"""The Spanish screens show the game data in Spanish, switched at the table itself."""

from __future__ import annotations

from typing import Any

from kiosk.tools.tour import STADIUM_CARDS


def grid_headers(screen: Any) -> list[str]:
    """The titles printed over the two rows-and-columns arrays."""
    felt = screen.ids.lines_felt
    return [felt.ids.pairs_plus.title, felt.ids.six_card_bonus.title]


def test_stadium_in_spanish_at_the_table_and_the_lines_result_on_the_hand_tab(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 10000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:stadium-3cp")
    screen = k.app.root.ids.sm.current_screen
    assert grid_headers(screen) == ["Pairs Plus", "6-Card Bonus"]
    k.tap("language")
    d.frames(3)
    assert k.app.title_text == "Stadium Póquer de Tres Cartas"
    assert d.widget("spot:pairs_plus").label == "Parejas Plus"
    assert d.widget("spot:six_card_bonus").label == "Bono 6 Cartas"
    assert grid_headers(screen) == ["Parejas Plus", "Bono 6 Cartas"]
    for position in (0, 4, 8):
        k.tap(f"position:{position}")
    k.tap("chip:500", "spot:ante", "tab:lines", "chip:100", "spot:pairs_plus_row_3", "tab:hand")
    k.deal_next(STADIUM_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="Play or Fold")
    d.settle()
    k.tap("take")
    d.settle()
    assert not screen.lines_tab
    assert screen.lines_text == "Filas y columnas: PIERDE"
    play = d.widget("decision_spot")
    assert (play.label, play.result_text) == ("Jugada", "GANA $10.00")
    k.tap("language")
    d.frames(3)
    assert screen.lines_text == "Rows & columns: LOSE"
