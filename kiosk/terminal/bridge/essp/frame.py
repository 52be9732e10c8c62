"""SSP packets: ``0x7F | SEQ/ADDR | LEN | DATA | CRC-L | CRC-H`` with byte stuffing (sans-IO).

The CRC is CRC-16 with polynomial 0x8005, seed 0xFFFF, not reflected, no final XOR (the
catalogue's CRC-16/CMS), over SEQ/ADDR, LEN and DATA, sent low byte first.  After the start
byte every 0x7F is sent twice; a lone 0x7F inside a packet is the start of a new one, which is
how the decoder resynchronises after noise.  Bit 7 of SEQ/ADDR is the sequence flag, bits 0-6
the device's address.  The bytes themselves are :mod:`kiosk.terminal.bridge.essp.wire`
(MicroPython-clean); this module gives them types.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.terminal.bridge.essp import wire
from kiosk.terminal.bridge.essp.wire import MAX_DATA, SEQ_FLAG, STX, WireDecoder, crc16

__all__ = ["MAX_DATA", "SEQ_FLAG", "STX", "Decoder", "Packet", "crc16", "encode"]


@dataclass(frozen=True)
class Packet:
    """One SSP packet's content."""

    seq: bool
    address: int
    data: bytes


def encode(packet: Packet) -> bytes:
    """The bytes on the wire for ``packet`` (stuffed)."""
    return wire.encode(packet.seq, packet.address, packet.data)


class Decoder:
    """Bytes in any split -> whole packets with a good CRC; never raises."""

    def __init__(self) -> None:
        self.stats = WireDecoder()  # its counters: crc_errors, resyncs, noise_bytes

    def feed(self, data: bytes) -> list[Packet]:
        """Packets completed by ``data``."""
        return [Packet(seq, address, body) for seq, address, body in self.stats.feed(data)]
