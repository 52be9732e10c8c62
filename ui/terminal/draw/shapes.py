"""Outlines of the drawn shapes as polygons in a unit square (x right, y up), pure math.

Every shape is a list of ``(x, y)`` points in 0..1; the Kivy side tessellates and scales them.
"""

from __future__ import annotations

import math

Polygon = list[tuple[float, float]]


def _fit(points: Polygon, margin: float = 0.0) -> Polygon:
    """Scale and centre points into the unit square, keeping the aspect ratio."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    scale = (1 - 2 * margin) / max(w, h)
    ox = (1 - w * scale) / 2 - min(xs) * scale
    oy = (1 - h * scale) / 2 - min(ys) * scale
    return [(x * scale + ox, y * scale + oy) for x, y in points]


def heart(steps: int = 48) -> Polygon:
    """A heart (the classic parametric curve), point down."""
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x, y))
    return _fit(points)


def spade_body(steps: int = 48) -> Polygon:
    """The spade's leaf: a heart turned point up, in the upper 85% of the square."""
    return [(x, 0.15 + (1 - y) * 0.85) for x, y in heart(steps)]


def stem(width: float = 0.36, height: float = 0.38) -> Polygon:
    """The flared stem under a spade or a club."""
    half = width / 2
    return [
        (0.5 - half, 0.0),
        (0.5 + half, 0.0),
        (0.53, height * 0.55),
        (0.52, height),
        (0.48, height),
        (0.47, height * 0.55),
    ]


def diamond() -> Polygon:
    """A card diamond (a narrow rhombus with slightly curved sides)."""
    points = []
    corners = [(0.5, 0.0), (0.88, 0.5), (0.5, 1.0), (0.12, 0.5)]
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        for k in range(6):
            f = k / 6
            bend = 0.04 * math.sin(math.pi * f)
            mx, my = x0 + (x1 - x0) * f, y0 + (y1 - y0) * f
            points.append((mx + (0.5 - mx) * bend * 2, my + (0.5 - my) * bend * 2))
    return points


#: club: three leaf circles (centre x, centre y, radius) above the stem
CLUB_LEAVES = ((0.5, 0.73, 0.23), (0.27, 0.42, 0.23), (0.73, 0.42, 0.23))


def star(points: int = 5, inner: float = 0.45) -> Polygon:
    """A regular star, point up."""
    out = []
    for i in range(points * 2):
        r = 0.5 if i % 2 == 0 else 0.5 * inner
        a = math.pi / 2 + math.pi * i / points
        out.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    return _fit(out)


def lens(length: float = 1.0, width: float = 1.0, steps: int = 24) -> Polygon:
    """A pointed oval (an American football's outline), long axis along x."""
    out = []
    for i in range(steps + 1):
        t = math.pi * i / steps
        out.append((0.5 - 0.5 * length * math.cos(t), 0.5 + 0.5 * width * math.sin(t) ** 0.8))
    for i in range(1, steps):
        t = math.pi * i / steps
        out.append((0.5 + 0.5 * length * math.cos(t), 0.5 - 0.5 * width * math.sin(t) ** 0.8))
    return out
