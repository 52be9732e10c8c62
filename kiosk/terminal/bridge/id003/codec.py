"""ID-003 framing, sans-IO: ``SYNC(0xFC) LNG CMD DATA... CRC-16/Kermit (low byte first)``.

``LNG`` counts the whole frame, the sync and the two CRC bytes included (5 for a frame with no
data).  The CRC covers everything before it.  The decoder takes bytes in any split, drops noise
and broken frames (counting them) and finds the next ``0xFC``; it never raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SYNC = 0xFC
MIN_LENGTH = 5  # SYNC LNG CMD CRC CRC
MAX_LENGTH = 0xFF


def crc16_kermit(data: bytes) -> int:
    """CRC-16/Kermit: polynomial 0x1021 reflected (0x8408), initial 0, no final xor."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


@dataclass(frozen=True)
class Frame:
    """One ID-003 message: its command (or status) byte and its data."""

    cmd: int
    data: bytes = b""


class FrameTooLongError(ValueError):
    """A frame's data does not fit the one-byte length."""


def encode(frame: Frame) -> bytes:
    """The bytes of ``frame`` on the line."""
    length = MIN_LENGTH + len(frame.data)
    if length > MAX_LENGTH:
        raise FrameTooLongError(f"{len(frame.data)} bytes of data do not fit an ID-003 frame")
    body = bytes([SYNC, length, frame.cmd]) + frame.data
    crc = crc16_kermit(body)
    return body + bytes([crc & 0xFF, crc >> 8])


@dataclass
class DecoderStats:
    """What the decoder threw away."""

    noise: int = 0  # bytes skipped looking for a sync
    crc_errors: int = 0
    bad_length: int = 0


@dataclass
class Decoder:
    """Frames out of a byte stream (any split, any noise)."""

    stats: DecoderStats = field(default_factory=DecoderStats)
    _buf: bytearray = field(default_factory=bytearray)

    def feed(self, data: bytes) -> list[Frame]:
        """Every complete frame ``data`` finishes, in order."""
        self._buf += data
        out: list[Frame] = []
        buf = self._buf
        while buf:
            if buf[0] != SYNC:
                start = buf.find(SYNC)
                skipped = len(buf) if start < 0 else start
                self.stats.noise += skipped
                del buf[:skipped]
                continue
            if len(buf) < 2:
                break
            length = buf[1]
            if length < MIN_LENGTH:
                self.stats.bad_length += 1
                del buf[:1]
                continue
            if len(buf) < length:
                break
            body, crc = bytes(buf[: length - 2]), buf[length - 2] | buf[length - 1] << 8
            if crc16_kermit(body) != crc:
                self.stats.crc_errors += 1
                del buf[:1]  # resynchronise on the next 0xFC, which may start inside
                continue
            out.append(Frame(body[2], body[3:]))
            del buf[:length]
        return out

    def reset(self) -> None:
        """Forget a partial frame (after a line time-out)."""
        self._buf.clear()
