"""Drive the Dealer Terminal in-process by touches (tests, screenshots), as
:class:`ui.driver.Driver` drives the kiosk."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.uix.widget import Widget

from ui import capture
from ui.driver import DriverError
from ui.touch import ScriptedTouch
from ui.widgets.named import find


class DealerDriver:
    """One Dealer Terminal app on the window."""

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
        return capture.render()

    def frames(self, n: int) -> None:
        for _ in range(n):
            EventLoop.idle()

    def wait(self, until: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
        """Run frames until ``until()`` holds; DriverError after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while not until():
            if time.monotonic() > end:
                raise DriverError(f"timed out waiting for {what or until} (page {self.page})")
            EventLoop.idle()
            time.sleep(0.005)

    @property
    def page(self) -> str:
        name: str = self.app.root.current
        return name

    def widget(self, name: str) -> Widget:
        """The widget named ``name`` on the current page (after a frame: the layout is up to
        date)."""
        self.frames(1)
        return find(self.app.root.current_screen, name)

    def text(self, name: str) -> str:
        return str(self.widget(name).text)

    def tap(self, name: str) -> None:
        """Touch the widget named ``name`` (refused when it is disabled: a finger would do
        nothing there, and a test that taps it has gone wrong)."""
        widget = self.widget(name)
        if widget.disabled:
            raise DriverError(f"{name} is disabled on page {self.page}")
        x, y = widget.to_window(*widget.center)
        touch = ScriptedTouch(x, y)
        touch.down()
        self.frames(1)
        touch.up()
        self.frames(1)

    def pin(self, role: str, pin: str) -> None:
        """Choose the role and type the PIN, then OK."""
        self.tap(f"role:{role}")
        for digit in pin:
            self.tap(f"pin:{digit}")
        self.tap("pin:ok")

    def close(self) -> None:
        self.app.dispatch("on_stop")
        for child in list(Window.children):
            Window.remove_widget(child)
        App._running_app = None
        self.frames(1)
