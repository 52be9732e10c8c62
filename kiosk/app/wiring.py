"""Wire a production terminal: certified RNG, SQLite journal, devices, validation numbers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kiosk.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.runtime.deck import RngDeckFactory
from kiosk.runtime.terminal import TerminalRuntime
from kiosk.runtime.validation import LocalValidationNumbers
from kiosk.terminal.config import TerminalConfig
from rng import BackgroundCycler, Csprng


@dataclass
class Terminal:
    """A wired terminal and the parts a caller may need to reach."""

    runtime: TerminalRuntime
    validator: InProcessBillValidator
    printer: InProcessPrinter
    rng: Csprng
    cycler: BackgroundCycler


def build_terminal(
    data_dir: Path, *, config: TerminalConfig | None = None, snapshot_every: int = 25
) -> Terminal:
    """A terminal on ``data_dir`` with in-process simulated devices (not yet powered up)."""
    data_dir = Path(data_dir)
    rng = Csprng()
    validator = InProcessBillValidator(data_dir / "devices")
    printer = InProcessPrinter(data_dir / "devices")
    runtime = TerminalRuntime(
        data_dir,
        deck_factory=RngDeckFactory(rng),
        validator=validator,
        printer=printer,
        validation_numbers=LocalValidationNumbers(rng.randbelow),
        config=config,
        snapshot_every=snapshot_every,
        rng_health=lambda: rng.failure,
    )
    return Terminal(runtime, validator, printer, rng, BackgroundCycler(rng))
