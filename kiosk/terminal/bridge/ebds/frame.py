"""EBDS messages: ``STX | LEN | CTRL | DATA | ETX | CHK`` (sans-IO).

LEN counts the whole message, STX to CHK; CHK is the XOR of LEN, CTRL and DATA.  Bits 4-6 of
CTRL give the message type, bit 0 the ACK number that the host toggles for every new message
and the device echoes.  The line is 7 data bits, even parity: every byte is below 0x80.
There is no byte stuffing, so STX can occur inside a message: the decoder keeps what it has
read, and after a message that fails (bad length, no ETX, bad checksum) it drops only that
message's STX and looks again from the next byte; a partial message older than ``stale_ms``
is given up the same way.  The bytes themselves are :mod:`kiosk.terminal.bridge.ebds.wire`
(MicroPython-clean); this module gives them types.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.terminal.bridge.ebds import wire
from kiosk.terminal.bridge.ebds.wire import ETX, MAX_LEN, MIN_LEN, STX, WireDecoder, checksum

__all__ = ["ETX", "MAX_LEN", "MIN_LEN", "STX", "Decoder", "Message", "checksum", "encode"]


@dataclass(frozen=True)
class Message:
    """One EBDS message."""

    msg_type: int  # CTRL & 0x70
    ack: int  # CTRL & 0x01
    data: bytes


def encode(message: Message) -> bytes:
    """The bytes on the wire for ``message``."""
    return wire.encode(message.msg_type, message.ack, message.data)


class Decoder:
    """Bytes in any split -> whole messages; never raises."""

    def __init__(self, stale_ms: int = 200) -> None:
        self.stats = WireDecoder(stale_ms)  # its counters: bad_messages, noise_bytes, stale

    def feed(self, data: bytes, now_ms: int | None = None) -> list[Message]:
        """Messages completed by ``data`` (``now_ms`` lets a stale partial message go)."""
        return [Message(t, a, d) for t, a, d in self.stats.feed(data, now_ms)]
