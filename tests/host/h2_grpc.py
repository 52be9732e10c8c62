"""A lean gRPC client connection for the floor harness: HTTP/2 frames over one TLS connection.

A floor harness simulates thousands of terminals on the same two cores as the host it measures;
each real terminal has a processor of its own.  ``grpc.aio`` spends in the harness about what
the server spends (a future, a completion and a wake-up of the event loop for every read and
every write), so at 5,000 terminals the harness took a whole core and starved the host it was
measuring.  This client speaks exactly what the terminal's gRPC stack puts on the wire for the
link - HTTP/2 over mutual TLS, one stream per call, gRPC length-prefixed messages - with no
per-message future: :class:`H2Connection` is an :class:`asyncio.Protocol` whose
``data_received`` parses frames and hands each whole gRPC message to its owner's
``on_message``.

What it implements of HTTP/2 (RFC 9113), the part a gRPC client needs: the preface and
SETTINGS (acknowledged; the peer's initial window applied), flow control on what it sends
(connection and stream windows, DATA held back until a WINDOW_UPDATE), a receive window opened
wide at the start (2**31-1: a run never exhausts it), PING answered (the server's keepalive and
bandwidth probes) and sent (:meth:`H2Connection.ping`, the terminal's keepalive), RST_STREAM,
GOAWAY and a trailers HEADERS frame end a stream (``on_stream_end``).  Request headers are
HPACK literals without indexing (nothing to keep in step); response headers are not decoded:
a call's answer is its DATA, and a stream that ends without one failed (the harness counts it
and sends again, as a terminal does whatever the status).
"""

from __future__ import annotations

import asyncio
import struct
from typing import Protocol

DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0, 1, 3, 4, 6, 7, 8
END_STREAM, ACK, END_HEADERS, PADDED = 0x1, 0x1, 0x4, 0x8
INITIAL_WINDOW_SIZE = 0x4
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DEFAULT_WINDOW = 65_535
WIDE_WINDOW = 2**31 - 1

_FRAME = struct.Struct(">HBBBI")  # a 24-bit length as 16 + 8 bits, type, flags, stream id
_PREFIX = struct.Struct(">BI")  # gRPC: compressed flag, message length
_SETTING = struct.Struct(">HI")
_WORD = struct.Struct(">I")


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    """One HTTP/2 frame."""
    n = len(payload)
    return _FRAME.pack(n >> 8, n & 0xFF, kind, flags, stream) + payload


def grpc_message(payload: bytes) -> bytes:
    """A gRPC message as it travels in DATA (uncompressed, length-prefixed)."""
    return _PREFIX.pack(0, len(payload)) + payload


def _string(value: bytes) -> bytes:
    if len(value) >= 127:
        raise ValueError("header string too long for this encoder")
    return bytes([len(value)]) + value


def request_headers(path: str, authority: str) -> bytes:
    """The HPACK header block of a gRPC call: POST and https indexed, the rest literals
    without indexing (RFC 7541 6.2.2), no Huffman coding."""
    return b"".join(
        (
            b"\x83",  # :method POST (static index 3)
            b"\x87",  # :scheme https (static index 7)
            b"\x04" + _string(path.encode()),  # :path (name index 4)
            b"\x01" + _string(authority.encode()),  # :authority (name index 1)
            b"\x00" + _string(b"content-type") + _string(b"application/grpc"),
            b"\x00" + _string(b"te") + _string(b"trailers"),
        )
    )


class Owner(Protocol):
    """What a connection reports to (the simulated terminal)."""

    def on_message(self, connection: H2Connection, stream: int, message: bytes) -> None: ...

    def on_stream_end(self, connection: H2Connection, stream: int) -> None: ...

    def on_lost(self, connection: H2Connection) -> None: ...


class H2Connection(asyncio.Protocol):
    """One HTTP/2 client connection (see the module docstring)."""

    def __init__(self, owner: Owner, authority: str) -> None:
        self.owner = owner
        self.authority = authority
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.ping_sent_at = 0.0  # 0: no ping of ours unanswered
        self._buffer = bytearray()
        self._partial: dict[int, bytes] = {}  # a stream's gRPC bytes not yet a whole message
        self._next_stream = 1
        self._send_window = DEFAULT_WINDOW
        self._peer_initial = DEFAULT_WINDOW
        self._windows: dict[int, int] = {}  # open streams we send on: their send window
        self._held: list[tuple[int, bytes, int]] = []  # DATA over the window: stream, data, flags

    # --- asyncio.Protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        settings = _SETTING.pack(INITIAL_WINDOW_SIZE, WIDE_WINDOW) + _SETTING.pack(0x2, 0)
        transport.write(
            PREFACE
            + frame(SETTINGS, 0, 0, settings)
            + frame(WINDOW_UPDATE, 0, 0, _WORD.pack(WIDE_WINDOW - DEFAULT_WINDOW))
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed:
            self.closed = True
            self.owner.on_lost(self)

    def data_received(self, data: bytes) -> None:
        buf = self._buffer
        buf += data
        pos, size = 0, len(buf)
        while size - pos >= 9:
            hi, lo, kind, flags, stream = _FRAME.unpack_from(buf, pos)
            end = pos + 9 + ((hi << 8) | lo)
            if end > size:
                break
            if kind == DATA:
                start = pos + 9
                if flags & PADDED:
                    end_data = end - buf[start]
                    start += 1
                else:
                    end_data = end
                self._data(stream & 0x7FFFFFFF, bytes(buf[start:end_data]), flags & END_STREAM)
            elif kind == HEADERS:
                if flags & END_STREAM:
                    self._end(stream & 0x7FFFFFFF)
            else:
                self._control(kind, flags, stream & 0x7FFFFFFF, bytes(buf[pos + 9 : end]))
            if self.closed:
                return
            pos = end
        del buf[:pos]

    # --- what the owner calls ----------------------------------------------------------------

    def open(self, path: str, message: bytes, *, end: bool) -> int:
        """Open a stream (a call) with its first message; ``end``: the only one (unary)."""
        stream = self._next_stream
        self._next_stream += 2
        self._windows[stream] = self._peer_initial
        headers = request_headers(path, self.authority)
        self._write(frame(HEADERS, END_HEADERS, stream, headers))
        self.send(stream, message, end=end)
        return stream

    def send(self, stream: int, message: bytes, *, end: bool = False) -> None:
        """One gRPC message on an open stream (flow control respected)."""
        data = grpc_message(message)
        flags = END_STREAM if end else 0
        n = len(data)
        window = self._windows.get(stream)
        if window is None:
            return  # the stream already ended: the owner learnt it from on_stream_end
        if self._held or n > self._send_window or n > window:
            self._held.append((stream, data, flags))
            return
        self._send_window -= n
        self._windows[stream] = window - n
        self._write(_FRAME.pack(n >> 8, n & 0xFF, DATA, flags, stream) + data)

    def finish(self, stream: int) -> None:
        """Half-close a stream (END_STREAM on an empty DATA frame)."""
        if stream in self._windows:
            self._write(frame(DATA, END_STREAM, stream))

    def ping(self, now: float) -> None:
        """The keepalive: a PING whose answer :attr:`ping_sent_at` waits for."""
        self.ping_sent_at = now
        self._write(frame(PING, 0, 0, b"keepaliv"))

    def close(self) -> None:
        """Drop the connection (without telling the owner)."""
        self.closed = True
        if self.transport is not None:
            self.transport.abort()

    # --- frames ---------------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        if not self.closed and self.transport is not None:
            self.transport.write(data)

    def _data(self, stream: int, payload: bytes, end: int) -> None:
        rest = self._partial.pop(stream, b"")
        if rest:
            payload = rest + payload
        pos, size = 0, len(payload)
        while size - pos >= 5:
            _, n = _PREFIX.unpack_from(payload, pos)
            if pos + 5 + n > size:
                break
            self.owner.on_message(self, stream, payload[pos + 5 : pos + 5 + n])
            if self.closed:
                return
            pos += 5 + n
        if pos < size:
            self._partial[stream] = payload[pos:]
        if end:
            self._end(stream)

    def _end(self, stream: int) -> None:
        self._windows.pop(stream, None)
        self._partial.pop(stream, None)
        self.owner.on_stream_end(self, stream)

    def _control(self, kind: int, flags: int, stream: int, payload: bytes) -> None:
        if kind == SETTINGS:
            if flags & ACK:
                return
            for pos in range(0, len(payload) - 5, 6):
                key, value = _SETTING.unpack_from(payload, pos)
                if key == INITIAL_WINDOW_SIZE:
                    delta = value - self._peer_initial
                    self._peer_initial = value
                    for open_stream in self._windows:
                        self._windows[open_stream] += delta
            self._write(frame(SETTINGS, ACK, 0))
            self._release()
        elif kind == PING:
            if flags & ACK:
                self.ping_sent_at = 0.0
            else:
                self._write(frame(PING, ACK, 0, payload))
        elif kind == WINDOW_UPDATE:
            (increment,) = _WORD.unpack(payload)
            increment &= 0x7FFFFFFF
            if stream == 0:
                self._send_window += increment
            elif stream in self._windows:
                self._windows[stream] += increment
            self._release()
        elif kind == RST_STREAM:
            self._end(stream)
        elif kind == GOAWAY:  # the server is going: its streams end; the owner reconnects
            self.close()
            self.owner.on_lost(self)

    def _release(self) -> None:
        """Send the DATA that waited for a window, in order, as far as the windows allow."""
        held, self._held = self._held, []
        for i, (stream, data, flags) in enumerate(held):
            window = self._windows.get(stream)
            if window is None:
                continue
            n = len(data)
            if n > self._send_window or n > window:
                self._held = held[i:]
                return
            self._send_window -= n
            self._windows[stream] = window - n
            self._write(_FRAME.pack(n >> 8, n & 0xFF, DATA, flags, stream) + data)
