"""The kiosk app: screens over a :class:`PlayerSession`, redrawn whenever the terminal moves.

Every frame the app runs the terminal's duties (device reports, decision timers, RNG cycling)
and, when the session changed, rebuilds the screen from a fresh view.  Player touches go
through :meth:`KioskApp.player`, which calls the session (the terminal's commands) and nothing
else.  The deal animation is the app's only timing of its own: it decides how many of the
round's cards are on show, and the view hides the rest — with the result and the win.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFinish
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.screenmanager import NoTransition, Screen

from kiosk.terminal.core.state import Phase
from kiosk.terminal.presentation.help_pictures import help_pictures
from kiosk.terminal.presentation.i18n import LANGUAGE_NAMES, catalogue, other_language
from kiosk.terminal.presentation.session import REMINDER_CHOICES, PlayerSession
from kiosk.terminal.presentation.table import TableView
from kiosk.terminal.presentation.table_bar import (
    CountdownWindow,
    LinkWatch,
    TableBarView,
    at_table,
    table_bar,
)
from kiosk.terminal.presentation.table_status import TableStatus
from ui.terminal import memory
from ui.terminal.actions import (
    ChooseEdition,
    PlaceChip,
    PlayerAction,
    SelectChip,
    SetReminder,
    TogglePosition,
    Touch,
)
from ui.terminal.env import BASE_SIZE, SIM_COLUMN
from ui.terminal.families import screen_families, screen_family
from ui.terminal.screens.attract import AttractScreen
from ui.terminal.screens.help import HelpScreen
from ui.terminal.screens.history import HistoryScreen
from ui.terminal.screens.menu import MenuScreen
from ui.terminal.screens.table import TableScreen
from ui.terminal.theme import FELT
from ui.terminal.widgets.layers import CachedLayer, FlyLayer
from ui.terminal.widgets.overlays import (
    LockupOverlay,
    ReminderDialog,
    ReminderPicker,
    VoucherOverlay,
)
from ui.terminal.widgets.simulator import SimulatorPanel
from ui.terminal.widgets.table_bar import TableBar
from ui.terminal.widgets.win import WinLayer

__all__ = [
    "CachedLayer",
    "FlyLayer",
    "KioskApp",
    "SimulatorPanel",
    "TableBar",
    "WinLayer",
    "load_kv",
]

KV_DIR = Path(__file__).resolve().parent / "kv"
KV_FILES = (
    "controls.kv",
    "felt.kv",
    "root.kv",
    "screens.kv",
    "tables.kv",
    "table_bar.kv",
    "overlays.kv",
    "win.kv",
)
VOUCHER_SHOWN_SECONDS = 10.0
IN_ROUND = frozenset({Phase.DEALING, Phase.DECISION, Phase.SETTLING})

_loaded = False
_OFFSCREEN = os.environ.get("SDL_VIDEODRIVER") == "offscreen"


def load_kv() -> None:
    """Load the layouts once per process."""
    global _loaded
    if not _loaded:
        for name in KV_FILES:
            if str(KV_DIR / name) not in Builder.files:  # the Dealer Terminal shares controls.kv
                Builder.load_file(str(KV_DIR / name))
        _loaded = True


class KioskApp(App):
    """The touchscreen app of one terminal."""

    u = NumericProperty(1.0)  # layout scale: 1 at 800x480
    t = DictProperty({})  # the player's language catalogue
    lang = StringProperty("en")
    other_lang_name = StringProperty("")
    credit_text = StringProperty("$0.00")
    wager_text = StringProperty("$0.00")
    win_text = StringProperty("$0.00")
    won = BooleanProperty(False)
    title_text = StringProperty("")
    edition_icon = StringProperty("")
    session_text = StringProperty("")
    responsible_text = StringProperty("")  # attract mode's responsible-gaming line
    can_cash_out = BooleanProperty(False)
    cash_out_text = StringProperty("")
    covered = BooleanProperty(False)  # a lockup, the voucher or a dialog covers the table
    can_change_game = BooleanProperty(False)
    simulator_visible = BooleanProperty(False)
    has_simulator = BooleanProperty(False)
    notice_text = StringProperty("")
    notice_kind = StringProperty("info")
    sim_width = NumericProperty(0)  # the SIMULATOR column beside the player's screen
    at_table = BooleanProperty(False)  # a seat at a table: the table bar is shown

    def __init__(
        self,
        session: PlayerSession,
        duties: Callable[[], None],
        *,
        simulator: Any = None,
        show_simulator: bool = False,
        speed: float = 1.0,
        on_ready: Callable[[KioskApp], None] | None = None,
        extensions: Sequence[Callable[[KioskApp], None]] = (),
        table_status: Callable[[], TableStatus | None] | None = None,
    ) -> None:
        super().__init__()
        self.title = "TurboKiosk"
        self.session = session
        self.duties = duties
        self.simulator = simulator
        self.has_simulator = simulator is not None
        self.simulator_visible = show_simulator and simulator is not None
        self.speed = speed
        self.on_ready = on_ready
        self.extensions = list(extensions)  # called once the app is built (the service menu)
        self.service_layer: Any = None
        self.revealed: int | None = None  # None: show every card (start-up, recovery)
        self._max_game = session.rt.state.game_number
        self._more_to_deal = False
        self._step_event: Any = None
        self._animate = False
        self._seen_revision = -1
        self._history_index = 0
        self._last_second = -1
        self._voucher_event: Any = None
        self.frames = 0
        self._frame_event: Any = None
        self.first_frame_at: float | None = None
        # a seat at a table: the seat runtime's status, read every frame (None: not at one)
        self.table_status = table_status
        self._table_seen: TableStatus | None = None
        self._table_window = CountdownWindow()
        self._table_link = LinkWatch()
        self.table_view: TableBarView | None = None
        self.register_event_type("on_service_key")

    # --- building ---------------------------------------------------------------------------

    def build(self) -> Any:
        memory.release_text_surfaces()  # labels keep only their textures
        load_kv()
        from kivy.factory import Factory

        self.t = dict(catalogue(self.session.language))
        self.lang = self.session.language
        self.other_lang_name = LANGUAGE_NAMES[other_language(self.lang)]
        self._resize(Window, *Window.size)
        Window.clearcolor = FELT  # the felt: the window's clear colour costs no drawing
        root = Factory.KioskRoot()
        sm = root.ids.sm
        # instant changes: a transition renders both screens into new framebuffers, every
        # time, which software GL pays for in time and (fragmented) memory
        sm.transition = NoTransition()
        for screen in (
            AttractScreen(name="attract"),
            MenuScreen(name="menu"),
            *(family.screen(name=family.id) for family in screen_families()),
            HelpScreen(name="help"),
            HistoryScreen(name="history"),
        ):
            sm.add_widget(screen)
        self.lockup_overlay = LockupOverlay()
        self.voucher_overlay = VoucherOverlay(speed=self.speed)
        self.reminder_dialog = ReminderDialog()
        self.reminder_picker = ReminderPicker()
        root.ids.sim.simulator = self.simulator
        root.ids.fly.on_landed = self._card_landed
        self.win_layer = root.ids.win
        self.win_layer.on_meters = self._win_meters
        Window.bind(on_resize=self._resize, on_key_down=self._key, on_flip=self._flipped)
        return root

    def on_stop(self) -> None:
        """Stop the frame loop and let go of the window (another app may use it next)."""
        if self._frame_event is not None:
            self._frame_event.cancel()
        for event in (self._step_event, self._voucher_event):
            if event is not None:
                event.cancel()
        self.win_layer.stop()
        Window.unbind(on_resize=self._resize, on_key_down=self._key, on_flip=self._flipped)

    def on_start(self) -> None:
        for extend in self.extensions:
            extend(self)
        s = self.session
        state = s.rt.state
        sm = self.root.ids.sm
        self._table_moved()
        if state.phase in IN_ROUND or (state.round is not None and state.credits[0] > 0):
            sm.current = self._table_name()
        elif state.credits[0] > 0 or state.lockups():
            sm.current = "menu"
        else:
            sm.current = "attract"
        self.refresh()
        self._frame_event = Clock.schedule_interval(self._frame, 0)
        ready = self.on_ready
        if ready is not None:
            Clock.schedule_once(lambda _dt: ready(self), 0.3)

    def _flipped(self, *_: object) -> None:
        if _OFFSCREEN:
            glFinish()  # software GL offscreen: without it memory grows frame by frame
        self.frames += 1
        if self.first_frame_at is None:
            self.first_frame_at = time.time()

    def _resize(self, _window: object, width: int, height: int) -> None:
        """The player's screen keeps its layout at any size; the SIMULATOR column, when shown,
        sits beside it."""
        column = SIM_COLUMN / (BASE_SIZE[0] + SIM_COLUMN) * width if self.simulator_visible else 0
        self.sim_width = column
        self.u = min((width - column) / BASE_SIZE[0], height / BASE_SIZE[1])

    def on_simulator_visible(self, *_: object) -> None:
        self._resize(Window, *Window.size)

    def add_screen(self, screen: Screen) -> None:
        """Add a screen (e.g. the service menu, named "service") to the screen manager."""
        self.root.ids.sm.add_widget(screen)

    def on_service_key(self) -> None:
        """The attendant's key switch: the service menu, when one is installed."""
        sm = self.root.ids.sm
        if "service" in sm.screen_names:
            sm.current = "service"

    def _key(self, _window: object, key: int, _scancode: int, _text: str, _mods: list[str]) -> bool:
        if key == 283 and self.has_simulator:  # F2
            self.simulator_visible = not self.simulator_visible
            return True
        if key == 284:  # F3: the key switch
            self.dispatch("on_service_key")
            return True
        return False

    # --- the frame --------------------------------------------------------------------------

    def _frame(self, _dt: float) -> None:
        self.duties()
        self.session.tick()
        second = self.session.clock() // 1000
        if self._table_moved() or self.session.revision != self._seen_revision:
            self.refresh()
        elif second != self._last_second:
            self.refresh()  # countdown and session clock
        self._last_second = second
        if self.simulator_visible:
            self.root.ids.sim.sync()

    def _table_moved(self) -> bool:
        """Whether the table's status changed (a step, a second of the countdown, the link)
        since it was last shown."""
        if self.table_status is None:
            return False
        status = self.table_status()
        if status is not None:
            status = self._table_link.seen(status)
            # the countdown's milliseconds move every frame: it redraws when its second does
            status = replace(status, remaining_ms=-(-status.remaining_ms // 1000) * 1000)
        if status == self._table_seen:
            return False
        self._table_seen = status
        return True

    def _show_table(self, view: TableView) -> TableView:
        """The table bar from the last status read, and ``view`` as a seat shows it."""
        status = self._table_seen
        self.at_table = status is not None
        if status is None:
            self.table_view = None
            return view
        bar = table_bar(
            status,
            self.lang,
            dealer_hand=bool(view.dealer),
            window_ms=self._table_window.length_ms(status),
        )
        self.table_view = bar
        self.root.ids.topbar.ids.tablebar.show(bar)
        rnd = self.session.rt.state.round
        past = rnd is not None and 0 < rnd.table_game < status.game_number
        finished = rnd is not None and bool(rnd.settled_at or rnd.voided)
        return at_table(view, bar, self.lang, past_round=past and finished)

    def _table_name(self) -> str:
        """The table screen of the selected game's family (each is named after its family)."""
        return screen_family(self.session.rt.core.game().family).id

    def view(self) -> TableView:
        """The table as shown now (cards the deal animation has not reached are hidden)."""
        return self.session.view(self.revealed, in_flight=bool(self.root.ids.fly.children))

    def refresh(self, *_: object) -> None:
        """Rebuild what is on screen from the terminal's state."""
        s = self.session
        self._seen_revision = s.revision
        if s.rt.state.game_number > self._max_game:  # a new round: deal it card by card
            self._max_game = s.rt.state.game_number
            self.revealed = 0
        view = self._show_table(self.view())
        self._follow(view)
        self._navigate(view)
        on_table = isinstance(self.root.ids.sm.current_screen, TableScreen)
        covered = s.lockup() is not None or not on_table
        self.win_layer.follow(view, self.revealed is not None, covered, self.speed)
        self.wager_text = view.wager_text
        self._win_meters(*self.win_layer.meters(view.credit_text, view.win_text))
        self.won = view.won
        self.title_text = view.title
        self.edition_icon = view.tile_icon
        self.session_text = s.session_text()
        self.responsible_text = s.responsible_gaming_text()
        self.can_cash_out = view.can_cash_out
        by_hand = view.can_cash_out and s.cash_out_by_hand()
        self.cash_out_text = self.t["cash_out_handpay" if by_hand else "cash_out"]
        self.can_change_game = view.can_change_game
        screen = self.root.ids.sm.current_screen
        if isinstance(screen, TableScreen):
            screen.show(view, self._animate, s.chip_value(), self.speed)
        elif isinstance(screen, MenuScreen):
            screen.show(s.editions(), view.can_change_game)
        self._overlays()

    def _win_meters(self, credit_text: str, win_text: str) -> None:
        """The credit and win meters as the win presentation shows them."""
        self.credit_text, self.win_text = credit_text, win_text

    @property
    def presenting(self) -> bool:
        """Whether a win is being presented (its banner up, its meters rolling)."""
        return bool(self.win_layer.active)

    def _card_landed(self) -> None:
        """A dealt card is in place: when the deal pauses or ends, the cards join the table
        and what follows from them (a decision, the result) is shown."""
        fly = self.root.ids.fly
        paused = self._step_event is None and not self._more_to_deal
        if paused and fly.parked and not fly.in_flight:
            fly.settle()
            self.refresh()
            # the deal paused (a decision) or ended: hand the freed drawing buffers back (a
            # few milliseconds, while nothing moves); once a game let the peak climb ~10 MB
            memory.trim()

    def _follow(self, view: TableView) -> None:
        """Schedule the next step of the deal animation, if cards wait to be shown."""
        self._more_to_deal = view.revealed < view.cards_total
        if not self._more_to_deal:
            self._card_landed()
        if self.revealed is None or self._step_event is not None:
            return
        if view.revealed < view.cards_total:
            step = screen_family(view.family).step_seconds  # between cards or packs
            delay = step * self.speed * (0.5 if view.revealed == 0 else 1)
            self._step_event = Clock.schedule_once(lambda _dt: self._step(view), delay)

    def _step(self, view: TableView) -> None:
        self._step_event = None
        assert self.revealed is not None
        target = next((n for n in view.deal_steps if n > self.revealed), view.cards_total)
        self.revealed = min(target, view.cards_total)
        self._animate = True
        try:
            self.refresh()
        finally:
            self._animate = False

    def _release(self, _dt: float) -> None:
        self.refresh()

    @property
    def dealing(self) -> bool:
        """Whether the deal animation is still running."""
        view = self.view()
        flying = bool(self.root.ids.fly.children)
        return self._step_event is not None or flying or view.revealed < view.cards_total

    def _navigate(self, view: TableView) -> None:
        s = self.session
        sm = self.root.ids.sm
        state = s.rt.state
        current = sm.current
        in_round = state.phase in IN_ROUND or view.revealed < view.cards_total
        seated = self.at_table  # a seat stays at its table: no attract mode, no game menu
        if (in_round or seated) and current in ("attract", "menu"):
            sm.current = view.family
        elif current == "attract" and (state.credits[0] > 0 or state.phase is Phase.WAGERING):
            sm.current = "menu"
        elif current in _table_names() and current != view.family:
            sm.current = view.family
        elif (
            current != "attract"
            and not seated
            and s.attract_due()
            and not self.root.ids.overlays.children
        ):
            sm.current = "attract"

    def _overlays(self) -> None:
        s = self.session
        layer = self.root.ids.overlays
        lockup = s.lockup()
        if lockup is None and self.table_view is not None:
            lockup = self.table_view.lost_panel  # a seat without its table: why bets are off
        self._toggle(layer, self.lockup_overlay, lockup is not None)
        if lockup is not None:
            self.lockup_overlay.show(lockup)
        voucher = s.voucher()
        self._toggle(layer, self.voucher_overlay, voucher is not None)
        if voucher is not None:
            self.voucher_overlay.show(voucher, self.t["voucher_title"])
            if not voucher.printing and self._voucher_event is None:
                self._voucher_event = Clock.schedule_once(
                    lambda _dt: self.player(Touch.VOUCHER_OK), VOUCHER_SHOWN_SECONDS * self.speed
                )
        else:
            self.voucher_overlay.printed = False
            self.voucher_overlay.out = 0.0
        self._toggle(layer, self.reminder_dialog, s.reminder_due and lockup is None)
        if s.reminder_due:
            self.reminder_dialog.message = s.reminder_text()
        self.covered = bool(layer.children)
        notice = s.notice
        self.notice_text = notice.text if notice is not None else ""
        self.notice_kind = notice.kind if notice is not None else "info"

    @staticmethod
    def _toggle(layer: Any, widget: Any, shown: bool) -> None:
        if shown and widget.parent is None:
            layer.add_widget(widget)
        elif not shown and widget.parent is not None:
            layer.remove_widget(widget)

    # --- the player's touches ---------------------------------------------------------------

    def player(self, action: PlayerAction) -> None:
        """One touch of the player, handled by its entry in :data:`_TOUCHES` or :data:`_RECORDS`."""
        self.session.touched()
        if isinstance(action, Touch):
            _TOUCHES[action](self)
        else:
            _RECORDS[type(action)](self, action)
        self.refresh()

    def _choose_edition(self, action: ChooseEdition) -> None:
        if self.session.select_edition(action.edition):
            self.root.ids.sm.current = self._table_name()

    def _go(self, screen: str) -> None:
        self.root.ids.sm.current = screen

    def _help(self) -> None:
        self._show_help()
        self.root.ids.sm.current = "help"

    def _history(self) -> None:
        self._history_index = 0
        self._show_history()
        self.root.ids.sm.current = "history"

    def _page(self, step: int) -> None:
        self._history_index += step
        self._show_history()

    def _back(self) -> None:
        state = self.session.rt.state
        playing = state.round is not None or state.phase is Phase.WAGERING
        self.root.ids.sm.current = self._table_name() if playing else "menu"

    def _reminder(self) -> None:
        self.reminder_picker.chosen = self.session.reminder_minutes
        self._toggle(self.root.ids.overlays, self.reminder_picker, True)

    def _set_reminder(self, action: SetReminder) -> None:
        self.session.set_reminder(action.minutes)
        self._toggle(self.root.ids.overlays, self.reminder_picker, False)

    def _reminder_cash_out(self) -> None:
        self.session.dismiss_reminder()
        self.session.cash_out()

    def _voucher_ok(self) -> None:
        if self._voucher_event is not None:
            self._voucher_event.cancel()
            self._voucher_event = None
        self.session.dismiss_voucher()

    def _show_help(self) -> None:
        s = self.session
        pictures = help_pictures(s.rt.core.game(), s.language)
        self.root.ids.sm.get_screen("help").show(s.help(), pictures)

    def _show_history(self) -> None:
        s = self.session
        games = s.history(10)
        self._history_index = max(0, min(self._history_index, len(games) - 1))
        page = self.t["history_page"].format(page=self._history_index + 1, pages=max(1, len(games)))
        self.root.ids.sm.get_screen("history").show(
            games, self._history_index, page, self.t["history_none"]
        )

    def set_language(self, language: str) -> None:
        """Every text in ``language``."""
        self.session.set_language(language)
        self.lang = language
        self.t = dict(catalogue(language))
        self.other_lang_name = LANGUAGE_NAMES[other_language(language)]
        sm = self.root.ids.sm
        for name in _table_names():
            sm.get_screen(name).language_changed()
        if sm.current == "help":
            self._show_help()
        elif sm.current == "history":
            self._show_history()

    def leave_attract(self) -> None:
        """A touch in attract mode: the game menu."""
        self.session.touched()
        self.root.ids.sm.current = "menu"
        self.refresh()

    reminder_choices = REMINDER_CHOICES


#: what each plain touch does (every :class:`Touch` has its entry)
_TOUCHES: dict[Touch, Callable[[KioskApp], object]] = {
    Touch.CLEAR: lambda app: app.session.clear(),
    Touch.REPEAT: lambda app: app.session.repeat(),
    Touch.DEAL: lambda app: app.session.deal(),
    Touch.TAKE: lambda app: app.session.decide(True),
    Touch.DECLINE: lambda app: app.session.decide(False),
    Touch.CASH_OUT: lambda app: app.session.cash_out(),
    Touch.GAMES: lambda app: app._go("menu"),
    Touch.TABLE: lambda app: app._go(app._table_name()),
    Touch.HELP: KioskApp._help,
    Touch.HISTORY: KioskApp._history,
    Touch.OLDER: lambda app: app._page(1),
    Touch.NEWER: lambda app: app._page(-1),
    Touch.BACK: KioskApp._back,
    Touch.LANGUAGE: lambda app: app.set_language(other_language(app.session.language)),
    Touch.REMINDER: KioskApp._reminder,
    Touch.REMINDER_OK: lambda app: app.session.dismiss_reminder(),
    Touch.REMINDER_CASH_OUT: KioskApp._reminder_cash_out,
    Touch.VOUCHER_OK: KioskApp._voucher_ok,
}
if set(_TOUCHES) != set(Touch):  # pragma: no cover - a new Touch without its handler
    raise TypeError(f"touches without a handler: {set(Touch) - set(_TOUCHES)}")

#: what each touch carrying an argument does
_RECORDS: dict[type[PlayerAction], Callable[[KioskApp, Any], object]] = {
    SelectChip: lambda app, a: app.session.select_chip(a.cents),
    PlaceChip: lambda app, a: app.session.place_chip(a.spot),
    TogglePosition: lambda app, a: app.session.toggle_position(a.index),
    ChooseEdition: KioskApp._choose_edition,
    SetReminder: KioskApp._set_reminder,
}


def _table_names() -> tuple[str, ...]:
    """The table screens' names: one per game family."""
    return tuple(family.id for family in screen_families())
