"""The touchscreen when the terminal's store cannot be used: the lockup, and nothing else.

When power-up cannot open or read the store (a corrupt or truncated file, a data directory
that is a file or read-only, a full disk), the kiosk does not crash into a restart loop: it
comes up with this app, which draws the critical memory (or storage-full) lockup from its
reason alone.  It reads no store, takes no touch and runs until the window closes (the
service's stop); the technician reads the reason on the screen or with ``turbokiosk audit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import NumericProperty
from kivy.uix.floatlayout import FloatLayout

from kiosk.terminal.presentation.overlays import LockupView
from ui.terminal.app import load_kv
from ui.terminal.env import BASE_SIZE
from ui.terminal.theme import FELT
from ui.terminal.widgets.overlays import LockupOverlay


class StoreLockupApp(App):
    """An app that shows one lockup over the felt."""

    u = NumericProperty(1.0)  # layout scale: 1 at 800x480 (the overlays' rules use it)

    def __init__(
        self, view: LockupView, on_ready: Callable[[StoreLockupApp], None] | None = None
    ) -> None:
        super().__init__()
        self.title = "TurboKiosk"
        self.lockup = view
        self.on_ready = on_ready
        self.overlay: LockupOverlay | None = None

    def build(self) -> Any:
        load_kv()
        Window.clearcolor = FELT
        self._resize(Window, *Window.size)
        Window.bind(on_resize=self._resize)
        root = FloatLayout()
        self.overlay = LockupOverlay()
        self.overlay.show(self.lockup)
        root.add_widget(self.overlay)
        return root

    def on_start(self) -> None:
        ready = self.on_ready
        if ready is not None:
            Clock.schedule_once(lambda _dt: ready(self), 0.3)

    def on_stop(self) -> None:
        Window.unbind(on_resize=self._resize)

    def _resize(self, _window: object, width: int, height: int) -> None:
        self.u = min(width / BASE_SIZE[0], height / BASE_SIZE[1])

    def dump(self) -> dict[str, Any]:
        """What the screen shows, as data (the kiosk's ``--dump-screen``)."""
        return {
            "screen": "store_lockup",
            "lockup": self.lockup.title,
            "lockup_kind": self.lockup.kind,
            "reason": self.lockup.detail or self.lockup.reason,
            "shown_reason": self.lockup.reason,
            "advice": self.lockup.advice,
            "size": list(Window.size),
        }
