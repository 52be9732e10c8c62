"""Wire a production terminal: certified RNG, SQLite journal, devices, validation numbers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kiosk.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.hostlink.link import HostLink
from kiosk.hostlink.wiring import HostEndpoint, HostWiring
from kiosk.runtime.deck import RngDeckFactory
from kiosk.runtime.terminal import TerminalRuntime
from kiosk.runtime.validation import LocalValidationNumbers
from kiosk.store.faults import StoreError, store_fault
from kiosk.store.lock import TerminalLock
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
    lock: TerminalLock | None = None  # this process is the terminal of the data directory
    host_link: HostLink | None = None  # the accounting host link (not started)

    def close(self) -> None:
        """Stop the host link, close the journal and let go of the data directory's lock."""
        if self.host_link is not None:
            self.host_link.stop()
        self.runtime.close()
        if self.lock is not None:
            self.lock.release()


def take_lock(data_dir: Path) -> TerminalLock:
    """The data directory's lock: TerminalBusyError when another process holds it, StoreError
    (one line) when the directory cannot hold it (a file, read-only, not creatable)."""
    data_dir = Path(data_dir)
    if data_dir.exists() and not data_dir.is_dir():
        raise StoreError(f"the data directory {data_dir} is not a directory")
    try:
        return TerminalLock.acquire(data_dir)
    except OSError as exc:
        raise store_fault(f"the data directory {data_dir}", exc) from exc


def build_terminal(
    data_dir: Path,
    *,
    config: TerminalConfig | None = None,
    snapshot_every: int = 25,
    host: HostEndpoint | None = None,
) -> Terminal:
    """A terminal on ``data_dir`` with in-process simulated devices (not yet powered up).

    Takes the data directory's lock first: :class:`~kiosk.store.lock.TerminalBusyError` when
    another process is already its terminal.
    """
    data_dir = Path(data_dir)
    lock = take_lock(data_dir)
    rng = Csprng()
    wiring = HostWiring(host, data_dir) if host is not None else None
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
        **(wiring.runtime_options() if wiring is not None else {}),
    )
    terminal = Terminal(runtime, validator, printer, rng, BackgroundCycler(rng), lock)
    if wiring is not None:
        terminal.host_link = wiring.link(runtime)
    return terminal
