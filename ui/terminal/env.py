"""Kivy's environment and configuration, set before Kivy is imported.

Kivy reads its environment variables and configuration at import time, so the command that
starts the app calls :func:`prepare` first.  Headless (tests, screenshots, benchmarks) the app
runs on SDL's ``offscreen`` video driver with Mesa's software OpenGL.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ui.terminal import fonts

MIN_SIZE = (640, 400)
#: the largest window (8K UHD): a bigger one is refused rather than allocated
MAX_SIZE = (7680, 4320)
#: the player's screen is laid out for this size and scaled (``app.u``) to the window
BASE_SIZE = (800, 480)
#: width of the SIMULATOR column beside the player's screen, in the same units
SIM_COLUMN = 150


def parse_size(text: str) -> tuple[int, int]:
    """``"800x480"`` -> ``(800, 480)``; ValueError for anything else."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"a size is WIDTHxHEIGHT, e.g. 800x480, not {text!r}")
    width, height = int(parts[0]), int(parts[1])
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        raise ValueError(f"the smallest supported size is {MIN_SIZE[0]}x{MIN_SIZE[1]}")
    if width > MAX_SIZE[0] or height > MAX_SIZE[1]:
        raise ValueError(f"the largest supported size is {MAX_SIZE[0]}x{MAX_SIZE[1]}")
    return width, height


def prepare(
    size: tuple[int, int] = (800, 480),
    *,
    fullscreen: bool = False,
    headless: bool = False,
    maxfps: int = 60,
) -> None:
    """Environment and configuration for a kiosk window of ``size`` pixels.

    Must run before the first ``import kivy``; a second call only changes what Kivy has not
    read yet (the window size can still be changed through :func:`resize` later).
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")  # Kivy must not swallow stderr (tracebacks)
    if "KIVY_HOME" not in os.environ:
        home = Path(tempfile.gettempdir()) / f"turbokiosk-kivy-{os.getuid()}"
        os.environ["KIVY_HOME"] = str(home)
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "offscreen"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "maxfps", str(maxfps))
    Config.set("graphics", "multisamples", "0")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    # the shipped typeface (every glyph the screens use), not Kivy's Roboto: decision 0055
    Config.set("kivy", "default_font", repr(fonts.default_font()))


def headless() -> bool:
    """Whether the window is SDL's offscreen one (tests, screenshots, benchmarks)."""
    return os.environ.get("SDL_VIDEODRIVER") == "offscreen"
