"""A bill validator and a printer on serial ports (real or simulated), for
:func:`kiosk.terminal.app.wiring.build_terminal`: ``devices=SerialSetup(ports)``.

The in-process devices stay the default for tests and the text terminal; this is the same
terminal with the protobuf device links instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kiosk.terminal.devices.pairing import DEFAULT_KEY_DIR, load_pairing_key
from kiosk.terminal.devices.printer_driver import PrinterDriver
from kiosk.terminal.devices.serial_port import LinkChannel
from kiosk.terminal.devices.validator_driver import ValidatorDriver


@dataclass(frozen=True)
class SerialPorts:
    """Where the devices are: serial port paths (a USB adapter, or a simulator's pty link),
    and the terminal's copies of their pairing keys (docs/devices.md, "Pairing")."""

    bill_validator: str
    printer: str
    validator_key: Path = DEFAULT_KEY_DIR / "bill-validator.key"
    printer_key: Path = DEFAULT_KEY_DIR / "printer.key"


@dataclass
class SerialDeviceSet:
    """The device drivers and the sealed links they talk over."""

    validator: ValidatorDriver
    printer: PrinterDriver
    channels: tuple[LinkChannel, ...]

    def close(self) -> None:
        """Stop the device links."""
        for channel in self.channels:
            channel.close()


@dataclass
class SerialSetup:
    """Devices on ``ports``; a driver waits ``connect_grace`` seconds for its device."""

    ports: SerialPorts
    connect_grace: float = 3.0
    #: the pairing keys, read once by :meth:`check`
    _keys: tuple[bytes, bytes] | None = field(default=None, init=False, repr=False)

    def check(self) -> None:
        """Read the pairing keys: one that cannot be used raises
        :class:`~kiosk.terminal.devices.pairing.PairingKeyError` before anything starts."""
        self._keys = (
            load_pairing_key(self.ports.validator_key),
            load_pairing_key(self.ports.printer_key),
        )

    def open(self, data_dir: Path, *, with_host: bool) -> SerialDeviceSet:
        """Start the device links (they find their devices, or keep looking); ticket in is
        offered only with a host to validate vouchers."""
        if self._keys is None:
            self.check()
        assert self._keys is not None
        validator_key, printer_key = self._keys
        ports = self.ports
        bv_channel = LinkChannel(ports.bill_validator, key=validator_key, name="bill-validator")
        pr_channel = LinkChannel(ports.printer, key=printer_key, name="printer")
        bv_channel.start()
        pr_channel.start()
        validator = ValidatorDriver(
            bv_channel, connect_grace=self.connect_grace, accept_tickets=with_host
        )
        printer = PrinterDriver(pr_channel, connect_grace=self.connect_grace)
        return SerialDeviceSet(validator, printer, (bv_channel, pr_channel))
