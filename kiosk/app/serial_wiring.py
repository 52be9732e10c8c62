"""Wire a terminal to a bill validator and a printer on serial ports (real or simulated).

The in-process devices of :func:`kiosk.app.wiring.build_terminal` stay the default for tests
and the text terminal; this is the same terminal with the protobuf device links instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kiosk.app.wiring import take_lock
from kiosk.devices.pairing import DEFAULT_KEY_DIR, load_pairing_key
from kiosk.devices.printer_driver import PrinterDriver
from kiosk.devices.serial_port import LinkChannel
from kiosk.devices.validator_driver import ValidatorDriver
from kiosk.hostlink.link import HostLink
from kiosk.hostlink.wiring import HostEndpoint, HostWiring
from kiosk.runtime.deck import RngDeckFactory
from kiosk.runtime.terminal import TerminalRuntime
from kiosk.runtime.validation import LocalValidationNumbers
from kiosk.store.lock import TerminalLock
from kiosk.terminal.config import TerminalConfig
from rng import BackgroundCycler, Csprng


@dataclass(frozen=True)
class SerialPorts:
    """Where the devices are: serial port paths (a USB adapter, or a simulator's pty link),
    and the terminal's copies of their pairing keys (docs/devices.md, "Pairing")."""

    bill_validator: str
    printer: str
    validator_key: Path = DEFAULT_KEY_DIR / "bill-validator.key"
    printer_key: Path = DEFAULT_KEY_DIR / "printer.key"


@dataclass
class SerialTerminal:
    """A wired terminal with serial devices."""

    runtime: TerminalRuntime
    validator: ValidatorDriver
    printer: PrinterDriver
    rng: Csprng
    cycler: BackgroundCycler
    lock: TerminalLock | None = None
    host_link: HostLink | None = None
    channels: list[LinkChannel] = field(default_factory=list)

    def close(self) -> None:
        """Stop the device links, close the journal, release the data directory."""
        for channel in self.channels:
            channel.close()
        self.runtime.close()
        if self.lock is not None:
            self.lock.release()


def build_serial_terminal(
    data_dir: Path,
    ports: SerialPorts,
    *,
    config: TerminalConfig | None = None,
    snapshot_every: int = 25,
    host: HostEndpoint | None = None,
    connect_grace: float = 3.0,
) -> SerialTerminal:
    """A terminal on ``data_dir`` whose devices are on ``ports`` (not yet powered up).

    The device links start at once (they find their devices, or keep looking); ticket in is
    offered only with a host to validate vouchers.  A pairing key that cannot be used raises
    :class:`~kiosk.devices.pairing.PairingKeyError` before anything starts.
    """
    data_dir = Path(data_dir)
    validator_key = load_pairing_key(ports.validator_key)
    printer_key = load_pairing_key(ports.printer_key)
    lock = take_lock(data_dir)
    rng = Csprng()
    wiring = HostWiring(host, data_dir) if host is not None else None
    bv_channel = LinkChannel(ports.bill_validator, key=validator_key, name="bill-validator")
    pr_channel = LinkChannel(ports.printer, key=printer_key, name="printer")
    bv_channel.start()
    pr_channel.start()
    validator = ValidatorDriver(
        bv_channel, connect_grace=connect_grace, accept_tickets=host is not None
    )
    printer = PrinterDriver(pr_channel, connect_grace=connect_grace)
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
    terminal = SerialTerminal(
        runtime,
        validator,
        printer,
        rng,
        BackgroundCycler(rng),
        lock,
        channels=[bv_channel, pr_channel],
    )
    if wiring is not None:
        terminal.host_link = wiring.link(runtime)
    return terminal
