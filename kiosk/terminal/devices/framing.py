"""Frames on a serial line: COBS with a CRC-32, delimited by 0x00 (sans-IO).

A frame is ``COBS(payload || crc32(payload) little-endian) || 0x00``.  COBS removes every zero
byte from the encoded body, so 0x00 only ever marks the end of a frame: a decoder that joins the
line mid-frame, or that reads noise, throws away everything up to the next 0x00 and is in step
again from the frame after it.  Every frame that does not decode to a payload with a good CRC is
dropped and counted; nothing the decoder is fed can make it raise.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from cobs import cobs

DELIMITER = b"\x00"
CRC_BYTES = 4
#: default largest payload a link carries (a voucher print job is about 120 bytes)
MAX_PAYLOAD = 1024


class FrameError(ValueError):
    """A payload that cannot be framed (too long)."""


def crc32(data: bytes) -> int:
    """CRC-32 (IEEE 802.3, as zlib computes it)."""
    return zlib.crc32(data) & 0xFFFFFFFF


def encode_frame(payload: bytes, max_payload: int = MAX_PAYLOAD) -> bytes:
    """The frame that carries ``payload``, delimiter included."""
    if len(payload) > max_payload:
        raise FrameError(f"payload of {len(payload)} bytes exceeds {max_payload}")
    body = payload + crc32(payload).to_bytes(CRC_BYTES, "little")
    return bytes(cobs.encode(body)) + DELIMITER


def max_encoded_size(max_payload: int) -> int:
    """Largest encoded frame body (without delimiter) for payloads up to ``max_payload``."""
    body = max_payload + CRC_BYTES
    return body + body // 254 + 1


@dataclass
class DecoderStats:
    """What the decoder saw; every dropped frame is counted under exactly one reason."""

    bytes_in: int = 0
    frames: int = 0  # good frames delivered
    empty: int = 0  # 0x00 with nothing before it (harmless: senders may flush with one)
    cobs_errors: int = 0  # not valid COBS
    crc_errors: int = 0  # decoded, but the CRC does not match (or too short to hold one)
    oversize: int = 0  # longer than any frame can be: discarded up to the next 0x00

    @property
    def dropped(self) -> int:
        """Frames thrown away."""
        return self.cobs_errors + self.crc_errors + self.oversize


class FrameDecoder:
    """Turns a byte stream, fed in arbitrary pieces, into the payloads of its good frames."""

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self.max_body = max_encoded_size(max_payload)
        self.stats = DecoderStats()
        self._buf = bytearray()
        self._discarding = False

    def feed(self, data: bytes) -> list[bytes]:
        """Payloads completed by ``data``, in order."""
        self.stats.bytes_in += len(data)
        out: list[bytes] = []
        start = 0
        while True:
            end = data.find(DELIMITER, start)
            if end < 0:
                self._keep(data[start:])
                return out
            self._keep(data[start:end])
            payload = self._finish()
            if payload is not None:
                out.append(payload)
            start = end + 1

    def _keep(self, chunk: bytes) -> None:
        if self._discarding or not chunk:
            return
        self._buf += chunk
        if len(self._buf) > self.max_body:
            self.stats.oversize += 1
            self._buf.clear()
            self._discarding = True

    def _finish(self) -> bytes | None:
        if self._discarding:
            self._discarding = False
            return None
        if not self._buf:
            self.stats.empty += 1
            return None
        body = bytes(self._buf)
        self._buf.clear()
        try:
            decoded = bytes(cobs.decode(body))
        except cobs.DecodeError:
            self.stats.cobs_errors += 1
            return None
        if len(decoded) < CRC_BYTES:
            self.stats.crc_errors += 1
            return None
        payload, check = decoded[:-CRC_BYTES], decoded[-CRC_BYTES:]
        if crc32(payload) != int.from_bytes(check, "little"):
            self.stats.crc_errors += 1
            return None
        self.stats.frames += 1
        return payload
