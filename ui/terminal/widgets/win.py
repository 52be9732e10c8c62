"""The win presentation on the touchscreen: a banner sized to the win, the meters rolling up,
skipped by a touch (look in ``kv/win.kv``; the win as data: :mod:`kiosk.terminal.presentation.win`).

The layer sits above the cached player's screen, so the banner costs no redraw of the table.
The meters it rolls are display values only: the terminal settled the credits before the first
card was dealt on screen, and the roll-up always ends on (or jumps to) the settled amounts.
A touch anywhere on the player's screen ends the presentation at once and, unless it fell on
the banner itself, goes on to whatever it touched (REPEAT, a chip, a spot): a player who touches
plays the next round as soon as without a presentation.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout

from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.table import TableView
from kiosk.terminal.presentation.win import WinView
from ui.terminal.widgets.named import Named

#: meter updates a second during the roll-up (each one redraws the cached screen once)
ROLL_RATE = 20.0

Meters = Callable[[str, str], None]


class WinBanner(Named, FloatLayout):
    """The centred banner: the tier's title and the amount rolling up."""

    title = StringProperty("")
    amount_text = StringProperty("")
    tier = StringProperty("win")
    scale = NumericProperty(1.0)
    shown = BooleanProperty(False)  # off the screen while hidden: nothing drawn, nothing freed


class WinLayer(FloatLayout):
    """Presents each round's win once; takes a touch only to end the presentation."""

    active = BooleanProperty(False)
    hold_banner = BooleanProperty(False)  # keep the banner up after the roll-up (screenshots)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.banner = WinBanner()  # always a child: moved on screen while presenting
        self.banner.tk_name = "win_banner"
        self.add_widget(self.banner)
        self.on_meters: Meters = lambda _credit, _win: None
        self.clock: Callable[[], float] = time.monotonic
        self.win: WinView | None = None
        self.presented = -1  # the game number last presented
        self.started_at = 0.0
        self.speed = 1.0
        self.rolled_up = False
        self._event: Any = None

    # --- following the table ----------------------------------------------------------------

    def follow(self, view: TableView, dealt_here: bool, locked: bool, speed: float) -> None:
        """Start presenting ``view``'s win when it is new and this app dealt it; end the
        presentation when the table is ``locked`` (a lockup, or another screen over it), or the
        win is no longer on the table."""
        win = view.win
        if locked or (self.active and (win is None or win.game_number != self.presented)):
            self.finish()
        if locked or win is None or not dealt_here or win.game_number == self.presented:
            return
        self.start(win, speed)

    def start(self, win: WinView, speed: float) -> None:
        """Roll the meters up from nothing and show the banner."""
        self.finish()
        self.win, self.presented, self.speed = win, win.game_number, speed
        self.started_at = self.clock()
        self.rolled_up = False
        banner = self.banner
        banner.title, banner.tier, banner.scale = win.title, win.tier.name, win.tier.scale
        banner.amount_text = dollars(0)
        banner.shown = True
        self.active = True
        self._event = Clock.schedule_interval(self._tick, 1 / ROLL_RATE)
        self._tick(0)

    def meters(self, credit_text: str, win_text: str) -> tuple[str, str]:
        """The credit and win meters as shown now: rolling while presenting, else the view's."""
        if not self.active or self.win is None:
            return credit_text, win_text
        credit, won = self.win.meters_at(self._fraction())
        return dollars(credit), dollars(won)

    def _fraction(self) -> float:
        if self.rolled_up or self.win is None:
            return 1.0
        length = self.win.roll_seconds * self.speed
        return 1.0 if length <= 0 else (self.clock() - self.started_at) / length

    def _tick(self, _dt: float) -> None:
        win = self.win
        if win is None:
            return
        fraction = self._fraction()
        credit, won = win.meters_at(fraction)
        self.banner.amount_text = dollars(won)
        self.on_meters(dollars(credit), dollars(won))
        if fraction >= 1:
            self.rolled_up = True
            end = self.started_at + (win.roll_seconds + win.tier.hold_seconds) * self.speed
            if self.clock() >= end and not self.hold_banner:
                self.finish()

    def stop(self) -> None:
        """The app stops: no more roll-up ticks (nothing else changes on a closing screen)."""
        if self._event is not None:
            self._event.cancel()
            self._event = None

    def finish(self) -> None:
        """The final amounts at once; the banner goes (the winning spots stay lit)."""
        self.stop()
        self.banner.shown = False
        if self.active and self.win is not None:
            self.active = False
            self.rolled_up = True
            credit, won = self.win.meters_at(1.0)
            self.on_meters(dollars(credit), dollars(won))
        self.active = False

    # --- touches ----------------------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        """A touch on the player's screen ends the presentation; one on the banner stops there,
        any other goes on to what it touched."""
        if not self.active or not self.collide_point(*touch.pos):
            return False
        on_banner = bool(self.banner.collide_point(*touch.pos))
        self.finish()
        return on_banner

    def on_touch_move(self, touch: Any) -> bool:
        return False

    def on_touch_up(self, touch: Any) -> bool:
        return False
