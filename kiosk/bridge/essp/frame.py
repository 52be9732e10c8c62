"""SSP packets: ``0x7F | SEQ/ADDR | LEN | DATA | CRC-L | CRC-H`` with byte stuffing (sans-IO).

The CRC is CRC-16 with polynomial 0x8005, seed 0xFFFF, not reflected, no final XOR (the
catalogue's CRC-16/CMS), over SEQ/ADDR, LEN and DATA, sent low byte first.  After the start
byte every 0x7F is sent twice; a lone 0x7F inside a packet is the start of a new one, which is
how the decoder resynchronises after noise.  Bit 7 of SEQ/ADDR is the sequence flag, bits 0-6
the device's address.
"""

from __future__ import annotations

from dataclasses import dataclass

STX = 0x7F
SEQ_FLAG = 0x80
MAX_DATA = 255


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """SSP's CRC-16 (poly 0x8005, seed 0xFFFF, MSB first)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x8005) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


@dataclass(frozen=True)
class Packet:
    """One SSP packet's content."""

    seq: bool
    address: int
    data: bytes


def encode(packet: Packet) -> bytes:
    """The bytes on the wire for ``packet`` (stuffed)."""
    if not 0 <= packet.address < 0x80:
        raise ValueError("an SSP address is 0-127")
    if len(packet.data) > MAX_DATA:
        raise ValueError("an SSP packet carries at most 255 bytes")
    body = bytes([packet.address | (SEQ_FLAG if packet.seq else 0), len(packet.data)])
    body += packet.data
    crc = crc16(body)
    body += bytes([crc & 0xFF, crc >> 8])
    return bytes([STX]) + body.replace(b"\x7f", b"\x7f\x7f")


@dataclass
class DecoderStats:
    """What the decoder dropped."""

    crc_errors: int = 0
    resyncs: int = 0
    noise_bytes: int = 0


class Decoder:
    """Bytes in any split -> whole packets with a good CRC; never raises."""

    def __init__(self) -> None:
        self.stats = DecoderStats()
        self._in_packet = False
        self._pending_stx = False
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[Packet]:
        """Packets completed by ``data``."""
        out: list[Packet] = []
        for byte in data:
            if not self._in_packet:
                if byte == STX:
                    self._start()
                else:
                    self.stats.noise_bytes += 1
                continue
            if self._pending_stx:
                self._pending_stx = False
                if byte != STX:  # a lone 0x7F: a new packet starts here
                    self.stats.resyncs += 1
                    self._start()
            elif byte == STX:
                self._pending_stx = True
                continue
            self._buf.append(byte)
            self._complete(out)
        return out

    def _start(self) -> None:
        self._in_packet = True
        self._pending_stx = False
        self._buf.clear()

    def _complete(self, out: list[Packet]) -> None:
        if len(self._buf) < 2 or len(self._buf) < self._buf[1] + 4:
            return
        body = bytes(self._buf)
        self._in_packet = False
        self._buf.clear()
        crc = crc16(body[:-2])
        if body[-2] != crc & 0xFF or body[-1] != crc >> 8:
            self.stats.crc_errors += 1
            return
        out.append(Packet(bool(body[0] & SEQ_FLAG), body[0] & 0x7F, body[2:-2]))
