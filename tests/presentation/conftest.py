"""Fixtures: a terminal with a scripted deck and a player session on it (no Kivy)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.app.tour import TOUR_CONFIG, TourTerminal, tour_terminal
from kiosk.presentation.session import PlayerSession
from kiosk.terminal.config import TerminalConfig
from tests.helpers.terminal_rig import FakeClock


class Table:
    """A session on a terminal whose next round deals ``script``."""

    def __init__(self, data_dir: Path, config: TerminalConfig = TOUR_CONFIG) -> None:
        self.clock = FakeClock()
        self.tour: TourTerminal = tour_terminal(data_dir, config, self.clock)
        self.terminal = self.tour.terminal
        self.rt = self.terminal.runtime
        self.session = PlayerSession(self.rt, clock=self.clock)

    def note(self, cents: int) -> None:
        """Insert a note and let the validator stack it."""
        assert self.terminal.simulated.validator.insert(cents)
        self.rt.pump()

    def deal(self, cards: str) -> None:
        """Deal the next round with these cards first."""
        self.tour.script = cards
        assert self.session.deal(), self.session.notice


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.rt.close()
