"""Issue 26 item 7: Icon v2's wagers are named by what they need, not only "Bet A/B/C"."""

from __future__ import annotations

from kiosk.kernel.games.registry import load_game
from kiosk.terminal.presentation.spots import spot_labels
from kiosk.terminal.presentation.words import GameWords


def test_icon_v2_wagers_are_named_by_what_they_need_in_both_languages() -> None:
    game = load_game("icon-v2")
    english = spot_labels(game, GameWords(game, "en"))
    spanish = spot_labels(game, GameWords(game, "es"))
    assert (english["bet_a"], english["bet_b"], english["bet_c"]) == (
        "6+ Icons",
        "7+ Icons",
        "8+ Icons",
    )
    assert (spanish["bet_a"], spanish["bet_b"], spanish["bet_c"]) == (
        "6+ Iconos",
        "7+ Iconos",
        "8+ Iconos",
    )
