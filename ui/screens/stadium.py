"""The Stadium table: the 3x3 array (position picker, then the packs), the dealer, the spots."""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.widget import Widget

from kiosk.presentation.spots import SpotView
from kiosk.presentation.table import TableView
from ui.screens.table import TableScreen
from ui.widgets.card import CardView
from ui.widgets.controls import HeaderLabel, LineSpotButton, SpotBase, SpotButton


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

    def spot_containers(self) -> list[Widget]:
        """The own-hand column and the rows-and-columns grid."""
        return [self.ids.hand_spots, self.ids.line_spots]

    def _build_spots(self, spots: object) -> None:
        super()._build_spots(spots)  # type: ignore[arg-type]
        grid = self.ids.line_spots
        grid.clear_widgets()
        buttons = {b.spot.id: b for b in self._spots.values() if b.spot is not None and b.spot.line}
        columns = [(w, kind) for kind in ("row", "col") for w in ("pairs_plus", "six_card_bonus")]
        for wager, kind in columns:
            sample = next((b.spot for b in buttons.values() if b.spot.id.startswith(wager)), None)
            header = HeaderLabel(text="")
            header.tk_header = (sample.kind_label if sample else wager, kind)
            grid.add_widget(header)
        for number in (1, 2, 3):
            for wager, kind in columns:
                grid.add_widget(buttons[f"{wager}_{kind}_{number}"])
        self.update_line_captions()

    def language_changed(self) -> None:
        """The grid's captions now, the spots at the next show."""
        self.update_line_captions()
        super().language_changed()

    def update_line_captions(self) -> None:
        """Header cells of the grid ("Pairs Plus / rows") in the player's language."""
        t = self._app().t
        for child in self.ids.line_spots.children:
            header = getattr(child, "tk_header", None)
            if header is not None:
                child.text = f"{header[0]}\n{t['rows' if header[1] == 'row' else 'columns']}"

    def make_spot(self, spot: SpotView) -> SpotBase:
        """Hand spots in their column; blind line spots wait for the grid."""
        if spot.line:
            button: SpotBase = LineSpotButton()
            # the grid is filled in line order by _build_spots
            button.spot = spot
            return button
        button = SpotButton()
        self.ids.hand_spots.add_widget(button)
        return button

    def touch_position(self, cell: CardView) -> None:
        """A touch on an array position chooses it for the hand (or releases it)."""
        cells: list[CardView] = self.ids.array.cards
        self._app().player("position", cells.index(cell))
