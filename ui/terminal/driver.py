"""Drive the kiosk in-process, as a player's finger would: for tests, screenshots, benchmarks.

The app runs on the current Kivy window without ``App.run()``; :meth:`Driver.frame` draws one
frame (processing clock, input and animations) and :meth:`Driver.tap` touches a named widget
at its centre through Kivy's own touch dispatch.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kivy.animation import Animation
from kivy.app import App
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from ui.terminal import capture
from ui.terminal.touch import ScriptedTouch
from ui.terminal.widgets.named import find


class DriverError(AssertionError):
    """The app did not get where the driver waited for it to get."""


class AppDriver:
    """One app on the window, run frame by frame: what the kiosk's and the Dealer Terminal's
    drivers share."""

    #: seconds between frames while waiting (0: frame after frame)
    wait_pause = 0.0

    def __init__(self, app: Any, size: tuple[int, int] | None = None) -> None:
        EventLoop.ensure_window()
        if EventLoop.status != "started":
            EventLoop.start()
        if size is not None and tuple(Window.size) != size:
            Window.size = size
        self.app = app
        app._run_prepare()
        self.frames(3)

    def frame(self) -> capture.Frame:
        """Draw one frame and return its pixels."""
        return capture.render()

    def frames(self, n: int) -> None:
        """Run ``n`` frames of the event loop (drawing as the app asks)."""
        for _ in range(n):
            EventLoop.idle()

    def where(self) -> str:
        """Where the app is, for a timed-out wait's message."""
        return ""

    def wait(self, until: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
        """Run frames until ``until()`` holds; DriverError after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while not until():
            if time.monotonic() > end:
                raise DriverError(f"timed out waiting for {what or until} ({self.where()})")
            EventLoop.idle()
            if self.wait_pause:
                time.sleep(self.wait_pause)

    def touch_at(self, x: float, y: float, frames_after: int = 2) -> None:
        """Touch down and up at window point (x, y) through Kivy's own touch dispatch."""
        touch = ScriptedTouch(x, y)
        touch.down()
        self.frames(1)
        touch.up()
        self.frames(frames_after)

    def leave_window(self) -> None:
        """Leave the window empty for the next app."""
        for child in list(Window.children):
            Window.remove_widget(child)
        App._running_app = None
        self.frames(1)


class Driver(AppDriver):
    """The kiosk app on the window."""

    def where(self) -> str:
        s = self.app.session
        return f"screen {self.screen}, phase {s.rt.state.phase.value}, notice {s.notice}"

    def settle(self, timeout: float = 15.0) -> None:
        """Wait until the deal animation, the win presentation and the voucher's slide have
        finished."""
        self.wait(
            lambda: not self.app.dealing and not self.app.presenting and not self._sliding(),
            timeout,
            "the table",
        )
        self.frames(2)

    def _sliding(self) -> bool:
        overlay = self.app.voucher_overlay
        return overlay.parent is not None and overlay.printed and overlay.out < 1.0

    # --- touches ------------------------------------------------------------------------------

    def widget(self, name: str) -> Widget:
        """The visible widget named ``name`` (on the current screen, bars or overlays)."""
        self.ready()
        return find(self.app.root, name)

    def ready(self) -> None:
        """Wait for the screen transition to end and the layout to settle (touches during a
        transition are not delivered)."""
        sm = self.app.root.ids.sm
        self.wait(lambda: not sm.transition.is_active, 5.0, "the screen transition")
        self.frames(2)

    def tap_widget(self, widget: Widget) -> None:
        """Touch down and up at the widget's centre (scrolled into sight first, as a finger
        would scroll to it, when it lies in a scrolling list)."""
        self.ready()
        parent: Any = widget.parent
        while parent is not None and parent is not parent.parent:
            if isinstance(parent, ScrollView):
                parent.scroll_to(widget, padding=4, animate=False)
                self.frames(2)
                break
            parent = parent.parent
        self.touch_at(*widget.to_window(*widget.center))

    def tap(self, name: str) -> None:
        """Touch the widget named ``name``."""
        self.ready()
        self.tap_widget(self.widget(name))

    def tap_at(self, x: float, y: float) -> None:
        """Touch the window at (x, y)."""
        self.ready()
        self.touch_at(x, y)

    @property
    def screen(self) -> str:
        """The current screen's name."""
        name: str = self.app.root.ids.sm.current
        return name

    def close(self) -> None:
        """Stop the app and leave the window empty for the next one."""
        self.app.dispatch("on_stop")
        sm = self.app.root.ids.sm
        sm.transition.stop()  # a screen still arriving is not entered after the app has gone
        for screen in sm.screens:  # and endless animations (attract) stop with the app
            Animation.cancel_all(screen)
        self.leave_window()
