"""The Dealer Terminal in this process on an offscreen 1280x800 window (Kivy reads its settings
when first imported, so the environment is prepared before anything imports it)."""

from __future__ import annotations

from ui.terminal import env

env.prepare((1280, 800), headless=True, maxfps=0)
