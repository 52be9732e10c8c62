"""Attract mode: the kiosk waiting for a player (a touch or a bill brings the game menu)."""

from __future__ import annotations

from kivy.animation import Animation
from kivy.app import App
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import Screen

from kiosk.presentation.faces import face
from ui.widgets.card import CardView

#: the fan of cards on show: a suit-S card with icons, court cards, an ace
FAN = (48, 45, 46, 40, 51)


class AttractScreen(Screen):
    """Title, a fan of cards and a pulsing invitation."""

    pulse = NumericProperty(1.0)
    sway = NumericProperty(0.0)

    def on_kv_post(self, _base: object) -> None:
        fan: list[CardView] = self.ids.fan.cards
        for card, code in zip(fan, FAN, strict=False):
            card.deal = False
            card.icon = "football"
            card.face = face(code, 0)

    def on_enter(self, *_: object) -> None:
        pulse = Animation(pulse=0.35, d=0.9, t="in_out_sine") + Animation(pulse=1.0, d=0.9)
        pulse.repeat = True
        pulse.start(self)
        sway = Animation(sway=1.0, d=2.4, t="in_out_sine")
        sway += Animation(sway=0.0, d=2.4, t="in_out_sine")
        sway.repeat = True
        sway.start(self)

    def on_leave(self, *_: object) -> None:
        Animation.cancel_all(self)

    def on_touch_down(self, touch: object) -> bool:
        App.get_running_app().leave_attract()
        return True
