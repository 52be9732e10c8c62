"""What the bridge needs of a native bill-validator protocol: a sans-IO machine.

Each protocol (JCM ID-003, ITL eSSP, CPI EBDS) is one class satisfying
:class:`NativeValidator`.  It never touches a port or a clock: the bridge hands it the bytes
read from the device and the time, sends the bytes it asks to send, and collects its typed
events.  The vocabulary here is the device's, in our terms; the bridge maps it onto
``device.proto`` (``ValidatorEvent``) and back.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class SerialSettings:
    """How the device's UART is set up (a pty ignores parity; a real port does not)."""

    baudrate: int
    parity: str  # "N", "E" or "O", as pyserial spells them
    stopbits: int = 1
    bytesize: int = 8


class RejectCause(enum.Enum):
    """Why the device refused an item before escrow, as the device reports it."""

    NOT_RECOGNISED = "not recognised"
    NOT_ACCEPTED = "denomination inhibited"
    DISABLED = "acceptance disabled"
    FAULT = "device fault"


@dataclass(frozen=True)
class NoteEscrowed:
    """A note is held in escrow: ``value`` in cents."""

    value: int


@dataclass(frozen=True)
class TicketEscrowed:
    """A barcoded voucher is held in escrow."""

    barcode: str


@dataclass(frozen=True)
class ItemStacked:
    """The item in escrow reached the cash box (the only event that may be credited)."""


@dataclass(frozen=True)
class ItemReturned:
    """The item in escrow went back to the player."""


@dataclass(frozen=True)
class ItemRejected:
    """An item was refused before escrow."""

    cause: RejectCause
    detail: str = ""  # the device's words, where it has them (added for issue 25)


@dataclass(frozen=True)
class PathClear:
    """Nothing is in escrow or on its way to the cash box: the device is idle (enabled or
    not).  Reported at the first status after start and whenever the device becomes idle
    again, so a bridge that restarted learns what became of an item it had journaled.
    Added for the bridge (issue 25, ID-003); a protocol that cannot tell leaves it out."""


@dataclass(frozen=True)
class Condition:
    """The device's condition; sent when it changes (faults are the device's words)."""

    enabled: bool
    jammed: bool = False
    cashbox_full: bool = False
    cashbox_removed: bool = False
    cheated: bool = False
    failure: str = ""  # a device failure the protocol names, "" when none


@dataclass(frozen=True)
class Identified:
    """The device said who it is (model, serial number, firmware), where the protocol can."""

    model: str
    serial_number: str
    firmware: str


@dataclass(frozen=True)
class LinkChanged:
    """The device answers (``up``) or has stopped answering within the protocol's time-out."""

    up: bool


NativeEvent = (
    NoteEscrowed
    | TicketEscrowed
    | ItemStacked
    | ItemReturned
    | ItemRejected
    | PathClear
    | Condition
    | Identified
    | LinkChanged
)


class NativeValidator(Protocol):
    """A validator protocol's host side, sans-IO."""

    settings: SerialSettings

    def receive(self, data: bytes, now_ms: int) -> None:
        """Bytes read from the device (any split: partial frames, noise, several frames)."""
        ...

    def transmit(self, now_ms: int) -> bytes:
        """Bytes to write to the device now (a poll, a command, a retry), or b"" for none."""
        ...

    def events(self) -> list[NativeEvent]:
        """Events since the last call, in order."""
        ...

    def enable(self, note_values: tuple[int, ...], tickets: bool) -> None:
        """Accept notes of these values (cents) and, if ``tickets``, barcoded vouchers."""
        ...

    def disable(self) -> None:
        """Accept nothing."""
        ...

    def stack(self) -> None:
        """Move the item in escrow to the cash box."""
        ...

    def return_item(self) -> None:
        """Give the item in escrow back."""
        ...

    def hold(self) -> None:
        """Keep the item in escrow longer (where the protocol has a hold)."""
        ...
