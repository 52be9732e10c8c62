"""What both table screens share: the chip rack, the buttons, the decision prompt, the spots
(printed on each family's felt: :mod:`ui.terminal.felt`)."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from kiosk.terminal.presentation.chips import Chip
from kiosk.terminal.presentation.faces import CardFace
from kiosk.terminal.presentation.spots import SpotView
from kiosk.terminal.presentation.table import TableView
from ui.terminal.actions import PlaceChip, SelectChip
from ui.terminal.felt import Felt, Spot
from ui.terminal.widgets.card import CardView
from ui.terminal.widgets.chip import ChipButton
from ui.terminal.widgets.named import Named


class ReasonLine(Named, ButtonBehavior, Label):
    """The line under the table giving a result's reasons, one at a time: a touch shows the
    next."""


class TableFooter(BoxLayout):
    """The guide line, then the chip rack and buttons — or the decision prompt."""

    screen = ObjectProperty(None, rebind=True)


class TableScreen(Screen):
    """A game table; :meth:`show` takes a :class:`TableView`."""

    guide = StringProperty("")
    #: the guide line as shown: the guide, or after a round its summary and reasons, a page at
    #: a time ("(2/3) ›")
    why = StringProperty("")
    reason_page = NumericProperty(0)  # 0: the guide (the round's summary); 1..: a reason
    deciding = BooleanProperty(False)
    prompt = StringProperty("")
    take_label = StringProperty("")
    decline_label = StringProperty("")
    default_text = StringProperty("")
    seconds = NumericProperty(0)
    total_seconds = NumericProperty(1)
    timed = BooleanProperty(False)  # the operator set a decision timer: its countdown shows
    won = BooleanProperty(False)
    can_bet = BooleanProperty(False)
    can_deal = BooleanProperty(False)
    deal_button = BooleanProperty(True)  # none at a table's seat (decision 0054)
    can_clear = BooleanProperty(False)
    can_repeat = BooleanProperty(False)
    can_take = BooleanProperty(True)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._rack: tuple[Chip, ...] = ()
        self._spots: dict[str, Spot] = {}
        self._spot_edition = ""
        self._reasons: tuple[str, ...] = ()
        self._reason = 0

    # --- filling in -------------------------------------------------------------------------

    def show(self, view: TableView, animate: bool, chip: int, speed: float) -> None:
        """Display ``view``; new cards are dealt with the animation when ``animate``."""
        self.guide = view.guide_text
        pages = (view.guide_text, *view.reasons) if view.reasons else (view.guide_text,)
        if pages != self._reasons:
            # a win is plain from its banner, meter and lit spots: open on why it paid
            first = 1 if view.won and view.reasons else 0
            self._reasons, self._reason = pages, first
        self._show_reason()
        self.won = view.won
        self.can_bet, self.can_deal = view.can_bet, view.can_deal
        self.deal_button = view.deal_button
        self.can_clear, self.can_repeat = view.can_clear, view.can_repeat
        offer = view.offer
        self.deciding = offer is not None
        if offer is not None:
            self.prompt = offer.prompt
            self.take_label, self.decline_label = offer.take_label, offer.decline_label
            self.default_text = offer.default_text
            self.can_take = offer.can_take
            self.seconds, self.total_seconds = offer.seconds_left, max(1, offer.total_seconds)
            self.timed = offer.total_seconds > 0
        self._show_rack(view.chips, chip, view.can_bet)
        if self._spot_edition != view.edition:
            self._build_spots(view.spots)
            self._spot_edition = view.edition
        for spot in view.spots:
            self._spots[spot.id].show(spot, view.can_bet, view.chips)
        for felt in self.felts():
            felt.show_decision(view.spots, view.chips)
        self.show_cards(view, animate, speed)

    def next_reason(self) -> None:
        """A touch on the guide line after a round turns to its next page (the summary, then
        each reason)."""
        if len(self._reasons) > 1:
            self._reason = (self._reason + 1) % len(self._reasons)
            self._show_reason()

    def _show_reason(self) -> None:
        pages = self._reasons
        self.reason_page = self._reason
        if len(pages) <= 1:
            self.why = pages[0] if pages else ""
        else:
            self.why = f"{pages[self._reason]}  ({self._reason + 1}/{len(pages)}) ›"

    def show_cards(self, view: TableView, animate: bool, speed: float) -> None:
        """The game's cards (each table lays them out its own way)."""
        raise NotImplementedError

    def language_changed(self) -> None:
        """The player chose another language: the spots are rebuilt at the next show."""
        self._spot_edition = ""

    @staticmethod
    def fill(
        slots: Sequence[CardView],
        faces: Sequence[CardFace | None],
        animate: bool,
        speed: float,
        icon: str = "",
    ) -> None:
        """Put faces into card slots (a face arriving in an empty slot is dealt)."""
        for slot, face in zip(slots, faces, strict=True):
            slot.icon = icon
            slot.speed = speed
            slot.deal = animate
            slot.face = face

    def _show_rack(self, rack: tuple[Chip, ...], chip: int, enabled: bool) -> None:
        box = self.ids.footer.ids.rack
        if rack != self._rack:
            box.clear_widgets()
            for c in rack:
                button = ChipButton(value=c.value, label=c.text, colour=c.colour)
                button.tk_name = f"chip:{c.value}"
                button.bind(on_release=self._chip_touched)
                box.add_widget(button)
            self._rack = rack
        for button in box.children:
            button.chosen = button.value == chip
            button.disabled = not enabled

    def _build_spots(self, spots: Sequence[SpotView]) -> None:
        self._spots.clear()
        for felt in self.felts():
            felt.clear()
        for spot in spots:
            button = self.make_spot(spot)
            button.bind(on_release=self._spot_touched)
            self._spots[spot.id] = button

    def felts(self) -> list[Felt]:
        """The felts the spots are printed on."""
        raise NotImplementedError

    def make_spot(self, spot: SpotView) -> Spot:
        """The printed spot of ``spot``, on its felt."""
        raise NotImplementedError

    def spot_button(self, spot_id: str) -> Spot:
        """The button of a spot (tests touch it)."""
        return self._spots[spot_id]

    # --- touches ----------------------------------------------------------------------------

    @staticmethod
    def _app() -> App:
        return App.get_running_app()

    def _chip_touched(self, button: ChipButton) -> None:
        self._app().player(SelectChip(int(button.value)))

    def _spot_touched(self, button: Spot) -> None:
        if button.spot is not None:
            self._app().player(PlaceChip(button.spot.id))
