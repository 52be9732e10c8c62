"""The Stadium family on the touchscreen: :class:`~ui.terminal.screens.stadium.StadiumScreen`, the
array a pack at a time, the array's rows in game recall and the array as the game's icon."""

from __future__ import annotations

from collections.abc import Mapping

from kivy.graphics import Color, RoundedRectangle

from kiosk.kernel.games.stadium import FAMILY_ID
from kiosk.terminal.presentation.recall import RecallView
from ui.terminal.draw import paint
from ui.terminal.families import RecallRow, ScreenFamily, register
from ui.terminal.screens.stadium import StadiumScreen
from ui.terminal.theme import BACK, GOLD


def array_icon(x: float, y: float, s: float) -> None:
    """A 3x3 array of cards, gold and back alternating, in the square at (x, y)."""
    cell = s / 3
    for row in range(3):
        for col in range(3):
            Color(*(GOLD if (row + col) % 2 == 0 else BACK))
            RoundedRectangle(
                pos=(x + col * cell + cell * 0.12, y + row * cell + cell * 0.06),
                size=(cell * 0.76, cell * 0.88),
                radius=[cell * 0.1],
            )


def recall_rows(game: RecallView, t: Mapping[str, str]) -> list[RecallRow]:
    """The array's three rows (the hand's positions marked), then the dealer's cards."""
    return [
        (t["array"], game.first[0:3], 0),
        ("", game.first[3:6], 3),
        ("", game.first[6:9], 6),
        (t["dealer"], game.dealer, -1),
    ]


paint.ICONS[FAMILY_ID] = array_icon
register(ScreenFamily(FAMILY_ID, StadiumScreen, step_seconds=0.5, recall_rows=recall_rows))
