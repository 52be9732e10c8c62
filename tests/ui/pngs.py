"""Read back the PNG files the kiosk writes (8-bit RGB, filter type 0 on every row)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def read_rgb(path: Path) -> tuple[int, int, bytes]:
    """Width, height and RGB rows (top row first) of a PNG written by :mod:`ui.terminal.capture`."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 2)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 3
    rows = []
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        assert line[0] == 0, "only filter type 0 is written"
        rows.append(line[1:])
    return width, height, b"".join(rows)


def crop(path: Path, left: int, top: int, right: int, bottom: int) -> bytes:
    """The RGB bytes of a rectangle (image coordinates, top row first)."""
    width, _height, rgb = read_rgb(path)
    return b"".join(
        rgb[(y * width + left) * 3 : (y * width + right) * 3] for y in range(top, bottom)
    )
