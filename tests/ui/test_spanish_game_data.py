"""The Spanish screens show the game data in Spanish, switched at the table itself."""

from __future__ import annotations

from typing import Any

from kiosk.app.tour import STADIUM_CARDS


def grid_headers(screen: Any) -> list[str]:
    children = reversed(screen.ids.line_spots.children)
    return [c.text for c in children if getattr(c, "tk_header", None) is not None]


def test_stadium_in_spanish_at_the_table_and_the_lines_result_on_the_hand_tab(kiosk: Any) -> None:
    k, d = kiosk, kiosk.driver
    k.device("note", 10000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:stadium-3cp")
    screen = k.app.root.ids.sm.current_screen
    assert grid_headers(screen)[0] == "Pairs Plus\nROWS"
    k.tap("language")
    d.frames(3)
    assert k.app.title_text == "Stadium Póquer de Tres Cartas"
    assert d.widget("spot:pairs_plus").label == "Parejas Plus"
    assert d.widget("spot:six_card_bonus").label == "Bono 6 Cartas"
    assert grid_headers(screen) == [
        "Parejas Plus\nFILAS",
        "Bono 6 Cartas\nFILAS",
        "Parejas Plus\nCOLUMNAS",
        "Bono 6 Cartas\nCOLUMNAS",
    ]
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
    assert "Jugada: GANA $10.00" in d.widget("spot:ante").result_text
    k.tap("language")
    d.frames(3)
    assert screen.lines_text == "Rows & columns: LOSE"
