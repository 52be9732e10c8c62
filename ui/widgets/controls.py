"""Buttons, meters and spots: the touchable parts of every screen (look in ``kv/controls.kv``)."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.presentation.spots import SpotView
from ui.draw import chipface, paint
from ui.theme import BUTTON_BODY
from ui.widgets.named import Named


class CasinoButton(Named, ButtonBehavior, Label):
    """A large rounded button; ``style`` is "gold", "felt", "green", "red" or "dark"."""

    style = StringProperty("felt")
    pressed_look = BooleanProperty(False)
    body = ListProperty(list(BUTTON_BODY["felt"]))

    def on_style(self, _w: object, value: str) -> None:
        self.body = list(BUTTON_BODY.get(value, BUTTON_BODY["felt"]))

    def on_state(self, _w: object, value: str) -> None:
        self.pressed_look = value == "down"


class HeaderLabel(Label):
    """A small gold caption (grid headers, section titles)."""


class Meter(BoxLayout):
    """A caption over a value (credit, bet, win)."""

    caption = StringProperty("")
    value = StringProperty("")
    highlight = BooleanProperty(False)


class IconBadge(Widget):
    """The game's icon, drawn (``icon`` "" draws nothing; a family may add its own drawing to
    :data:`ui.draw.paint.ICONS`, Stadium its 3x3 array)."""

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


class SpotBase(Named, ButtonBehavior, FloatLayout):
    """A wager spot: touch it to put the chosen chip on it."""

    spot = ObjectProperty(None, allownone=True)
    label = StringProperty("")
    amount_text = StringProperty("")
    extra_text = StringProperty("")
    pays_text = StringProperty("")
    result_text = StringProperty("")
    highlight = StringProperty("")
    chip_colour = StringProperty("")
    mandatory = BooleanProperty(False)

    def show(self, spot: SpotView, enabled: bool) -> None:
        """Take the spot's display values."""
        self.spot = spot
        self.tk_name = f"spot:{spot.id}"
        self.label = self.label_of(spot)
        self.amount_text = spot.amount_text
        self.extra_text = spot.extra_text
        self.pays_text = spot.pays_text
        self.result_text = "   ".join(
            r.text if r.label == spot.label else f"{r.label}: {r.text}" for r in spot.results
        )
        self.highlight = spot.highlight
        self.chip_colour = spot.chip_colour
        self.mandatory = spot.mandatory
        self.disabled = not enabled

    def label_of(self, spot: SpotView) -> str:
        """The spot's name as this kind of button shows it."""
        return spot.label


class SpotButton(SpotBase):
    """A full-width spot: name, short pays or result, chips and amount."""


class LineSpotButton(SpotBase):
    """A small spot of the Stadium rows-and-columns grid (the line is its grid's header)."""

    def label_of(self, spot: SpotView) -> str:
        """ "Row 1" or "Column 1": the grid's header names the wager."""
        return spot.line_label or spot.label
