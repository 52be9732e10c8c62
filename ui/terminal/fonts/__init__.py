"""The typeface every screen uses, shipped with the code: TurboKiosk Sans, Roboto (as Kivy ships
it) with the symbols it lacks (arrows, suits, bullets, check and cross marks) taken from DejaVu
Sans; built by :mod:`kiosk.tools.fonts`, licences in ``LICENSE`` (decision 0055).  Kivy's own
Roboto drew those symbols as empty boxes."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
#: the name labels use: Kivy's default font once :func:`default_font` is in Kivy's config
NAME = "TurboKioskSans"
REGULAR = HERE / "TurboKioskSans-Regular.ttf"
BOLD = HERE / "TurboKioskSans-Bold.ttf"


def default_font() -> list[str]:
    """Kivy's ``default_font`` setting: the name, then regular, italic, bold, bold italic
    (no text is italic: the upright faces stand in)."""
    return [NAME, str(REGULAR), str(REGULAR), str(BOLD), str(BOLD)]
