"""Widgets findable by a stable name (tests, screenshots and the screen dump use it)."""

from __future__ import annotations

from collections.abc import Iterator

from kivy.properties import StringProperty
from kivy.uix.widget import Widget


class Named:
    """Mixin: ``tk_name`` names the widget for :func:`find`."""

    tk_name = StringProperty("")


def find_all(root: Widget, name: str) -> Iterator[Widget]:
    """Every widget under ``root`` (included) named ``name``."""
    for widget in root.walk(restrict=True):
        if getattr(widget, "tk_name", None) == name:
            yield widget


def find(root: Widget, name: str) -> Widget:
    """The widget named ``name`` under ``root``; LookupError when there is none."""
    for widget in find_all(root, name):
        return widget
    raise LookupError(f"no widget named {name!r}")
