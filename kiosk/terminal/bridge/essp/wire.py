"""SSP's bytes on the wire, MicroPython-clean: CRC-16, stuffing, the resynchronising decoder.

Imports nothing and uses only what MicroPython has (no dataclasses, no slice deletion), so the
same file runs in the bridge and on MicroPython's unix port (tests/micropython).
:mod:`kiosk.terminal.bridge.essp.frame` wraps it in typed packets.  Layout: frame.py's docstring.
"""

STX = 0x7F
SEQ_FLAG = 0x80
MAX_DATA = 255


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """SSP's CRC-16 (poly 0x8005, seed 0xFFFF, MSB first, no final XOR: CRC-16/CMS)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x8005) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def encode(seq: bool, address: int, data: bytes) -> bytes:
    """The stuffed packet carrying ``data`` to or from ``address`` under sequence flag ``seq``."""
    if not 0 <= address < 0x80:
        raise ValueError("an SSP address is 0-127")
    if len(data) > MAX_DATA:
        raise ValueError("an SSP packet carries at most 255 bytes")
    body = bytes([address | (SEQ_FLAG if seq else 0), len(data)]) + bytes(data)
    crc = crc16(body)
    body += bytes([crc & 0xFF, crc >> 8])
    return bytes([STX]) + body.replace(b"\x7f", b"\x7f\x7f")


class WireDecoder:
    """Bytes in any split -> ``(seq, address, data)`` of packets with a good CRC; never raises.

    Counts what it drops: ``crc_errors``, ``resyncs`` (a lone 0x7F started a new packet) and
    ``noise_bytes`` (outside any packet).
    """

    def __init__(self) -> None:
        self.crc_errors = 0
        self.resyncs = 0
        self.noise_bytes = 0
        self._in_packet = False
        self._pending_stx = False
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[tuple[bool, int, bytes]]:
        """Packets completed by ``data``."""
        out: list[tuple[bool, int, bytes]] = []
        for byte in data:
            if not self._in_packet:
                if byte == STX:
                    self._start()
                else:
                    self.noise_bytes += 1
                continue
            if self._pending_stx:
                self._pending_stx = False
                if byte != STX:  # a lone 0x7F: a new packet starts here
                    self.resyncs += 1
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
        self._buf = bytearray()

    def _complete(self, out: list[tuple[bool, int, bytes]]) -> None:
        buf = self._buf
        if len(buf) < 2 or len(buf) < buf[1] + 4:
            return
        body = bytes(buf)
        self._in_packet = False
        self._buf = bytearray()
        crc = crc16(body[:-2])
        if body[-2] != crc & 0xFF or body[-1] != crc >> 8:
            self.crc_errors += 1
            return
        out.append((bool(body[0] & SEQ_FLAG), body[0] & 0x7F, body[2:-2]))
