"""Display test patterns as textures: solid colours, colour bars, grey steps, a grid."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from kivy.graphics.texture import Texture

GRID_SIZE = (256, 160)
GRID_STEP = 16


@cache
def _texture(name: str, colors: tuple[tuple[float, float, float], ...]) -> Texture:
    width, height = GRID_SIZE if name == "grid" else (max(1, len(colors)), 1)
    rows = []
    for y in range(height):
        row = bytearray()
        for x in range(width):
            if name == "grid":
                line = x % GRID_STEP == 0 or y % GRID_STEP == 0 or x == width - 1 or y == height - 1
                rgb = colors[0] if line else colors[-1]
            else:
                rgb = colors[x]
            row += bytes(round(c * 255) for c in rgb)
        rows.append(bytes(row))
    texture = Texture.create(size=(width, height), colorfmt="rgb")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    texture.blit_buffer(b"".join(rows), colorfmt="rgb", bufferfmt="ubyte")
    return texture


def pattern_texture(name: str, colors: Sequence[Sequence[float]]) -> Texture | None:
    """The texture of a pattern (None before a pattern is chosen)."""
    if not name or not colors:
        return None
    return _texture(name, tuple((float(c[0]), float(c[1]), float(c[2])) for c in colors))
