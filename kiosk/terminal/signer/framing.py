"""Length-prefixed protobuf messages on a stream: 4-byte big-endian length, then the bytes."""

from __future__ import annotations

import socket

#: the largest message either side accepts
MAX_MESSAGE = 65_536


class FramingError(Exception):
    """The peer closed the stream or sent a frame that is not acceptable."""


def send_frame(sock: socket.socket, payload: bytes) -> None:
    """Send one message."""
    if len(payload) > MAX_MESSAGE:
        raise FramingError(f"message of {len(payload)} bytes is over {MAX_MESSAGE}")
    sock.sendall(len(payload).to_bytes(4, "big") + payload)


def recv_frame(sock: socket.socket) -> bytes:
    """Receive one message (FramingError at the end of the stream or for an oversized one)."""
    size = int.from_bytes(_exactly(sock, 4), "big")
    if size > MAX_MESSAGE:
        raise FramingError(f"frame of {size} bytes is over {MAX_MESSAGE}")
    return _exactly(sock, size)


def _exactly(sock: socket.socket, n: int) -> bytes:
    chunks = []
    while n:
        chunk = sock.recv(n)
        if not chunk:
            raise FramingError("the peer closed the connection")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)
