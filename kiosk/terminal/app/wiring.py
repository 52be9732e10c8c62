"""Wire a production terminal: certified RNG, SQLite journal, devices, validation numbers.

One builder, :func:`build_terminal`, for every device set: the in-process simulated devices
(:class:`InProcessSetup`, the default: tests, the text terminal, the kiosk with its simulator
panel) or the protobuf links to devices on serial ports (:class:`~kiosk.terminal.app.serial_wiring.
SerialSetup`, real or simulated).  Whatever the devices, the result is one :class:`Terminal`
with one close path.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from kiosk.terminal.app.serial_wiring import SerialDeviceSet
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.devices.ports import BillValidatorPort, PrinterPort
from kiosk.terminal.hostlink.link import HostLink
from kiosk.terminal.hostlink.wiring import HostEndpoint, HostWiring
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.sas.link import SasLink, SasSettings
from kiosk.terminal.seat.runtime import SeatRuntime
from kiosk.terminal.store.faults import StoreError, store_fault
from kiosk.terminal.store.lock import TerminalLock
from kiosk.terminal.store.port import sqlite_journal
from rng import BackgroundCycler, Csprng


class DeviceSet(Protocol):
    """A terminal's bill validator and printer, as opened for it."""

    @property
    def validator(self) -> BillValidatorPort:
        """The bill validator's port."""
        ...

    @property
    def printer(self) -> PrinterPort:
        """The printer's port."""
        ...

    def close(self) -> None:
        """Stop whatever carries the devices' traffic (idempotent)."""
        ...


class DeviceSetup(Protocol):
    """Which devices a terminal gets, and how they are opened."""

    def check(self) -> None:
        """Refuse before anything starts (a pairing key that cannot be used...)."""
        ...

    def open(self, data_dir: Path, *, with_host: bool) -> DeviceSet:
        """Open the devices for the terminal of ``data_dir`` (tickets in only with a host)."""
        ...


@dataclass
class InProcessDeviceSet:
    """The simulated devices in this process (a test or the simulator panel works them)."""

    validator: InProcessBillValidator
    printer: InProcessPrinter

    def close(self) -> None:
        """Nothing runs beside them."""


@dataclass(frozen=True)
class InProcessSetup:
    """In-process simulated devices, keeping their memories under ``<data_dir>/devices``."""

    def check(self) -> None:
        """Nothing to check."""

    def open(self, data_dir: Path, *, with_host: bool) -> InProcessDeviceSet:
        """The devices, ready at once."""
        return InProcessDeviceSet(
            InProcessBillValidator(data_dir / "devices"), InProcessPrinter(data_dir / "devices")
        )


@dataclass
class Terminal:
    """A wired terminal and the parts a caller may need to reach."""

    runtime: TerminalRuntime
    devices: DeviceSet
    rng: Csprng
    cycler: BackgroundCycler
    lock: TerminalLock | None = None  # this process is the terminal of the data directory
    host_link: HostLink | None = None  # the accounting host link (not started)
    sas_link: SasLink | None = None  # the SAS gaming-machine link (not started)
    seat: SeatRuntime | None = None  # seated at a table (run --table): kiosk.terminal.seat

    @property
    def validator(self) -> BillValidatorPort:
        """The bill validator's port."""
        return self.devices.validator

    @property
    def printer(self) -> PrinterPort:
        """The printer's port."""
        return self.devices.printer

    @property
    def simulated(self) -> InProcessDeviceSet:
        """The in-process devices, for what a test or the simulator does to them (TypeError
        for a terminal whose devices are elsewhere)."""
        if not isinstance(self.devices, InProcessDeviceSet):
            raise TypeError("this terminal's devices are not in-process simulations")
        return self.devices

    @property
    def serial(self) -> SerialDeviceSet:
        """The serial device drivers and their links (TypeError for other devices)."""
        if not isinstance(self.devices, SerialDeviceSet):
            raise TypeError("this terminal's devices are not on serial links")
        return self.devices

    def close(self) -> None:
        """Stop the host link and the device links, close the journal and the signer, and let
        go of the data directory's lock (each part once, in that order)."""
        if self.host_link is not None:
            self.host_link.stop()
        if self.sas_link is not None:
            self.sas_link.close()
        if self.seat is not None:
            self.seat.close()
        self.devices.close()
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
    devices: DeviceSetup = InProcessSetup(),
    config: TerminalConfig | None = None,
    snapshot_every: int = 25,
    host: HostEndpoint | None = None,
    sas: SasSettings | None = None,
) -> Terminal:
    """A terminal on ``data_dir`` with ``devices`` (not yet powered up).

    ``devices.check()`` runs before anything starts; then the data directory's lock is taken
    (:class:`~kiosk.terminal.store.lock.TerminalBusyError` when another process is already its
    terminal), the devices are opened and the runtime is given its SQLite journal.  With
    ``sas`` the SAS link is made and attached (its port opened by ``sas_link.start()``): the
    SAS host then validates tickets in and out (kiosk/terminal/app/sas_wiring.py).
    """
    data_dir = Path(data_dir)
    devices.check()
    lock = take_lock(data_dir)
    rng = Csprng()
    wiring = HostWiring(host, data_dir) if host is not None else None
    opened = devices.open(data_dir, with_host=host is not None or sas is not None)
    options = wiring.runtime_options() if wiring is not None else {}
    validator: BillValidatorPort = opened.validator
    sas_link = None
    if sas is not None:
        from kiosk.terminal.app.sas_wiring import SasHostPort, make_sas_link
        from kiosk.terminal.hostlink.link import AdjustableClock

        serial = (config.terminal_id if config is not None else None) or "TK-0001"
        try:
            sas_link = make_sas_link(data_dir, sas, serial)
        except Exception:
            opened.close()
            lock.release()
            raise
        options["host"] = SasHostPort(sas_link.bridge)
        clock = options.get("clock")
        if not isinstance(clock, AdjustableClock):
            clock = options["clock"] = AdjustableClock(data_dir / "host_clock.json")
        sas_link.set_time = clock.set
        validator = sas_link.gate_validator(opened.validator)
    runtime = TerminalRuntime(
        data_dir,
        journal=sqlite_journal(data_dir),
        deck_factory=RngDeckFactory(rng),
        validator=validator,
        printer=opened.printer,
        validation_numbers=LocalValidationNumbers(rng.randbelow),
        config=config,
        snapshot_every=snapshot_every,
        rng_health=lambda: rng.failure,
        **options,
    )
    terminal = Terminal(runtime, opened, rng, BackgroundCycler(rng), lock)
    if wiring is not None:
        terminal.host_link = wiring.link(runtime)
    if sas_link is not None:
        runtime.voucher_expiry = sas_link.bridge.expiry_days  # the SAS host's 7B expiration
        sas_link.attach(runtime)
        terminal.sas_link = sas_link
    return terminal
