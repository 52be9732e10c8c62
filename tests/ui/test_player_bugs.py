"""What players hit on the touchscreen (issue 13), each driven by touches as a player would."""

from __future__ import annotations

from typing import Any

from ui.tour import STADIUM_CARDS


def _stadium_round(k: Any, positions: tuple[int, ...] = (0, 4, 8)) -> None:
    """A $100 note, the Stadium table, a $5 Ante on ``positions``, dealt and played."""
    d = k.driver
    k.device("note", 10000)
    d.wait(lambda: d.screen == "menu")
    k.tap("game:stadium-3cp")
    for position in positions:
        k.tap(f"position:{position}")
    k.tap("chip:500", "spot:ante")
    k.deal_next(STADIUM_CARDS)
    k.tap("deal")
    d.wait(lambda: k.app.view().offer is not None, what="Play or Fold")
    d.settle()
    k.tap("take")
    d.settle()


def test_stadium_repeat_keeps_the_positions_picked_for_this_round(kiosk: Any) -> None:
    k, rt = kiosk, kiosk.runtime
    _stadium_round(k)
    for position in (1, 3, 5):
        k.tap(f"position:{position}")
    k.tap("repeat")
    assert rt.state.pending_positions == {0: (1, 3, 5)}
    assert rt.state.pending_wagers == {0: {"ante": 500}}
    chosen = [p for p in range(9) if k.driver.widget(f"position:{p}").selected]
    assert chosen == [1, 3, 5]


def test_new_positions_are_not_ranked_against_the_last_rounds_cards(kiosk: Any) -> None:
    k = kiosk
    _stadium_round(k)
    screen = k.app.root.ids.sm.current_screen
    assert screen.hand_text == "Your hand: Pair"  # the hand played, beside its result
    for position in (1, 2, 3):
        k.tap(f"position:{position}")
    assert k.app.view().hand_text == ""
    assert screen.hand_text == ""
