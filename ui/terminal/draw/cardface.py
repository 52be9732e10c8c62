"""A playing card drawn from code: face, back and the empty slot a card lands in.

Every function draws in the card's own coordinates (0..w, 0..h); the caller places the card
with a transform (see :class:`ui.terminal.widgets.card.CardView`).
"""

from __future__ import annotations

from functools import cache

from kivy.graphics import Color, PopMatrix, PushMatrix, Rectangle, Rotate, RoundedRectangle
from kivy.graphics.texture import Texture

from kiosk.terminal.presentation.faces import CardFace
from ui.terminal.draw import paint, text
from ui.terminal.theme import (
    BACK,
    BACK_LIGHT,
    CARD,
    CARD_EDGE,
    CREAM,
    GOLD,
    RGBA,
    SHADOW,
    SLOT,
    SLOT_CHOSEN,
    SLOT_EDGE,
    TEXT,
    hex_rgba,
)

COURT = frozenset({"J", "Q", "K"})
COURT_FRAME = hex_rgba("#d9c07a")
CORNER_SEGMENTS = 4


def radius(w: float) -> float:
    """Corner radius of a card ``w`` pixels wide."""
    return max(3.0, w * 0.09)


@cache
def lattice() -> Texture:
    """A small repeating diamond lattice for card backs, generated (16 x 16 RGBA)."""
    n = 16
    light = bytes(int(c * 255) for c in BACK_LIGHT[:3]) + b"\xff"
    dark = bytes(int(c * 255) for c in BACK[:3]) + b"\xff"
    pixels = bytearray()
    for y in range(n):
        for x in range(n):
            on = (x + y) % n in (0, 1) or (x - y) % n in (0, 1)
            pixels += light if on else dark
    tex = Texture.create(size=(n, n), colorfmt="rgba")
    tex.blit_buffer(bytes(pixels), colorfmt="rgba", bufferfmt="ubyte")
    tex.wrap = "repeat"
    tex.mag_filter = "nearest"
    return tex


def rrect(x: float, y: float, w: float, h: float, r: float) -> None:
    """A filled rounded rectangle with few corner segments (cheap for software GL)."""
    RoundedRectangle(pos=(x, y), size=(w, h), radius=[max(0.0, r)], segments=CORNER_SEGMENTS)


def frame(
    x: float, y: float, w: float, h: float, r: float, edge: float, ink: RGBA, fill: RGBA
) -> None:
    """A filled rounded rectangle with an outline ``edge`` wide, as two fills (no wide lines)."""
    Color(*ink)
    rrect(x, y, w, h, r)
    Color(*fill)
    rrect(x + edge, y + edge, w - 2 * edge, h - 2 * edge, r - edge)


def shadow(w: float, h: float) -> None:
    """A soft drop shadow under the card."""
    Color(*SHADOW)
    rrect(w * 0.03, -h * 0.025, w, h, radius(w))


def back(w: float, h: float) -> None:
    """The card's back: a framed lattice."""
    shadow(w, h)
    r = radius(w)
    Color(*CARD)
    rrect(0, 0, w, h, r)
    m = w * 0.07
    Color(*GOLD)
    rrect(m, m, w - 2 * m, h - 2 * m, r * 0.6)
    g = m + max(1.0, w * 0.02)
    Color(1, 1, 1, 1)
    tex = lattice()
    reps_x, reps_y = (w - 2 * g) / (w * 0.16), (h - 2 * g) / (w * 0.16)
    Rectangle(
        texture=tex,
        pos=(g, g),
        size=(w - 2 * g, h - 2 * g),
        tex_coords=(0, 0, reps_x, 0, reps_x, reps_y, 0, reps_y),
    )


def slot(w: float, h: float, marker: str = "", selected: bool = False) -> None:
    """Where a card will be dealt: a darker place on the felt (gold-rimmed when chosen) and a
    location mark."""
    r = radius(w)
    if selected:
        frame(0, 0, w, h, r, max(2.0, w * 0.04), GOLD, SLOT_CHOSEN)
    else:
        frame(0, 0, w, h, r, max(1.0, w * 0.015), SLOT_EDGE, SLOT)
    if marker:
        Color(*marker_colour(selected))
        text.draw(marker, w / 2, h / 2, marker_size(w, h), anchor="c")


def marker_colour(selected: bool) -> RGBA:
    """A position's number: cream, chosen or not (8:1 on the slot, 6:1 on a chosen one, whose
    gold rim marks it; cream at 60 % was 4.0:1 and gold on a chosen slot 4.47:1)."""
    return CREAM


def marker_size(w: float, h: float) -> float:
    """The font size of a position's number in a slot ``w`` x ``h``: at least
    :func:`least_index`, at most what the slot holds."""
    return min(max(h * 0.28, least_index()), w * 0.8)


def least_index() -> float:
    """The least font size of a card's index and a position's number, in window pixels: the
    player's least text size (capitals 16 px at 800x480, decision 0018) scaled as the running
    app scales its screen (``app.u``; 1 outside an app)."""
    from kivy.app import App

    app = App.get_running_app()
    return float(TEXT) * float(getattr(app, "u", 1.0) or 1.0)


def index_size(w: float, h: float) -> float:
    """The font size of the corner index of a card ``w`` x ``h``: a fifth of its height, never
    less than :func:`least_index` (a small card shows one large index, see :func:`face`)."""
    return max(h * 0.19, least_index())


def compact(w: float, h: float) -> bool:
    """Whether a card this small is drawn with one large index (top left) and no second
    corner: a fifth of its height would be smaller than :func:`least_index`."""
    return h * 0.19 < least_index()


def _corner(card: CardFace, w: float, h: float) -> None:
    size = h * 0.19
    tw, th = text.draw(card.rank, w * 0.07, h - h * 0.035, size, anchor="tl")
    pip = w * 0.19
    x = w * 0.07 + (tw - pip) / 2 if tw > pip else w * 0.07
    paint.suit(card.suit, x, h - h * 0.05 - th - pip, pip)


def _compact_index(card: CardFace, w: float, h: float) -> float:
    """The large index of a small card: its rank top left at :func:`index_size`, the suit
    beside it when it fits, else under it; returns how far down the index reaches."""
    margin = max(2.0, w * 0.06)
    size = index_size(w, h)
    for _ in range(12):  # a card too small even for that (a thumbnail): as large as it holds
        tw, th = text.texture(card.rank, round(size)).size
        beside = w - 2 * margin - tw - margin * 0.5 >= th * 0.62
        if tw <= w - 2 * margin + 1 and th * (1.0 if beside else 1.62) + margin <= h:
            break
        size *= 0.88
    tw, th = text.draw(card.rank, margin, h - margin * 0.5, size, anchor="tl")
    top = h - margin * 0.5
    beside = w - 2 * margin - tw - margin * 0.5
    pip = th * 0.62
    if beside >= pip:
        paint.suit(card.suit, w - margin - pip, top - th * 0.16 - pip, pip)
        return th + margin * 0.5
    pip = min(pip, w - 2 * margin)
    paint.suit(card.suit, margin + max(0.0, (tw - pip) / 2), top - th - pip, pip)
    return th + pip + margin * 0.5


def face(card: CardFace, w: float, h: float, icon: str = "") -> None:
    """The face of ``card``; suit-S cards of a Turbo edition carry their icons instead of the
    big pip, framed in gold.  A card too small for a fifth of its height to read
    (:func:`compact`) shows one large index and its picture under it."""
    shadow(w, h)
    frame(0, 0, w, h, radius(w), 1.0, CARD_EDGE, CARD)
    ink = paint.suit_colour(card.suit)
    if compact(w, h):
        Color(*ink)
        used = _compact_index(card, w, h)
        _compact_picture(card, icon, w, h - used, ink)
        return
    Color(*ink)
    _corner(card, w, h)
    PushMatrix()
    Rotate(angle=180, origin=(w / 2, h / 2))
    Color(*ink)
    _corner(card, w, h)
    PopMatrix()
    if card.icons and icon:
        _icons(card.icons, icon, w, h)
    elif card.rank in COURT:
        frame(w * 0.24, h * 0.2, w * 0.52, h * 0.6, 0, max(1.0, w * 0.02), COURT_FRAME, CARD)
        Color(*ink)
        text.draw(card.rank, w / 2, h * 0.56, h * 0.3, anchor="c")
        pip = w * 0.22
        paint.suit(card.suit, w / 2 - pip / 2, h * 0.25, pip)
    else:
        pip = w * 0.46
        paint.suit(card.suit, w / 2 - pip / 2, h / 2 - pip / 2, pip)


def _compact_picture(card: CardFace, icon: str, w: float, room: float, ink: RGBA) -> None:
    """The picture of a small card in the ``room`` left under its index: its icons (how many
    as drawn), or its suit (gold-framed on a court card)."""
    if room < w * 0.3:
        return  # the index is the whole card
    side = min(w * 0.8, room * 0.86)
    x, y = (w - side) / 2, (room - side) / 2
    if card.icons and icon:
        frame(x, y, side, side, side * 0.1, max(1.0, side * 0.04), GOLD, CARD)
        n = card.icons
        s = side * (0.7 if n == 1 else 0.44)
        cells = [(0.5, 0.5)] if n == 1 else [(0.28, 0.5), (0.72, 0.5)]
        if n > 2:
            cells = [(0.28, 0.72), (0.72, 0.72), (0.28, 0.28), (0.72, 0.28)][:n]
        for cx, cy in cells:
            paint.icon(icon, x + cx * side - s / 2, y + cy * side - s / 2, s)
        return
    if card.rank in COURT:
        frame(x, y, side, side, 0, max(1.0, side * 0.04), COURT_FRAME, CARD)
    pip = side * 0.7
    paint.suit(card.suit, (w - pip) / 2, y + (side - pip) / 2, pip, ink)


def _icons(count: int, icon: str, w: float, h: float) -> None:
    frame(w * 0.25, h * 0.2, w * 0.5, h * 0.6, w * 0.06, max(1.0, w * 0.022), GOLD, CARD)
    cx, cy = w / 2, h / 2
    if count == 1:
        s = w * 0.42
        spots = [(cx, cy)]
    elif count == 2:
        s = w * 0.36
        spots = [(cx, cy + h * 0.13), (cx, cy - h * 0.13)]
    else:
        s = w * 0.22
        dx, dy = w * 0.11, h * 0.13
        spots = [(cx - dx, cy + dy), (cx + dx, cy + dy), (cx - dx, cy - dy), (cx + dx, cy - dy)]
    for x, y in spots:
        paint.icon(icon, x - s / 2, y - s / 2, s)


def highlight(w: float, h: float) -> None:
    """A gold rim round a dealt card that belongs to the player's hand (drawn under it)."""
    edge = max(2.0, w * 0.045)
    Color(*GOLD)
    rrect(-edge, -edge, w + 2 * edge, h + 2 * edge, radius(w) + edge)
