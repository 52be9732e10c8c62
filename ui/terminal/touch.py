"""A scripted finger: one touch delivered through Kivy's own input dispatch.

The screenshot tour, the benchmarks and the tests touch the kiosk with it.  Kivy's test helper
(``kivy.tests.common.UnitTestTouch``) does the same but imports pytest, which an installed
kiosk does not have.
"""

from __future__ import annotations

from typing import Any

from kivy.base import EventLoop
from kivy.input.motionevent import MotionEvent


class ScriptedTouch(MotionEvent):
    """A touch at window pixel (x, y): :meth:`down`, then :meth:`up`."""

    def __init__(self, x: float, y: float) -> None:
        super().__init__("ScriptedTouch", 1, self._relative(x, y), is_touch=True, type_id="touch")
        self.profile = ["pos"]

    @staticmethod
    def _relative(x: float, y: float) -> dict[str, float]:
        window = EventLoop.window
        return {"x": x / (window.width - 1.0), "y": y / (window.height - 1.0)}

    def depack(self, args: Any) -> None:
        self.sx = args["x"]
        self.sy = args["y"]
        super().depack(args)

    def down(self) -> None:
        """The finger touches the glass."""
        EventLoop.post_dispatch_input("begin", self)

    def up(self) -> None:
        """The finger lifts."""
        EventLoop.post_dispatch_input("end", self)
