"""A bill validator and a printer on serial ports (real or simulated), for
:func:`kiosk.app.wiring.build_terminal`: ``devices=SerialSetup(ports)``.

The in-process devices stay the default for tests and the text terminal; this is the same
terminal with the protobuf device links instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kiosk.devices.pairing import DEFAULT_KEY_DIR, load_pairing_key
from kiosk.devices.printer_driver import PrinterDriver
from kiosk.devices.serial_port import LinkChannel
from kiosk.devices.validator_driver import ValidatorDriver


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


@dataclass(frozen=True)
class SerialSetup:
    """Devices on ``ports``; a driver waits ``connect_grace`` seconds for its device."""

    ports: SerialPorts
    connect_grace: float = 3.0

    def check(self) -> None:
        """A pairing key that cannot be used raises
        :class:`~kiosk.devices.pairing.PairingKeyError` before anything starts."""
        load_pairing_key(self.ports.validator_key)
        load_pairing_key(self.ports.printer_key)

    def open(self, data_dir: Path, *, with_host: bool) -> SerialDeviceSet:
        """Start the device links (they find their devices, or keep looking); ticket in is
        offered only with a host to validate vouchers."""
        ports = self.ports
        bv_channel = LinkChannel(
            ports.bill_validator, key=load_pairing_key(ports.validator_key), name="bill-validator"
        )
        pr_channel = LinkChannel(
            ports.printer, key=load_pairing_key(ports.printer_key), name="printer"
        )
        bv_channel.start()
        pr_channel.start()
        validator = ValidatorDriver(
            bv_channel, connect_grace=self.connect_grace, accept_tickets=with_host
        )
        printer = PrinterDriver(pr_channel, connect_grace=self.connect_grace)
        return SerialDeviceSet(validator, printer, (bv_channel, pr_channel))
