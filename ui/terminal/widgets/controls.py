"""Buttons and meters: the touchable parts of every screen (look in ``kv/controls.kv``; the
bet spots are printed on the felt, :mod:`ui.terminal.felt`)."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui.terminal.draw import chipface, paint
from ui.terminal.theme import BUTTON_BODY
from ui.terminal.widgets.named import Named


class CasinoButton(Named, ButtonBehavior, Label):
    """A large rounded button; ``style`` is "gold", "felt", "green", "red" or "dark"."""

    style = StringProperty("felt")
    wrap = BooleanProperty(True)  # False: one line, the button sized to it (see controls.kv)
    pressed_look = BooleanProperty(False)
    body = ListProperty(list(BUTTON_BODY["felt"]))

    def on_style(self, _w: object, value: str) -> None:
        self.body = list(BUTTON_BODY.get(value, BUTTON_BODY["felt"]))

    def on_state(self, _w: object, value: str) -> None:
        self.pressed_look = value == "down"


class HeaderLabel(Named, Label):
    """A small gold caption (grid headers, section titles)."""


class Meter(BoxLayout):
    """A caption over a value (credit, bet, win)."""

    caption = StringProperty("")
    value = StringProperty("")
    highlight = BooleanProperty(False)


class IconBadge(Widget):
    """The game's icon, drawn (``icon`` "" draws nothing; a family may add its own drawing to
    :data:`ui.terminal.draw.paint.ICONS`, Stadium its 3x3 array)."""

    icon = StringProperty("")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._redraw_soon = Clock.create_trigger(self._redraw, -1)
        self.bind(pos=self._redraw_soon, size=self._redraw_soon, icon=self._redraw_soon)

    def _redraw(self, *_: object) -> None:
        self.canvas.clear()
        s = min(self.width, self.height)
        x, y = self.center_x - s / 2, self.center_y - s / 2
        with self.canvas:
            if self.icon:
                paint.icon(self.icon, x, y, s)


class CountdownRing(Widget):
    """Seconds left on a decision, as a shrinking ring round the number."""

    seconds = NumericProperty(0)
    total = NumericProperty(1)
    colour = ListProperty([1, 1, 1, 1])

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._redraw_soon = Clock.create_trigger(self._redraw, -1)
        self.bind(
            pos=self._redraw_soon,
            size=self._redraw_soon,
            seconds=self._redraw_soon,
            total=self._redraw_soon,
        )

    def _redraw(self, *_: object) -> None:
        self.canvas.clear()
        r = min(self.width, self.height) / 2 * 0.86
        with self.canvas:
            chipface.ring(
                self.center_x,
                self.center_y,
                r,
                (self.colour[0], self.colour[1], self.colour[2], self.colour[3]),
                self.seconds / max(1, self.total),
                max(2.0, r * 0.12),
            )
