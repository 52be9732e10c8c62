"""EBDS's bytes on the wire, MicroPython-clean: the XOR checksum and the resynchronising decoder.

Imports nothing and uses only what MicroPython has, so the same file runs in the bridge and on
MicroPython's unix port (tests/micropython).  :mod:`kiosk.terminal.bridge.ebds.frame` wraps it in
typed messages.  Layout and resynchronisation: frame.py's docstring.
"""

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


def encode(msg_type: int, ack: int, data: bytes) -> bytes:
    """The message of type ``msg_type`` (CTRL & 0x70) with ACK bit ``ack`` carrying ``data``."""
    for byte in data:
        if byte > 0x7F:
            raise ValueError("EBDS data is 7-bit")
    length = len(data) + 5
    if length > MAX_LEN:
        raise ValueError("EBDS message too long")
    body = bytes([length, (msg_type & 0x70) | (ack & 1)]) + bytes(data)
    return bytes([STX]) + body + bytes([ETX, checksum(body)])


class WireDecoder:
    """Bytes in any split -> ``(msg_type, ack, data)`` of whole messages; never raises.

    Counts what it drops: ``bad_messages`` (length, ETX or checksum wrong: only the STX is
    dropped and the search goes on), ``noise_bytes`` and ``stale`` (a partial message given up
    after ``stale_ms`` when the caller passes the time).
    """

    def __init__(self, stale_ms: int = 200) -> None:
        self.bad_messages = 0
        self.noise_bytes = 0
        self.stale = 0
        self._buf = b""
        self._stale_ms = stale_ms
        self._since: int | None = None

    def feed(self, data: bytes, now_ms: int | None = None) -> list[tuple[int, int, bytes]]:
        """Messages completed by ``data``."""
        since = self._since
        if now_ms is not None and since is not None and now_ms - since > self._stale_ms:
            self.stale += 1
            self._buf = self._buf[1:]
            self._since = None
        buf = self._buf + bytes(data)
        out: list[tuple[int, int, bytes]] = []
        while True:
            start = buf.find(bytes([STX]))
            if start < 0:
                self.noise_bytes += len(buf)
                buf = b""
                break
            if start:
                self.noise_bytes += start
                buf = buf[start:]
            if len(buf) < 2:
                break
            length = buf[1]
            if not MIN_LEN <= length <= MAX_LEN:
                self.bad_messages += 1
                buf = buf[1:]
                continue
            if len(buf) < length:
                break
            frame = buf[:length]
            if frame[-2] != ETX or checksum(frame[1:-2]) != frame[-1]:
                self.bad_messages += 1
                buf = buf[1:]
                continue
            buf = buf[length:]
            out.append((frame[2] & 0x70, frame[2] & 1, frame[3:-2]))
        self._buf = buf
        if not buf:
            self._since = None
        elif self._since is None:
            self._since = now_ms
        return out
