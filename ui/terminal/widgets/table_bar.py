"""The table bar: a seat's table in the top bar (look in ``kv/table_bar.kv``; the words come
from :func:`kiosk.terminal.presentation.table_bar.table_bar`)."""

from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.terminal.presentation.table_bar import TableBarView


class TableBar(BoxLayout):
    """The countdown ring, the dealer's step over the table, game and seats in; red when the
    link to the table is lost.  :meth:`show` takes a :class:`TableBarView`."""

    step = StringProperty("")
    headline = StringProperty("")
    detail = StringProperty("")
    timed = BooleanProperty(False)
    seconds = NumericProperty(0)
    total_seconds = NumericProperty(1)
    lost = BooleanProperty(False)

    def show(self, view: TableBarView) -> None:
        """Display ``view``."""
        self.step = view.step.value
        self.headline = view.headline
        self.detail = view.detail
        self.timed = view.seconds is not None
        self.seconds = view.seconds if view.seconds is not None else 0
        self.total_seconds = view.total_seconds
        self.lost = view.lost
