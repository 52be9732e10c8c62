"""The Turbo family on the touchscreen: :class:`~ui.screens.turbo.TurboScreen`, card by card."""

from __future__ import annotations

from kiosk.games.turbo import FAMILY_ID
from ui.families import ScreenFamily, register
from ui.screens.turbo import TurboScreen

register(ScreenFamily(FAMILY_ID, TurboScreen, step_seconds=0.32))
