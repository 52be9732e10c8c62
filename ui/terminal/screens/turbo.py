"""The Turbo table: community and own cards with their icons, the icon count, the spots."""

from __future__ import annotations

from kivy.properties import StringProperty

from kiosk.terminal.presentation.spots import SpotView
from kiosk.terminal.presentation.table import TableView
from ui.terminal.families.turbo_felt import TurboFelt
from ui.terminal.felt import Felt, Spot
from ui.terminal.screens.table import TableScreen
from ui.terminal.widgets.card import CardView


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

    def felts(self) -> list[Felt]:
        """The Turbo felt (:class:`TurboFelt`, laid out by this screen's rule in tables.kv)."""
        felt: TurboFelt = self.ids.felt
        return [felt]

    def make_spot(self, spot: SpotView) -> Spot:
        """The spot printed on the felt."""
        felt: Felt = self.ids.felt
        return felt.add_spot(spot)
