"""The Stadium table: the 3x3 array (position picker, then the packs), the dealer, the spots."""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty

from kiosk.terminal.presentation.spots import SpotView
from kiosk.terminal.presentation.table import TableView
from ui.terminal.actions import TogglePosition
from ui.terminal.families.stadium_felt import StadiumHandFelt, StadiumLinesFelt
from ui.terminal.felt import Felt, Spot
from ui.terminal.screens.table import TableScreen
from ui.terminal.widgets.card import CardView


class StadiumScreen(TableScreen):
    """Stadium Three Card Poker."""

    hand_text = StringProperty("")
    dealer_text = StringProperty("")
    lines_text = StringProperty("")
    lines_tab = BooleanProperty(False)

    def show_cards(self, view: TableView, animate: bool, speed: float) -> None:
        """The array with the chosen positions marked, and the dealer's hand."""
        self.hand_text, self.dealer_text = view.hand_text, view.dealer_text
        self.lines_text = view.lines_text
        cells: list[CardView] = self.ids.array.cards
        for i, cell in enumerate(cells):
            cell.marker = str(i + 1)
            cell.selected = i in view.positions
            cell.disabled = not view.can_bet
        self.fill(cells, view.first, animate, speed)
        dealer: list[CardView] = self.ids.dealer.cards
        for card in dealer:
            card.face_down = view.dealer_face_down
        self.fill(dealer, view.dealer, animate, speed)

    def felts(self) -> list[Felt]:
        """The hand's felt and the rows-and-columns felt (:class:`StadiumHandFelt`,
        :class:`StadiumLinesFelt`)."""
        hand: StadiumHandFelt = self.ids.hand_felt
        lines: StadiumLinesFelt = self.ids.lines_felt
        return [hand, lines]

    def make_spot(self, spot: SpotView) -> Spot:
        """Blind lines on their printed arrays, the hand's wagers on the table."""
        felt: Felt = self.ids.lines_felt if spot.line else self.ids.hand_felt
        return felt.add_spot(spot)

    def touch_position(self, cell: CardView) -> None:
        """A touch on an array position chooses it for the hand (or releases it)."""
        cells: list[CardView] = self.ids.array.cards
        self._app().player(TogglePosition(cells.index(cell)))
