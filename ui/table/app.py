"""The Dealer Terminal app (``turbokiosk dealer --table ADDR``): a Kivy app over one
:class:`~kiosk.table.core.dealer_link.DealerLink`.

Ten times a second it reads the link's latest table view and, when it changed (or a second of a
countdown passed), redraws the page from :func:`kiosk.table.presentation.dealer.dealer_view`.  Every
button calls one of the link's requests and shows the controller's answer; nothing is decided
here that the controller decides (the card check, the PIN, the lock-out, what is legal when).
Laid out for 1280x800 and scaled (``u``) to the window; 1920x1080 is the other size it is made
for.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from kiosk.table.core.dealer_link import Answer, DealerLink, DealerLinkError
from kiosk.table.core.dealer_records import PACK_SIZE, Role, TableSnapshot
from kiosk.table.presentation.dealer import DealerView, dealer_view, recall_views
from kiosk.table.presentation.dealer_entry import PackEntry
from kiosk.table.presentation.dealer_refusals import refusal_words
from kiosk.table.presentation.dealer_words import location_title, pause_reason_words
from kiosk.table.presentation.i18n_dealer import next_language, text
from ui.table.pages import (
    CardsPage,
    PausePage,
    RecallPage,
    RoundPage,
    SignInPage,
    VoidPage,
)
from ui.terminal.theme import BAR
from ui.terminal.widgets.card import CardRow
from ui.terminal.widgets.controls import CasinoButton, CountdownRing

#: the widgets the layouts name (imported so that Kivy's factory knows them)
WIDGETS = (CardRow, CasinoButton, CountdownRing)

KV_FILES = (
    Path(__file__).resolve().parent.parent / "terminal" / "kv" / "controls.kv",
    Path(__file__).resolve().parent / "terminal.kv",
)
#: the size the DT is laid out for; ``u`` scales it to the window
BASE_SIZE = (1280, 800)
#: the sizes it is made for (screenshots, legibility)
SIZES = ((1280, 800), (1920, 1080))
_loaded = False


def load_kv() -> None:
    global _loaded
    if not _loaded:
        for path in KV_FILES:
            if str(path) not in Builder.files:  # the kiosk's app may have loaded controls.kv
                Builder.load_file(str(path))
        _loaded = True


class DealerApp(App):
    """One Dealer Terminal."""

    u = NumericProperty(1.0)
    status = StringProperty("")  # the link's state when it is down
    lang = StringProperty("en")  # the language the screens speak (the language button)

    def __init__(
        self, link: DealerLink, *, clock: Callable[[], float] = time.monotonic, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.title = text(self.lang, "window_title")
        self.link = link
        self.clock = clock
        self.role: Role | None = None
        self.entry: PackEntry | None = None
        self._seen: tuple[int, int] = (-1, -1)
        self._snapshot: TableSnapshot | None = None
        self._received = 0.0
        self._event: Any = None

    # --- building -----------------------------------------------------------------------------

    def load_kv(self, filename: Any = None) -> bool:
        """Not Kivy's default (a ``dealer.kv`` beside the app): the layouts are loaded once
        by :func:`load_kv`."""
        return False

    def build(self) -> ScreenManager:
        load_kv()
        Window.clearcolor = BAR
        self._resize(Window, *Window.size)
        Window.bind(on_resize=self._resize)
        sm = ScreenManager(transition=NoTransition())
        sm.app = self
        for page in (
            SignInPage(name="signin"),
            RoundPage(name="round"),
            CardsPage(name="cards"),
            VoidPage(name="void"),
            PausePage(name="pause"),
            RecallPage(name="recall"),
        ):
            sm.add_widget(page)
        sm.current = "signin"
        return sm

    def on_start(self) -> None:
        self.pages["signin"].start("dealer", self.t("signin_dealer"))
        self._event = Clock.schedule_interval(self._tick, 0.1)

    def on_stop(self) -> None:
        if self._event is not None:
            self._event.cancel()
        Window.unbind(on_resize=self._resize)

    def _resize(self, _window: Any, width: int, height: int) -> None:
        self.u = min(width / BASE_SIZE[0], height / BASE_SIZE[1])

    def t(self, key: str, **fields: object) -> str:
        """``key``'s text in the screens' language."""
        return text(self.lang, key, **fields)

    def switch_language(self) -> None:
        """The language button: the next language; every page is drawn again in it (a line
        already said stays as it was said)."""
        self.lang = next_language(self.lang)
        self.title = self.t("window_title")
        where = self.root.current
        if where == "signin":
            page = self.pages["signin"]
            key = "pin_factory" if page.mode == "new" else f"signin_{page.role}"
            page.message, page.error = self.t(key), False
        elif where == "void":
            self.pages["void"].game_text = self.t("void_game", game=self._game())
        if self.entry is not None:
            self._show_entry()
        if where == "recall":
            self.open_recall()
        self.refresh(force=True)

    @property
    def pages(self) -> Any:
        """The pages by name."""
        sm = self.root
        return {name: sm.get_screen(name) for name in sm.screen_names}

    # --- the table view -----------------------------------------------------------------------

    def snapshot(self) -> TableSnapshot | None:
        """The latest view, its controller time moved on by the time since it came."""
        snap = self.link.snapshot()
        if snap is None:
            return None
        if snap is not self._snapshot and snap != self._snapshot:
            self._snapshot, self._received = snap, self.clock()
        elapsed = max(0, round((self.clock() - self._received) * 1000))
        return replace(snap, now_ms=snap.now_ms + elapsed)

    def view(self) -> DealerView | None:
        snap = self.snapshot()
        if snap is None or self.role is None:
            return None
        return dealer_view(snap, self.role, self.lang)

    def _tick(self, _dt: float) -> None:
        self.refresh()

    def refresh(self, force: bool = False) -> None:
        """Redraw the round page when the view or the countdown's second changed."""
        down = self.link.down if self.lang == "en" or not self.link.down else self.t("link_lost")
        self.status = down
        if down and self.root.current != "signin":
            self._say(self.t("link_down", down=down), error=True)
        view = self.view()
        if view is None:
            return
        key = (self.link.revision, view.seconds_left if view.seconds_left is not None else -1)
        if key == self._seen and not force:
            return
        self._seen = key
        self.pages["round"].show(view, self.lang)

    # --- sign-in --------------------------------------------------------------------------------

    def sign_in(self, role_name: str, pin: str) -> None:
        role = Role(role_name)
        page = self.pages["signin"]
        try:
            answer = self.link.sign_in(role, pin)
        except DealerLinkError as exc:
            page.start(role_name, str(exc), error=True)
            return
        if not answer.accepted:
            said = refusal_words(answer.message, "", self.lang)
            page.start(role_name, said if answer.message else self.t("pin_refused"), error=True)
            return
        self.role = answer.role
        if answer.must_change_pin:
            page.start(role_name, self.t("pin_factory"), mode="new")
            return
        self._to_round(self.t(f"said_signed_in_{answer.role.value}"))

    def change_pin(self, new_pin: str) -> None:
        page = self.pages["signin"]
        answer = self._ask(lambda: self.link.change_pin(new_pin))
        if answer is None or not answer.ok:
            reason = (
                refusal_words(answer.reason, answer.error, self.lang)
                if answer is not None
                else self.t("no_answer")
            )
            page.start(page.role, reason, error=True, mode="new")
            return
        self._to_round(self.t("pin_changed"))

    def sign_out(self) -> None:
        self._ask(self.link.sign_out)
        self.role = None
        self.pages["signin"].start("dealer", self.t("signed_out"))
        self.root.current = "signin"

    def supervisor(self) -> None:
        """The supervisor signs in on this terminal (void, re-read)."""
        self.pages["signin"].start("supervisor", self.t("signin_supervisor"))
        self.root.current = "signin"

    def _to_round(self, message: str) -> None:
        self.link.wait_for(-1 if self.link.snapshot() is None else 0, timeout=2.0)
        self.root.current = "round"
        self._say(message)
        self.refresh(force=True)

    # --- the dealer's buttons -----------------------------------------------------------------

    def _ask(self, request: Callable[[], Answer]) -> Answer | None:
        try:
            return request()
        except DealerLinkError as exc:
            self._say(str(exc), error=True)
            return None

    def _say(self, message: str, error: bool = False) -> None:
        page = self.pages["round"]
        page.message, page.message_error = message, error

    def _do(self, request: Callable[[], Answer], done: str) -> bool:
        before = self.link.revision
        answer = self._ask(request)
        if answer is None:
            return False
        if answer.ok:
            self._say(done)
            self.link.wait_for(before, timeout=2.0)  # the view of the step it made
        else:
            self._say(refusal_words(answer.reason, answer.error, self.lang), error=True)
        self.refresh(force=True)
        return answer.ok

    def _game(self) -> int:
        snap = self.link.snapshot()
        return snap.game_number if snap is not None else 0

    def new_game(self) -> None:
        self._do(self.link.new_game, self.t("said_new_game"))

    def close_bets(self) -> None:
        self._do(lambda: self.link.close_bets(self._game()), self.t("said_bets_closed"))

    def lay_pack(self) -> None:
        snap = self.link.snapshot()
        if snap is None or snap.next_step is None:
            return
        step = snap.next_step
        self._do(
            lambda: self.link.lay_pack(snap.game_number, step.pack),
            self.t(
                "said_pack_laid", pack=step.pack, place=location_title(step.location, self.lang)
            ),
        )

    def confirm(self) -> None:
        self._do(lambda: self.link.confirm(self._game()), self.t("said_confirmed"))

    def open_pause(self) -> None:
        """Pause asks for the reason first (the seats show it; the journal keeps it)."""
        page = self.pages["pause"]
        page.reason, page.message = "", ""
        self.root.current = "pause"

    def pause(self) -> None:
        page = self.pages["pause"]
        if not page.reason:
            page.message = self.t("choose_reason")
            return
        reason = page.reason
        said = self.t("said_paused", reason=pause_reason_words(reason, self.lang))
        if self._do(lambda: self.link.pause(reason), said):
            self.root.current = "round"
        else:
            page.message = self.pages["round"].message

    def resume(self) -> None:
        self._do(self.link.resume, self.t("said_resumed"))

    def reread(self) -> None:
        snap = self.link.snapshot()
        if snap is None or snap.tilt is None:
            return
        pack = snap.tilt.pack
        self._do(lambda: self.link.reread(snap.game_number, pack), self.t("said_reread", pack=pack))

    # --- manual cards ---------------------------------------------------------------------------

    def enter_cards(self) -> None:
        snap = self.link.snapshot()
        if snap is None or snap.next_step is None:
            return
        step = snap.next_step
        self.entry = PackEntry(step.pack, step.location, PACK_SIZE, snap.on_layout())
        self._show_entry()
        self.root.current = "cards"

    def _show_entry(self) -> None:
        entry = self.entry
        if entry is not None:
            place = location_title(entry.location, self.lang)
            title = self.t("cards_title", pack=entry.pack, place=place)
            self.pages["cards"].show(entry, title, self.lang)

    def press_rank(self, rank: int) -> None:
        if self.entry is not None:
            self.entry = self.entry.press_rank(rank)
            self._show_entry()

    def press_suit(self, suit: int) -> None:
        if self.entry is not None:
            self.entry = self.entry.press_suit(suit)
            self._show_entry()

    def undo_card(self) -> None:
        if self.entry is not None:
            self.entry = self.entry.undo()
            self._show_entry()

    def confirm_pack(self) -> None:
        entry = self.entry
        if entry is None or not entry.ready:
            return
        before = self.link.revision
        answer = self._ask(lambda: self.link.lay_pack(self._game(), entry.pack, entry.cards))
        if answer is not None and not answer.ok:
            said = refusal_words(answer.reason, answer.error, self.lang)
            self.entry = replace(entry, message=said, about=None, refused=True)
            self._show_entry()
            return
        self.entry = None
        self.root.current = "round"
        self._say(self.t("said_entered", pack=entry.pack))
        self.link.wait_for(before, timeout=2.0)
        self.refresh(force=True)

    def leave_cards(self) -> None:
        self.entry = None
        self.root.current = "round"

    # --- void and recall ------------------------------------------------------------------------

    def open_void(self) -> None:
        page = self.pages["void"]
        page.reason, page.message = "", ""
        page.game_text = self.t("void_game", game=self._game())
        self.root.current = "void"

    def void(self) -> None:
        page = self.pages["void"]
        if not page.reason:
            page.message = self.t("choose_reason")
            return
        if self._do(lambda: self.link.void(self._game(), page.reason), self.t("said_voided")):
            self.root.current = "round"
        else:
            page.message = self.pages["round"].message

    def open_recall(self) -> None:
        self._ask(self.link.recall)
        snap = self.link.snapshot()
        rounds = recall_views(snap, lang=self.lang) if snap is not None else ()
        self.pages["recall"].show(rounds, self.lang)
        self.root.current = "recall"

    def back_to_round(self) -> None:
        self.root.current = "round"
        self.refresh(force=True)
