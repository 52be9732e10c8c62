"""Fixtures: the kiosk app in this process on an offscreen 800x480 window, driven by touches.

Kivy reads its settings when first imported, so this module prepares the environment before
anything imports Kivy.  The deck is scripted (:mod:`kiosk.tools.tour`) so a test names its cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ui.terminal import env

env.prepare((800, 480), headless=True, maxfps=0)

from kiosk.terminal.app.kiosk import build_app  # noqa: E402
from kiosk.terminal.core.config import TerminalConfig  # noqa: E402
from kiosk.tools.tour import TOUR_CONFIG, TourTerminal, tour_terminal  # noqa: E402
from tests.helpers.ui_kiosk import SPEED  # noqa: E402
from ui.terminal import capture  # noqa: E402
from ui.terminal.driver import Driver  # noqa: E402


class Kiosk:
    """An app on a terminal with a scripted deck, and its driver."""

    def __init__(self, data_dir: Path, config: TerminalConfig) -> None:
        self.tour: TourTerminal = tour_terminal(data_dir, config)
        self.terminal = self.tour.terminal
        self.runtime = self.terminal.runtime
        self.app: Any = build_app(self.terminal, show_simulator=False, speed=SPEED)
        self.driver = Driver(self.app, (800, 480))

    def device(self, action: str, value: int = 0) -> None:
        """A SIMULATOR panel action (a note, the door, the paper, the host, the key): devices,
        not the player's touches, so they go through the panel's own handler."""
        self.app.root.ids.sim.act(action, value)
        self.driver.frames(3)
        self.driver.ready()

    def deal_next(self, cards: str) -> None:
        """The next round deals these cards (by name) first."""
        self.tour.script = cards

    def tap(self, *names: str) -> None:
        """Touch named widgets, in order."""
        for name in names:
            self.driver.tap(name)

    def region(self, name: str) -> tuple[float, float, float]:
        """Mean colour of a named widget's area in a freshly rendered frame."""
        widget = self.driver.widget(name)
        x, y = widget.to_window(widget.x, widget.y)
        return capture.render().mean(x, y, widget.width, widget.height)

    def close(self) -> None:
        """Stop the app and close the terminal."""
        self.driver.close()
        self.runtime.close()


@pytest.fixture
def kiosk_factory(tmp_path: Path) -> Iterator[Any]:
    """Make a kiosk (optionally with a configuration); closed after the test."""
    made: list[Kiosk] = []

    def make(config: TerminalConfig = TOUR_CONFIG) -> Kiosk:
        k = Kiosk(tmp_path / f"terminal{len(made)}", config)
        made.append(k)
        return k

    yield make
    for k in made:
        k.close()


@pytest.fixture
def kiosk(kiosk_factory: Any) -> Kiosk:
    """A kiosk with every edition enabled."""
    k: Kiosk = kiosk_factory()
    return k
