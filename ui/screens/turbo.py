"""The Turbo table: community and own cards with their icons, the icon count, the spots."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.widget import Widget

from kiosk.presentation.spots import SpotView
from kiosk.presentation.table import TableView
from ui.screens.table import TableScreen
from ui.widgets.card import CardView
from ui.widgets.controls import SpotBase, SpotButton


class TurboScreen(TableScreen):
    """Turbo Football, Version 2 and their themes."""

    icon = StringProperty("")
    icon_count_text = StringProperty("")

    def show_cards(self, view: TableView, animate: bool, speed: float) -> None:
        """Community row, own row and the running icon count."""
        self.icon = view.icon
        self.icon_count_text = view.icon_count_text
        community: list[CardView] = self.ids.community.cards
        own: list[CardView] = self.ids.own.cards
        self.fill(community, view.first, animate, speed, view.icon)
        self.fill(own, view.own, animate, speed, view.icon)

    def spot_containers(self) -> list[Widget]:
        """One column of spots."""
        return [self.ids.spots]

    def make_spot(self, spot: SpotView) -> SpotBase:
        """A full-width spot in the column."""
        button = SpotButton()
        self.ids.spots.add_widget(button)
        return button
