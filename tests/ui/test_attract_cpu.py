"""Attract mode is nearly still: the invitation blinks and nothing else redraws (issue 13: at
most 10% of one core at 800x480; ``python -m kiosk.tools.bench_attract`` measures the CPU)."""

from __future__ import annotations

import time
from typing import Any

from kivy.base import EventLoop

from ui.terminal.screens.attract import BLINK_SECONDS, PROMPT_DIM


def _frames_over(app: Any, seconds: float) -> tuple[int, set[float]]:
    """Frames drawn while the event loop runs for ``seconds``, and the invitation's opacities."""
    screen = app.root.ids.sm.get_screen("attract")
    seen = set()
    frames, end = app.frames, time.monotonic() + seconds
    while time.monotonic() < end:
        EventLoop.idle()
        seen.add(screen.pulse)
        time.sleep(0.005)
    return app.frames - frames, seen


def test_attract_mode_redraws_only_when_the_invitation_blinks(kiosk: Any) -> None:
    app = kiosk.app
    assert kiosk.driver.screen == "attract"
    seconds = 3.0
    frames, seen = _frames_over(app, seconds)
    blinks = seconds / BLINK_SECONDS
    assert seen == {1.0, PROMPT_DIM}  # it does blink
    assert frames <= blinks + 2, f"{frames} frames in {seconds} s at attract mode"


def test_the_blinking_stops_when_the_player_leaves_attract_mode(kiosk: Any) -> None:
    app = kiosk.app
    kiosk.driver.tap_at(400, 240)
    assert kiosk.driver.screen == "menu"
    frames, seen = _frames_over(app, 2.0)
    assert seen == {1.0}
    assert frames <= 4, f"{frames} frames in 2 s at the still menu"


def test_attract_mode_is_due_from_power_up_until_a_player_touches(kiosk: Any) -> None:
    """No player since power-up: once its lockups clear a new terminal shows attract mode at
    once (it used to stay at the menu for 90 quiet seconds); a touch puts it off."""
    session = kiosk.app.session
    assert session.attract_due()
    kiosk.device("door")
    assert not session.attract_due()  # a lockup keeps the menu under it
    kiosk.device("door")
    assert session.attract_due()
    kiosk.driver.tap_at(400, 240)
    assert not session.attract_due()
