"""Drive the Dealer Terminal in-process by touches (tests, screenshots), as
:class:`ui.terminal.driver.Driver` drives the kiosk."""

from __future__ import annotations

from kivy.uix.widget import Widget

from ui.terminal.driver import AppDriver, DriverError
from ui.terminal.widgets.named import find


class DealerDriver(AppDriver):
    """One Dealer Terminal app on the window."""

    wait_pause = 0.005  # the link's answers come from another thread

    def where(self) -> str:
        return f"page {self.page}"

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
        self.touch_at(x, y, frames_after=1)

    def pin(self, role: str, pin: str) -> None:
        """Choose the role and type the PIN, then OK."""
        self.tap(f"role:{role}")
        for digit in pin:
            self.tap(f"pin:{digit}")
        self.tap("pin:ok")

    def close(self) -> None:
        self.app.dispatch("on_stop")
        self.leave_window()
