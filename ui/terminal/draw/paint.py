"""Kivy instructions for the project's shapes: call inside a ``with canvas:`` block.

Polygons are tessellated once (per shape) in unit coordinates and placed with a transform, so
drawing a suit or an icon costs a few instructions and no per-frame geometry work.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from functools import cache

from kivy.graphics import (
    Color,
    Ellipse,
    Mesh,
    PopMatrix,
    PushMatrix,
    Quad,
    Rectangle,
    Rotate,
    Scale,
    Translate,
)
from kivy.graphics.tesselator import TYPE_POLYGONS, WINDING_ODD, Tesselator

from ui.terminal.draw import shapes
from ui.terminal.theme import INK_BLACK, INK_RED, RGBA, hex_rgba

Meshes = list[tuple[list[float], list[int]]]


@cache
def tessellated(name: str) -> Meshes:
    """Triangle fans of a named unit polygon from :mod:`ui.terminal.draw.shapes`."""
    outline: shapes.Polygon = getattr(shapes, name)()
    tess = Tesselator()
    tess.add_contour([v for point in outline for v in point])
    if not tess.tesselate(WINDING_ODD, TYPE_POLYGONS):
        raise ValueError(f"shape {name!r} does not tessellate")
    return [(list(vertices), list(indices)) for vertices, indices in tess.meshes]


def polygon(name: str, x: float, y: float, w: float, h: float | None = None) -> None:
    """Fill the unit polygon ``name`` into the box at (x, y) of size w x h."""
    PushMatrix()
    Translate(x, y)
    Scale(w, h if h is not None else w, 1)
    for vertices, indices in tessellated(name):
        Mesh(vertices=vertices, indices=indices, mode="triangle_fan")
    PopMatrix()


def suit_colour(suit: int) -> RGBA:
    """Red for hearts and diamonds, black for spades and clubs."""
    return INK_RED if suit in (1, 2) else INK_BLACK


def suit(index: int, x: float, y: float, size: float, colour: RGBA | None = None) -> None:
    """A suit pip (0 spades, 1 hearts, 2 diamonds, 3 clubs) in the square at (x, y)."""
    Color(*(colour or suit_colour(index)))
    if index == 0:
        polygon("spade_body", x, y, size)
        polygon("stem", x, y, size)
    elif index == 1:
        polygon("heart", x, y + size * 0.04, size, size * 0.92)
    elif index == 2:
        polygon("diamond", x + size * 0.05, y, size * 0.9, size)
    else:
        for cx, cy, r in shapes.CLUB_LEAVES:
            Ellipse(
                pos=(x + (cx - r) * size, y + (cy - r) * size),
                size=(2 * r * size,) * 2,
                segments=24,
            )
        polygon("stem", x, y, size)


# --- sport icons ----------------------------------------------------------------------------

LEATHER = hex_rgba("#7b3f1d")
LEATHER_DARK = hex_rgba("#4a230f")
WHITE = hex_rgba("#fbfbf7")
STITCH = hex_rgba("#d0202a")
ORANGE = hex_rgba("#e46b1a")
SEAM = hex_rgba("#2a1a10")
PUCK = hex_rgba("#1b1c1f")
PUCK_TOP = hex_rgba("#3a3d44")
STAR = hex_rgba("#f2c230")
STAR_EDGE = hex_rgba("#a8760a")


def _bar(x0: float, y0: float, x1: float, y1: float, width: float) -> None:
    """A straight stroke as a filled quad (wide lines are costly for software GL)."""
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * width / 2, dx / length * width / 2
    Quad(points=(x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny))


def _arc(cx: float, cy: float, r: float, start: float, end: float, width: float) -> None:
    """An arc stroke as a strip of quads (angles in degrees, clockwise from the top)."""
    steps = 8
    points = [
        (cx + r * math.sin(math.radians(a)), cy + r * math.cos(math.radians(a)))
        for a in (start + (end - start) * i / steps for i in range(steps + 1))
    ]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        _bar(x0, y0, x1, y1, width)


def _ring(cx: float, cy: float, r: float, width: float, ink: RGBA, fill: RGBA) -> None:
    """A filled disc with an outline of ``width``."""
    Color(*ink)
    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r), segments=32)
    inner = r - width
    Color(*fill)
    Ellipse(pos=(cx - inner, cy - inner), size=(2 * inner, 2 * inner), segments=32)


def _football(x: float, y: float, s: float) -> None:
    cx, cy = x + s / 2, y + s / 2
    x, y, s = x + s * 0.08, y + s * 0.08, s * 0.84  # turned 30 degrees, it stays in its box
    PushMatrix()
    Rotate(angle=30, origin=(cx, cy))
    Color(*LEATHER_DARK)
    polygon("lens", x, y + s * 0.2, s, s * 0.6)
    Color(*LEATHER)
    polygon("lens", x + s * 0.04, y + s * 0.23, s * 0.92, s * 0.54)
    Color(*WHITE)
    w = max(1.0, s * 0.04)
    _bar(cx - s * 0.2, cy, cx + s * 0.2, cy, w)
    for k in range(-2, 3):
        lx = cx + k * s * 0.09
        _bar(lx, cy - s * 0.06, lx, cy + s * 0.06, w * 0.8)
    for side in (-1, 1):
        sx = cx + side * s * 0.33
        _bar(sx, cy - s * 0.15, sx, cy + s * 0.15, w)
    PopMatrix()


def _baseball(x: float, y: float, s: float) -> None:
    r = s * 0.46
    cx, cy = x + s / 2, y + s / 2
    _ring(cx, cy, r, max(1.0, s * 0.025), hex_rgba("#9e9e9e"), WHITE)
    Color(*STITCH)
    w = max(1.0, s * 0.035)
    _arc(cx - r * 1.35, cy, r * 0.95, 50, 130, w)
    _arc(cx + r * 1.35, cy, r * 0.95, 230, 310, w)


def _basketball(x: float, y: float, s: float) -> None:
    r = s * 0.46
    cx, cy = x + s / 2, y + s / 2
    w = max(1.0, s * 0.035)
    _ring(cx, cy, r, w, SEAM, ORANGE)
    Color(*SEAM)
    _bar(cx, cy - r, cx, cy + r, w)
    _bar(cx - r, cy, cx + r, cy, w)
    _arc(cx - r * 1.1, cy, r * 0.75, 45, 135, w)
    _arc(cx + r * 1.1, cy, r * 0.75, 225, 315, w)


def _puck(x: float, y: float, s: float) -> None:
    w, h = s * 0.9, s * 0.34
    left = x + (s - w) / 2
    bottom = y + s * 0.25
    Color(*PUCK)
    Ellipse(pos=(left, bottom), size=(w, h), segments=32)
    Rectangle(pos=(left, bottom + h / 2), size=(w, s * 0.22))
    Color(*hex_rgba("#5d616b"))
    Ellipse(pos=(left, bottom + s * 0.22), size=(w, h), segments=32)
    Color(*PUCK_TOP)
    Ellipse(
        pos=(left + w * 0.04, bottom + s * 0.22 + h * 0.06), size=(w * 0.92, h * 0.88), segments=32
    )


def _star(x: float, y: float, s: float) -> None:
    Color(*STAR_EDGE)
    polygon("star", x, y, s)
    Color(*STAR)
    polygon("star", x + s * 0.07, y + s * 0.07, s * 0.86)


ICONS: dict[str, Callable[[float, float, float], None]] = {
    "football": _football,
    "baseball": _baseball,
    "basketball": _basketball,
    "puck": _puck,
}


def icon(name: str, x: float, y: float, size: float) -> None:
    """The edition's icon in the square at (x, y); a star for editions without a drawing."""
    ICONS.get(name, _star)(x, y, size)
