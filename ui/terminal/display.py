"""Where the kiosk's window goes, and a clear refusal when it cannot go anywhere.

SDL, asked for no video driver in particular, tries each one and, when none answers (``DISPLAY``
names an X server that is not there), falls back to its ``offscreen`` driver: the kiosk would
run on, taking money, with no window.  So before Kivy is imported :func:`choose_video_driver`
names the drivers the environment points at (X11 for ``DISPLAY``, Wayland for
``WAYLAND_DISPLAY``) and keeps Kivy to its SDL window; :func:`open_window` then opens the window
and turns a failure into :class:`DisplayError` with SDL's reason.  An ``SDL_VIDEODRIVER`` set
by the caller (``kmsdrm`` on the terminal, ``offscreen`` headless) is used as it is.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import MutableMapping


class DisplayError(Exception):
    """No window can be opened: the reason, in one line."""


def choose_video_driver(environ: MutableMapping[str, str] | None = None) -> str:
    """Pin SDL's video driver(s) and Kivy's window provider in ``environ`` (``os.environ``);
    returns where the window goes, in words.  :class:`DisplayError` when nothing names a
    display."""
    env = os.environ if environ is None else environ
    named = env.get("SDL_VIDEODRIVER", "").strip()
    x11, wayland = env.get("DISPLAY", "").strip(), env.get("WAYLAND_DISPLAY", "").strip()
    if not named:
        drivers = ["x11"] * bool(x11) + ["wayland"] * bool(wayland)
        if not drivers:
            raise DisplayError(
                "no display: DISPLAY, WAYLAND_DISPLAY and SDL_VIDEODRIVER are unset "
                "(SDL_VIDEODRIVER=kmsdrm on the terminal's screen, offscreen to run headless)"
            )
        env["SDL_VIDEODRIVER"] = named = ",".join(drivers)
    env.setdefault("KIVY_WINDOW", "sdl2")  # Kivy's own X11 window would exit the process
    return describe(named, x11, wayland)


def describe(drivers: str, x11: str = "", wayland: str = "") -> str:
    """``"x11"`` -> ``"X11 display :0"``; ``"offscreen"`` says that nothing is shown."""
    words = []
    for driver in drivers.split(","):
        if driver == "x11":
            words.append(f"X11 display {x11 or '(unset)'}")
        elif driver == "wayland":
            words.append(f"Wayland display {wayland or '(unset)'}")
        elif driver == "offscreen":
            words.append("offscreen (SDL_VIDEODRIVER=offscreen: no window is shown)")
        else:
            words.append(f"SDL video driver {driver}")
    return " or ".join(words)


class _Reasons(logging.Handler):
    """Kivy logs why its window providers failed ("sdl2 - RuntimeError: ...")."""

    PROVIDER = re.compile(r"^(\w+) - \w+: (?:b['\"])?(.*?)['\"]?$", re.MULTILINE)

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.reasons: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "Unable to find any valuable Window provider" in message:
            self.reasons += [m.group(2) for m in self.PROVIDER.finditer(message)]


def open_window(where: str) -> tuple[int, int]:
    """Open Kivy's window (prepared by :func:`ui.terminal.env.prepare`); its size.
    :class:`DisplayError` naming ``where`` and SDL's reason when it cannot be opened."""
    from kivy.logger import Logger

    reasons = _Reasons()
    Logger.addHandler(reasons)
    try:
        from kivy.core.window import Window
    finally:
        Logger.removeHandler(reasons)
    if Window is None:
        why = "; ".join(reasons.reasons) or "SDL opened no window"
        raise DisplayError(
            f"cannot open a window on {where}: {why} (is the display running and yours? "
            "SDL_VIDEODRIVER=offscreen runs headless)"
        )
    width, height = Window.size
    return int(width), int(height)
