"""A terminal whose presentation the tests read, with a clock the test moves."""

from __future__ import annotations

from pathlib import Path

from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.presentation.session import PlayerSession
from kiosk.tools.tour import TOUR_CONFIG, TourTerminal, tour_terminal
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
