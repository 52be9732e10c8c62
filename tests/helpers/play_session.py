"""A text-play session on a terminal with scripted cards and a clock the test moves."""

from __future__ import annotations

from pathlib import Path

from kiosk.terminal.app.wiring import InProcessDeviceSet, Terminal
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.port import sqlite_journal
from kiosk.terminal.textui.session import PlaySession
from rng import BackgroundCycler, Csprng
from tests.helpers.terminal_rig import FakeClock, ScriptedDeck

#: the text sessions play with an operator's 20 s decision timer (none by default: decision
#: 0054), so that their timer's lines and its automatic default are shown
TIMED = TerminalConfig(decision_seconds=20)


class Player:
    """A session at a terminal whose next round deals the cards in ``script``."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.clock = FakeClock()
        self.script = ""  # the next round's cards by name, e.g. "As Kd 2c"
        self.output: list[str] = []
        rng = Csprng()
        validator = InProcessBillValidator(data_dir / "devices")
        printer = InProcessPrinter(data_dir / "devices")
        runtime = TerminalRuntime(
            data_dir,
            journal=sqlite_journal(data_dir),
            deck_factory=lambda excluded: ScriptedDeck(self.script.split(), excluded),
            validator=validator,
            printer=printer,
            validation_numbers=LocalValidationNumbers(rng.randbelow),
            clock=self.clock,
            config=TIMED,
        )
        self.terminal = Terminal(
            runtime, InProcessDeviceSet(validator, printer), rng, BackgroundCycler(rng)
        )
        self.runtime = runtime
        self.session = PlaySession(self.terminal, self.output.append)

    def start(self, edition: str | None = None) -> str:
        mark = len(self.output)
        self.session.start(edition)
        return "\n".join(self.output[mark:])

    def say(self, *lines: str) -> str:
        """Type lines; what the terminal answered to them."""
        mark = len(self.output)
        for line in lines:
            assert self.session.handle(line), f"{line!r} ended the session"
        return "\n".join(self.output[mark:])

    def close(self) -> None:
        self.runtime.close()
