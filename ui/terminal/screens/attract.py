"""Attract mode: the kiosk waiting for a player (a touch or a bill brings the game menu).

The screen is drawn through the cached player's screen
(:class:`ui.terminal.widgets.layers.CachedLayer`): every change re-renders all of it, about 16 ms of
CPU at 800x480 in software OpenGL.  So nothing here moves continuously: the invitation blinks, one
redraw every
:data:`BLINK_SECONDS`, and the screen is otherwise still (docs/performance.md: attract mode's
CPU against an idle Kivy window).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import Screen

from kiosk.terminal.presentation.faces import face
from ui.terminal.widgets.card import CardView

#: the fan of cards on show: a suit-S card with icons, court cards, an ace
FAN = (48, 45, 46, 40, 51)
#: how long the invitation stays bright, then dim (two redraws in a blink)
BLINK_SECONDS = 0.6
#: the invitation's opacity while dim (bright is 1)
PROMPT_DIM = 0.6


class AttractScreen(Screen):
    """Title, a fan of cards and a blinking invitation."""

    pulse = NumericProperty(1.0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._blink_event: Any = None
        #: screenshots hold the invitation bright (a fixed animation phase)
        self.frozen = False

    def on_kv_post(self, _base: object) -> None:
        fan: list[CardView] = self.ids.fan.cards
        for card, code in zip(fan, FAN, strict=False):
            card.deal = False
            card.icon = "football"
            card.face = face(code, 0)

    def on_enter(self, *_: object) -> None:
        self.pulse = 1.0
        if self._blink_event is None and not self.frozen:
            self._blink_event = Clock.schedule_interval(self._blink, BLINK_SECONDS)

    def on_leave(self, *_: object) -> None:
        self._stop()

    def _blink(self, _dt: float) -> bool:
        if self.parent is None:  # not on screen (a screen change does not always say so)
            self._stop()
            return False
        self.pulse = PROMPT_DIM if self.pulse == 1.0 else 1.0
        return True

    def _stop(self) -> None:
        if self._blink_event is not None:
            self._blink_event.cancel()
            self._blink_event = None
        self.pulse = 1.0

    def freeze(self) -> None:
        """Stop blinking, the invitation bright (for screenshots: the same image every time)."""
        self.frozen = True
        self._stop()

    def on_touch_down(self, touch: object) -> bool:
        App.get_running_app().leave_attract()
        return True
