"""A terminal runtime on a temporary directory: in-process devices, scripted deck, clock."""

from __future__ import annotations

from pathlib import Path

from kiosk.kernel import cards
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.port import sqlite_journal
from rng import Csprng


class ScriptedDeck:
    """Deals named cards first, then the remaining cards in code order."""

    def __init__(self, script: list[str], excluded: frozenset[int]) -> None:
        first = [c for c in cards.cards(script) if c not in excluded]
        rest = [c for c in range(52) if c not in excluded and c not in first]
        self._cards = first + rest

    def deal(self, n: int) -> tuple[int, ...]:
        out, self._cards = tuple(self._cards[:n]), self._cards[n:]
        return out


class FakeClock:
    """Milliseconds that only move when a test moves them."""

    def __init__(self) -> None:
        self.now = 1_800_000_000_000

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)


class Rig:
    """A runtime with its devices, clock and a way to script the next round's cards."""

    #: the in-process bill validator it boots (a test may give a misbehaving one)
    validator_class: type[InProcessBillValidator] = InProcessBillValidator

    def __init__(self, data_dir: Path, config: TerminalConfig | None = None) -> None:
        self.data_dir = data_dir
        self.config = config
        self.clock = FakeClock()
        self.script: list[str] | None = None
        self.rng = Csprng()
        self._rng_deck = RngDeckFactory(self.rng)
        self.runtime = self.boot()

    def deck(self, excluded: frozenset[int]) -> object:
        if self.script is not None:
            return ScriptedDeck(self.script, excluded)
        return self._rng_deck(excluded)

    def boot(self, **kwargs: object) -> TerminalRuntime:
        self.validator = self.validator_class(self.data_dir / "devices")
        self.printer = InProcessPrinter(self.data_dir / "devices")
        self.runtime = TerminalRuntime(
            self.data_dir,
            journal=sqlite_journal(self.data_dir),
            deck_factory=self.deck,  # type: ignore[arg-type]
            validator=self.validator,
            printer=self.printer,
            validation_numbers=LocalValidationNumbers(self.rng.randbelow),
            config=self.config,
            clock=self.clock,
            **kwargs,  # type: ignore[arg-type]
        )
        self.runtime.power_up()
        return self.runtime

    def power_cut(self) -> TerminalRuntime:
        """Drop the runtime without any shutdown (as SIGKILL would) and power up again."""
        self.runtime.journal.db.close()
        return self.boot()

    def insert(self, dollars: int) -> None:
        assert self.validator.insert(dollars * 100)
        self.runtime.pump()
