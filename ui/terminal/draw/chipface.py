"""A casino chip drawn from code: body, edge inserts, inner ring and its value."""

from __future__ import annotations

from kivy.graphics import Color, Ellipse, Line  # Line: the countdown ring only

from ui.terminal.draw import text
from ui.terminal.theme import CHIP, CHIP_INLAY, CREAM, RGBA, SHADOW

INSERTS = 6
SEGMENTS = 40  # polygon sides of a chip's circles: round at any size, cheap to draw


def body_colour(colour: str) -> RGBA:
    """The chip's body in the theme colour named ``colour``."""
    return CHIP.get(colour, CHIP["blue"])


def value_colour(colour: str) -> RGBA:
    """The colour of the chip's inserts and value (read on its body)."""
    return CHIP_INLAY.get(colour, CREAM)


def value_size(r: float, label: str) -> float:
    """The value's font size on a chip of radius ``r``: as large as the inner ring holds."""
    return r * (0.7 if len(label) <= 2 else 0.62 if len(label) <= 3 else 0.52)


def chip(
    cx: float, cy: float, r: float, colour: str, label: str = "", lifted: bool = False
) -> None:
    """A chip of radius ``r`` centred at (cx, cy) in the theme colour named ``colour``."""
    body = body_colour(colour)
    inlay: RGBA = value_colour(colour)
    Color(*SHADOW)
    n = SEGMENTS
    Ellipse(
        pos=(cx - r + r * 0.06, cy - r - r * (0.16 if lifted else 0.08)),
        size=(2 * r, 2 * r),
        segments=n,
    )
    Color(*body)
    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r), segments=n)
    Color(*inlay)
    span = 360 / INSERTS
    for i in range(INSERTS):
        start = i * span + span * 0.3
        Ellipse(
            pos=(cx - r, cy - r),
            size=(2 * r, 2 * r),
            angle_start=start,
            angle_end=start + span * 0.4,
            segments=4,
        )
    Color(*body)
    inner = r * 0.74
    Ellipse(pos=(cx - inner, cy - inner), size=(2 * inner, 2 * inner), segments=n)
    Color(*inlay)
    ring = r * 0.66
    Ellipse(pos=(cx - ring, cy - ring), size=(2 * ring, 2 * ring), segments=n)
    Color(*body)
    ring -= max(1.0, r * 0.05)
    Ellipse(pos=(cx - ring, cy - ring), size=(2 * ring, 2 * ring), segments=n)
    if label:
        Color(*inlay)
        text.draw(label, cx, cy, value_size(r, label), anchor="c")


def ring(cx: float, cy: float, r: float, colour: RGBA, progress: float, width: float) -> None:
    """A countdown ring: the part of a circle still to run, clockwise from the top."""
    Color(colour[0], colour[1], colour[2], 0.25)
    Line(circle=(cx, cy, r, 0, 360, SEGMENTS), width=width)
    Color(*colour)
    if progress > 0:
        end = 360 * max(0.0, min(1.0, progress))
        Line(circle=(cx, cy, r, 0, end, SEGMENTS), width=width)
