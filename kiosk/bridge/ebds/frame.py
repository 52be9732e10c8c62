"""EBDS messages: ``STX | LEN | CTRL | DATA | ETX | CHK`` (sans-IO).

LEN counts the whole message, STX to CHK; CHK is the XOR of LEN, CTRL and DATA.  Bits 4-6 of
CTRL give the message type, bit 0 the ACK number that the host toggles for every new message
and the device echoes.  The line is 7 data bits, even parity: every byte is below 0x80.
There is no byte stuffing, so STX can occur inside a message: the decoder keeps what it has
read, and after a message that fails (bad length, no ETX, bad checksum) it drops only that
message's STX and looks again from the next byte; a partial message older than ``stale_ms``
is given up the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

STX = 0x02
ETX = 0x03
MIN_LEN = 5
MAX_LEN = 40  # the longest message here: the extended barcode reply (36)


def checksum(body: bytes) -> int:
    """XOR of ``body`` (LEN through the last data byte)."""
    out = 0
    for byte in body:
        out ^= byte
    return out


@dataclass(frozen=True)
class Message:
    """One EBDS message."""

    msg_type: int  # CTRL & 0x70
    ack: int  # CTRL & 0x01
    data: bytes


def encode(message: Message) -> bytes:
    """The bytes on the wire for ``message``."""
    if any(b > 0x7F for b in message.data):
        raise ValueError("EBDS data is 7-bit")
    length = len(message.data) + 5
    if length > MAX_LEN:
        raise ValueError("EBDS message too long")
    body = bytes([length, (message.msg_type & 0x70) | (message.ack & 1)]) + message.data
    return bytes([STX]) + body + bytes([ETX, checksum(body)])


@dataclass
class DecoderStats:
    """What the decoder dropped."""

    bad_messages: int = 0
    noise_bytes: int = 0
    stale: int = 0


class Decoder:
    """Bytes in any split -> whole messages; never raises."""

    def __init__(self, stale_ms: int = 200) -> None:
        self.stats = DecoderStats()
        self._buf = bytearray()
        self._stale_ms = stale_ms
        self._since: int | None = None

    def feed(self, data: bytes, now_ms: int | None = None) -> list[Message]:
        """Messages completed by ``data`` (``now_ms`` lets a stale partial message go)."""
        since = self._since
        if now_ms is not None and since is not None and now_ms - since > self._stale_ms:
            self.stats.stale += 1
            del self._buf[:1]
            self._since = None
        self._buf += data
        out: list[Message] = []
        while True:
            start = self._buf.find(STX)
            if start < 0:
                self.stats.noise_bytes += len(self._buf)
                self._buf.clear()
                break
            if start:
                self.stats.noise_bytes += start
                del self._buf[:start]
            if len(self._buf) < 2:
                break
            length = self._buf[1]
            if not MIN_LEN <= length <= MAX_LEN:
                self._drop_one()
                continue
            if len(self._buf) < length:
                break
            frame = bytes(self._buf[:length])
            if frame[-2] != ETX or checksum(frame[1:-2]) != frame[-1]:
                self._drop_one()
                continue
            del self._buf[:length]
            out.append(Message(frame[2] & 0x70, frame[2] & 1, frame[3:-2]))
        if not self._buf:
            self._since = None
        elif self._since is None:
            self._since = now_ms
        return out

    def _drop_one(self) -> None:
        self.stats.bad_messages += 1
        del self._buf[0]
