"""The Turbo family on the touchscreen: :class:`~ui.terminal.screens.turbo.TurboScreen`, card by
card."""

from __future__ import annotations

from kiosk.kernel.games.turbo import FAMILY_ID
from ui.terminal.families import ScreenFamily, register
from ui.terminal.screens.turbo import TurboScreen

register(ScreenFamily(FAMILY_ID, TurboScreen, step_seconds=0.32))
