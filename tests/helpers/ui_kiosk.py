"""The kiosk UI tests' speed and colour checks (the fixtures are in tests/ui/conftest.py)."""

from __future__ import annotations

#: animations run at this fraction of their real duration in tests
SPEED = 0.15


def is_card_white(colour: tuple[float, float, float]) -> bool:
    """A card face fills its slot with white paper (felt and card backs are dark in red or
    blue: the felt is about (13, 107, 67), a back about (150, 40, 60))."""
    r, _g, b = colour
    return r > 150 and b > 110


def is_felt(colour: tuple[float, float, float]) -> bool:
    """The felt is green, much more green than red or blue."""
    r, g, b = colour
    return g > r + 25 and g > b + 10
