"""What covers the table: lockups, the voucher being printed, notices, the time reminder."""

from __future__ import annotations

from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.terminal.presentation.overlays import LockupView, VoucherView
from ui.terminal.theme import INK_BLACK, NOTICE, SEVERITY


class Cover(FloatLayout):
    """A layer over the table that takes every touch on it (nothing under it can be touched);
    the bars around it stay live."""

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        super().on_touch_down(touch)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        super().on_touch_up(touch)
        return True


class LockupOverlay(Cover):
    """A lockup or tilt: its title, reason and what to do."""

    title = StringProperty("")
    reason = StringProperty("")
    advice = StringProperty("")
    detail = StringProperty("")  # the terminal's own words, labelled for the attendant
    panel_colour = ListProperty(list(SEVERITY["wait"]))

    def show(self, view: LockupView) -> None:
        """Take the lockup's display values."""
        self.title, self.reason, self.advice = view.title, view.reason, view.advice
        self.detail = view.detail_text
        self.panel_colour = list(SEVERITY.get(view.severity, SEVERITY["wait"]))


class Barcode(Widget):
    """Bars of an Interleaved 2 of 5 barcode (module widths, bar first)."""

    modules = ListProperty([])

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._redraw_soon = Clock.create_trigger(self._redraw, -1)
        self.bind(pos=self._redraw_soon, size=self._redraw_soon, modules=self._redraw_soon)

    def _redraw(self, *_: object) -> None:
        self.canvas.clear()
        total = sum(self.modules)
        if not total:
            return
        unit = self.width / total
        x = self.x
        with self.canvas:
            Color(*INK_BLACK)
            for i, width in enumerate(self.modules):
                if i % 2 == 0:
                    Rectangle(pos=(x, self.y), size=(width * unit, self.height))
                x += width * unit


class VoucherOverlay(Cover):
    """The cash-out voucher sliding out of the printer; touch to take it."""

    amount_text = StringProperty("")
    validation_text = StringProperty("")
    barcode = ListProperty([])
    terminal_text = StringProperty("")
    venue = StringProperty("")
    issued_text = StringProperty("")
    expires_text = StringProperty("")
    status_text = StringProperty("")
    title = StringProperty("")
    out = NumericProperty(0.0)  # 0: inside the printer, 1: fully out
    printed = BooleanProperty(False)
    speed = NumericProperty(1.0)

    def show(self, view: VoucherView, title: str) -> None:
        """Take the voucher's display values; the ticket slides out once printed."""
        self.title = title
        self.amount_text = view.amount_text
        self.validation_text = view.validation_text
        self.barcode = list(view.barcode)
        self.terminal_text = view.terminal_text
        self.venue = view.venue
        self.issued_text = view.issued_text
        self.expires_text = view.expires_text
        self.status_text = view.status_text
        if not view.printing and not self.printed:
            self.printed = True
            Animation(out=1.0, d=1.6 * self.speed, t="out_quad").start(self)

    @property
    def settled(self) -> bool:
        """Whether the ticket is all the way out."""
        return float(self.out) >= 1.0


class NoticeToast(Label):
    """A short message in a coloured pill."""

    kind = StringProperty("info")
    fill = ListProperty(list(NOTICE["info"]))

    def on_kind(self, _w: object, value: str) -> None:
        self.fill = list(NOTICE.get(value, NOTICE["info"]))


class ReminderDialog(Cover):
    """The session-time reminder: keep playing or cash out."""

    message = StringProperty("")


class ReminderPicker(Cover):
    """The reminder setting: off or every 15, 30 or 60 minutes."""

    chosen = NumericProperty(0)
