"""Chips: a rack chip the player picks (the chips on a spot are
:class:`ui.terminal.felt.ChipPile`)."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from ui.terminal.draw import chipface
from ui.terminal.theme import SELECT
from ui.terminal.widgets.named import Named


class ChipButton(Named, ButtonBehavior, Widget):
    """One chip of the rack; the chosen one is lifted and ringed."""

    value = NumericProperty(0)
    label = StringProperty("")
    colour = StringProperty("white")
    chosen = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._redraw_soon = Clock.create_trigger(self._redraw, -1)
        self.bind(pos=self._redraw_soon, size=self._redraw_soon, label=self._redraw_soon)
        self.bind(colour=self._redraw_soon, chosen=self._redraw_soon, disabled=self._redraw_soon)

    def _redraw(self, *_: object) -> None:
        self.canvas.clear()
        r = min(self.width, self.height) / 2 * 0.86
        cx, cy = self.center_x, self.center_y + (r * 0.1 if self.chosen else 0)
        with self.canvas:
            if self.chosen:
                Color(*SELECT)
                glow = r * 1.14
                Ellipse(pos=(cx - glow, cy - glow), size=(2 * glow, 2 * glow), segments=32)
            chipface.chip(cx, cy, r, self.colour, self.label, lifted=self.chosen)
            if self.disabled:
                Color(0, 0, 0, 0.45)
                Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r), segments=chipface.SEGMENTS)
