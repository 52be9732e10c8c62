"""Text as cached white textures, tinted by the current Color when drawn."""

from __future__ import annotations

from functools import lru_cache

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Rectangle
from kivy.graphics.texture import Texture


@lru_cache(maxsize=256)
def texture(text: str, size: int, bold: bool = True) -> Texture:
    """A white texture of ``text`` at ``size`` pixels (cached)."""
    label = CoreLabel(text=text, font_size=max(4, size), bold=bold, color=(1, 1, 1, 1))
    label.refresh()
    tex: Texture = label.texture
    return tex


def draw(
    text: str, x: float, y: float, size: float, *, bold: bool = True, anchor: str = "bl"
) -> tuple[float, float]:
    """Draw ``text`` at (x, y) in the current colour; ``anchor`` "bl", "c", "tl", "tr", "br".

    Returns the drawn width and height.
    """
    tex = texture(text, round(size), bold)
    w, h = tex.size
    if anchor == "c":
        x, y = x - w / 2, y - h / 2
    elif anchor == "tl":
        y -= h
    elif anchor == "tr":
        x, y = x - w, y - h
    elif anchor == "br":
        x -= w
    elif anchor == "tc":
        x, y = x - w / 2, y - h
    Rectangle(texture=tex, pos=(round(x), round(y)), size=(w, h))
    return w, h
