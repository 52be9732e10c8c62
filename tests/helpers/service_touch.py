"""The service menu driven by touches, for the UI tests: a role's PIN, the factory PIN's change,
and the labels a page shows on the window."""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.uix.label import Label


def pin(k: Any, role: str, digits: str) -> None:
    """Choose ``role`` and type ``digits`` on the PIN pad, then OK."""
    k.tap(f"role:{role}")
    for digit in digits:
        k.tap(f"pin:{digit}")
    k.tap("pin:ok")


def enter(k: Any, role: str, factory: str, new: str) -> None:
    """Enter ``role`` with its factory PIN and change it to ``new`` (typed twice)."""
    pin(k, role, factory)
    for _ in range(2):
        for digit in new:
            k.tap(f"pin:{digit}")
        k.tap("pin:ok")


def page_labels(layer: Any) -> list[Label]:
    """The service page's labels on the window (a scrolled-away line is skipped)."""
    found = []
    for w in layer.walk(restrict=True):
        if not isinstance(w, Label) or not w.text.strip() or w.opacity == 0 or w.width < 1:
            continue
        x, y = w.to_window(w.x, w.y)
        if x >= -1 and x + w.width <= Window.width + 1 and 0 <= y < Window.height:
            found.append(w)
    return found
