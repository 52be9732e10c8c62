"""The Dealer Terminal's pages (layouts in ``dealer.kv``): sign-in, the round, manual cards,
the void's reason, the recall.  Each page only draws what :mod:`kiosk.table.presentation.dealer`
made and hands touches to the app."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from kiosk.table.presentation.dealer import (
    DealerView,
    PlaceView,
    RecallPlace,
    RecallView,
    SeatView,
)
from kiosk.table.presentation.dealer_entry import PackEntry
from kiosk.table.presentation.i18n_dealer import text
from ui.terminal.theme import hex_rgba
from ui.terminal.widgets.named import Named

#: seat state colours (the presentation's colour names), each readable under cream text
SEAT_COLOURS = {
    "green": hex_rgba("#17693a"),
    "gold": hex_rgba("#7a5a10"),
    "grey": hex_rgba("#3c4a44"),
    "red": hex_rgba("#a8262b"),
    "blue": hex_rgba("#23415a"),
}


class SignInPage(Named, Screen):
    """Role and PIN."""

    role = StringProperty("dealer")
    digits = NumericProperty(0)
    message = StringProperty("")
    error = BooleanProperty(False)
    mode = StringProperty("enter")  # "enter" or "new" (a factory PIN changed, typed twice)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pin = ""
        self.first = ""

    def start(self, role: str, message: str = "", error: bool = False, mode: str = "enter") -> None:
        self.role, self.message, self.error, self.mode = role, message, error, mode
        self.pin, self.first, self.digits = "", "", 0

    def key(self, digit: str) -> None:
        if len(self.pin) < 8:
            self.pin += digit
            self.digits = len(self.pin)

    def clear(self) -> None:
        self.pin, self.digits = "", 0

    def ok(self) -> None:
        pin, self.pin, self.digits = self.pin, "", 0
        app: Any = self.manager.app
        if self.mode == "new":
            if not self.first:
                self.first = pin
                self.message, self.error = text(app.lang, "pin_again"), False
                return
            first, self.first = self.first, ""
            if first != pin:
                self.message, self.error = text(app.lang, "pin_differ"), True
                return
            app.change_pin(pin)
            return
        app.sign_in(self.role, pin)


class SeatRow(BoxLayout):
    """One seat's line."""

    label = StringProperty("")
    state_text = StringProperty("")
    stake_text = StringProperty("")
    body = ListProperty([0, 0, 0, 1])


class PlaceBox(BoxLayout):
    """A place on the layout with its cards."""

    title = StringProperty("")
    waiting = BooleanProperty(False)


class RoundPage(Named, Screen):
    """The round: phase, countdown, seats, the layout's cards, the dealer's buttons."""

    heading = StringProperty("")
    game_text = StringProperty("")
    role_text = StringProperty("")
    source_text = StringProperty("")
    phase_title = StringProperty("")
    instruction = StringProperty("")
    seconds_text = StringProperty("")
    seconds = NumericProperty(0)
    total = NumericProperty(1)
    bets_text = StringProperty("")
    step_text = StringProperty("")
    deck_text = StringProperty("")
    progressive_text = StringProperty("")
    message = StringProperty("")
    message_error = BooleanProperty(False)
    tilt_title = StringProperty("")
    tilt_text = StringProperty("")
    paused = BooleanProperty(False)
    supervisor = BooleanProperty(False)
    can_new_game = BooleanProperty(False)
    can_close_bets = BooleanProperty(False)
    can_confirm = BooleanProperty(False)
    can_pause = BooleanProperty(False)
    can_resume = BooleanProperty(False)
    can_void = BooleanProperty(False)
    can_lay = BooleanProperty(False)
    can_enter = BooleanProperty(False)
    can_reread = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._seats: tuple[SeatView, ...] = ()
        self._places: tuple[PlaceView, ...] = ()

    def show(self, view: DealerView, lang: str = "en") -> None:
        """Draw ``view`` (its words in ``lang``)."""
        for name in (
            "heading",
            "game_text",
            "role_text",
            "source_text",
            "phase_title",
            "instruction",
            "bets_text",
            "step_text",
            "tilt_title",
            "tilt_text",
            "paused",
            "progressive_text",
        ):
            setattr(self, name, getattr(view, name))
        self.deck_text = text(lang, "deck_check", check=view.deck_text) if view.deck_text else ""
        self.seconds_text = str(view.seconds_left) if view.seconds_left is not None else ""
        self.seconds = view.seconds_left or 0
        self.total = view.total_seconds
        b = view.buttons
        self.can_new_game, self.can_close_bets, self.can_confirm = (
            b.new_game,
            b.close_bets,
            b.confirm,
        )
        self.can_pause, self.can_resume, self.can_void = b.pause, b.resume, b.void
        self.can_lay, self.can_enter, self.can_reread = b.lay_pack, b.enter_cards, b.reread
        self.supervisor = view.supervisor
        if view.seats != self._seats:
            self._seats = view.seats
            self._fill_seats(view.seats)
        if view.places != self._places:
            self._places = view.places
            self._fill_places(view.places)

    def _fill_seats(self, seats: tuple[SeatView, ...]) -> None:
        box = self.ids.seats
        box.clear_widgets()
        for s in seats:
            box.add_widget(
                SeatRow(
                    label=s.label,
                    state_text=s.state_text,
                    stake_text=s.stake_text,
                    body=list(SEAT_COLOURS[s.colour]),
                )
            )

    def _fill_places(self, places: tuple[PlaceView, ...]) -> None:
        box = self.ids.places
        box.clear_widgets()
        for n, place in enumerate(places):
            widget = PlaceBox(title=place.title, waiting=place.waiting)
            row = widget.ids.row
            row.name_prefix = f"place{n}"
            row.count = len(place.cards)
            for card, face in zip(row.cards, place.cards, strict=True):
                card.deal = False
                card.face = face
            box.add_widget(widget)


class CardsPage(Named, Screen):
    """Manual cards: rank and suit buttons, the pack's slots, Confirm pack."""

    title = StringProperty("")
    prompt = StringProperty("")
    refused = BooleanProperty(False)
    ready = BooleanProperty(False)

    def show(self, entry: PackEntry, title: str, lang: str = "en") -> None:
        self.title = title
        self.prompt = entry.prompt(lang)
        self.refused = entry.refused
        self.ready = entry.ready
        row = self.ids.pack
        if row.count != entry.size:
            row.count = entry.size
        for card, face in zip(row.cards, entry.faces(), strict=True):
            card.deal = False
            card.face = face


class VoidPage(Named, Screen):
    """The supervisor's void: a reason, then Void round."""

    reason = StringProperty("")
    game_text = StringProperty("")
    message = StringProperty("")


class PausePage(Named, Screen):
    """The dealer's pause: a reason (shown on the seats and journaled), then Pause table."""

    reason = StringProperty("")
    message = StringProperty("")


class RecallPlaceBox(BoxLayout):
    """A recalled round's place (the array, the dealer's hand) and its cards."""

    title = StringProperty("")


class RecallRow(BoxLayout):
    """One recalled round: the layout as it lay, each seat's wagers and results."""

    title = StringProperty("")
    summary = StringProperty("")
    voided = BooleanProperty(False)


class RecallSeatLabel(Label):
    """One seat's line of a recalled round (look in ``terminal.kv``)."""


class RecallPage(Named, Screen):
    """The last rounds."""

    empty = BooleanProperty(True)

    def show(self, rounds: tuple[RecallView, ...], lang: str = "en") -> None:
        box = self.ids.rounds
        box.clear_widgets()
        self.empty = not rounds
        for n, r in enumerate(rounds):
            row = RecallRow(title=r.title, summary=r.summary, voided=r.voided)
            places = r.places or (
                (RecallPlace(text(lang, "recall_cards"), r.cards),) if r.cards else ()
            )
            for m, place in enumerate(places):
                widget = RecallPlaceBox(title=place.title)
                # the array in rows of three, as it lies; a hand in one row
                widget.size_hint_x = max(3, min(9, len(place.cards))) if place.cards else 3
                cards = widget.ids.cards
                cards.name_prefix = f"recall{n}:{m}"
                cards.fit = max(3, len(place.cards))
                cards.count = len(place.cards)
                for card, face in zip(cards.cards, place.cards, strict=True):
                    card.deal = False
                    card.face = face
                row.ids.places.add_widget(widget)
            for line in r.seat_lines:
                row.ids.seats.add_widget(RecallSeatLabel(text=line))
            box.add_widget(row)
