"""Legibility of the rendered screen: every visible label's capital height, contrast and fit.

Measured on the real app, from what it draws (docs/ui.md, "Legibility", and decision 0018):

- **capital height**: the label's ``font_size`` times its font's capital height per pixel of
  font size, itself measured once per font by rendering an ``H`` and counting the rows of ink;
- **contrast**: the WCAG ratio between the label's colour (its alpha and every ancestor's
  opacity blended over the background) and the background under each of its glyph pixels.
  The frame is rendered twice, once as shown and once with every label's text made
  transparent: the pixels that differ are the glyphs, the second frame is what they are drawn
  on.  The label's figure is the 5th percentile over its glyph pixels (a glyph edge over a
  card corner does not fail it; text drawn over a chip does);
- **fit**: Kivy did not shorten it ("…"), no word is wider than the label's text width (Kivy
  would break it across lines), and the text laid out at that width is neither wider nor
  taller than its box — so no line was dropped and none spills out.

A label is checked when it has text, is not fully transparent, lies on the window and is not
under an overlay that covers it (a lockup covering the table hides the table from the player;
a notice shows over the guide line for a few seconds).  The SIMULATOR panel is a developer's
device panel, not the player's screen.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from kivy.animation import Animation
from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.stencilview import StencilView
from kivy.uix.widget import Widget

from ui.terminal import capture
from ui.terminal.widgets.overlays import Cover, NoticeToast

#: the least capital height, in pixels at 800x480 (3 mm on a 7-inch 133 ppi panel)
MIN_CAP_PX = 16.0
#: the least contrast ratio (WCAG 2 AA for normal text)
MIN_CONTRAST = 4.5
#: glyph pixels: where the two renderings differ by more than this (sum of RGB)
_INK = 24
_PERCENTILE = 5


@dataclass(frozen=True)
class Reading:
    """One label as measured."""

    where: str  # the screen and the widget's path
    text: str
    cap_px: float
    need_cap_px: float
    contrast: float | None  # None: no glyph pixel of it on the window (scrolled away)
    cut: str  # "" or why the text is cut off

    def problems(self) -> list[str]:
        """What fails the rules (empty: it passes)."""
        out = []
        if self.cap_px + 0.25 < self.need_cap_px:
            out.append(f"capitals {self.cap_px:.1f} px < {self.need_cap_px:.1f}")
        if self.contrast is not None and self.contrast < MIN_CONTRAST:
            out.append(f"contrast {self.contrast:.2f}:1")
        if self.cut:
            out.append(self.cut)
        return out

    def __str__(self) -> str:
        return f"{self.where} {self.text!r}: {', '.join(self.problems()) or 'ok'}"


def relative_luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG 2 relative luminance of sRGB colours (last axis: r, g, b in 0..1)."""
    c = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    result: np.ndarray = c[..., 0] * 0.2126 + c[..., 1] * 0.7152 + c[..., 2] * 0.0722
    return result


def contrast_ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """WCAG contrast ratio of colours ``a`` and ``b`` (1 to 21)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    result: np.ndarray = (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)
    return result


@cache
def cap_ratio(font_name: str, bold: bool, italic: bool) -> float:
    """A font's capital height per pixel of font size, measured from an ``H`` it renders."""
    size = 200
    label = CoreLabel(text="H", font_size=size, font_name=font_name, bold=bold, italic=italic)
    label.refresh()
    texture = label.texture
    alpha = np.frombuffer(texture.pixels, dtype=np.uint8).reshape(texture.height, texture.width, 4)
    rows = np.nonzero(alpha[:, :, 3].max(axis=1) > 127)[0]
    return float(rows.max() - rows.min() + 1) / size


def _opacity(widget: Widget) -> float:
    value = 1.0
    w: Any = widget
    while w is not None and w is not w.parent:
        value *= float(w.opacity)
        w = w.parent
    return value


def _rect(widget: Widget) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def _inside(widget: Widget, ancestor: Widget) -> bool:
    w: Any = widget
    while w is not None:
        if w is ancestor:
            return True
        w = w.parent if w.parent is not w else None
    return False


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _in_scroll(widget: Widget) -> bool:
    w: Any = widget.parent
    while w is not None and w is not w.parent:
        if isinstance(w, ScrollView):
            return True
        w = w.parent
    return False


def _clip(widget: Widget) -> tuple[float, float, float, float] | None:
    """The window area a widget can show in (stencils and scroll views clip)."""
    box: tuple[float, float, float, float] | None = None
    w: Any = widget.parent
    while w is not None and w is not w.parent:
        if isinstance(w, StencilView | ScrollView):
            r = _rect(w)
            box = (
                r
                if box is None
                else (max(box[0], r[0]), max(box[1], r[1]), min(box[2], r[2]), min(box[3], r[3]))
            )
        w = w.parent
    return box


def labels(app: Any) -> Iterator[Label]:
    """The player's labels that could be seen now (text, not transparent, on the window, not
    under a covering overlay)."""
    from kivy.core.window import Window

    player = app.root.ids.player
    covers: list[Widget] = [c for c in app.root.ids.overlays.children if isinstance(c, Cover)]
    covers += [
        w for w in player.walk(restrict=True) if isinstance(w, NoticeToast) and w.opacity > 0
    ]
    for widget in player.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text.strip():
            continue
        if _opacity(widget) < 0.02 or widget.width < 1 or widget.height < 1:
            continue
        rect = _rect(widget)
        if not _in_scroll(widget) and not _overlaps(rect, (0, 0, *Window.size)):
            continue
        if any(_overlaps(rect, _rect(c)) and not _inside(widget, c) for c in covers):
            continue
        yield widget


def _path(widget: Widget, screen: str) -> str:
    parts: list[str] = []
    w: Any = widget
    while w is not None and w is not w.parent and len(parts) < 4:
        name = getattr(w, "tk_name", "") or getattr(w, "name", "")
        parts.append(f"{type(w).__name__}[{name}]" if name else type(w).__name__)
        w = w.parent
    return f"{screen}: " + "/".join(reversed(parts))


def _natural_size(label: Label) -> tuple[float, float]:
    """The label's text laid out at its own text width, never shortened."""
    width = label.text_size[0]
    options = {
        "text": label.text,
        "font_size": label.font_size,
        "font_name": label.font_name,
        "bold": label.bold,
        "italic": label.italic,
        "halign": label.halign,
        "valign": "top",
        "padding": label.padding,
        "line_height": label.line_height,
        "markup": label.markup,
        "text_size": (width, None),
    }
    core = CoreLabel(**options)
    core.refresh()
    w, h = core.texture.size if core.texture is not None else (0, 0)
    return float(w), float(h)


def cut_off(label: Label) -> str:
    """Why a label's text does not show whole in its box ("" when it does)."""
    if label.is_shortened:
        return "shortened"
    width = label.text_size[0]
    if width is not None:
        measure = CoreLabel(font_size=label.font_size, font_name=label.font_name, bold=label.bold)
        room = width - label.padding[0] - label.padding[2]
        for word in label.text.split():
            if measure.get_extents(word)[0] > room + 1:
                return f"the word {word!r} is broken across lines"
    width, height = _natural_size(label)
    if width > label.width + 1.5:
        return f"wider than its box ({width:.0f} > {label.width:.0f} px)"
    if height > label.height + 1.5:
        return f"taller than its box ({height:.0f} > {label.height:.0f} px)"
    return ""


def _text_colour(label: Label) -> tuple[np.ndarray, float]:
    colour = label.disabled_color if label.disabled else label.color
    return np.array(colour[:3], dtype=float), float(colour[3]) * _opacity(label)


def read(app: Any, screen: str) -> list[Reading]:
    """Measure every visible label of the app as it is drawn now."""
    return measure(list(labels(app)), screen, MIN_CAP_PX * float(app.u))


def measure(found: list[Label], screen: str, need_cap_px: float) -> list[Reading]:
    """Measure the labels ``found`` as drawn now: each frame drawn with and without their text
    gives its contrast; ``need_cap_px`` is the least capital height allowed."""
    texts = [w.text for w in found]
    shown = capture.render()
    saved = [(w, list(w.color), list(w.disabled_color)) for w in found]
    for w, colour, disabled in saved:
        w.color = [*colour[:3], 0]
        w.disabled_color = [*disabled[:3], 0]
    try:
        bare = capture.render()
    finally:
        for w, colour, disabled in saved:
            w.color, w.disabled_color = colour, disabled
        capture.render()
    fg = np.frombuffer(shown.data, dtype=np.uint8).reshape(shown.height, shown.width, 3)
    bg = np.frombuffer(bare.data, dtype=np.uint8).reshape(bare.height, bare.width, 3)
    out = []
    # a label whose text changed while the two frames were drawn (a notice that expired) is
    # not what either frame shows: left for the next screen
    for w in [w for w, before in zip(found, texts, strict=True) if w.text == before]:
        ratio = cap_ratio(w.font_name, bool(w.bold), bool(w.italic))
        out.append(
            Reading(
                where=_path(w, screen),
                text=w.text,
                cap_px=float(w.font_size) * ratio,
                need_cap_px=need_cap_px,
                contrast=_contrast(w, fg, bg),
                cut=cut_off(w),
            )
        )
    return out


def _contrast(label: Label, fg: np.ndarray, bg: np.ndarray) -> float | None:
    height, width = fg.shape[:2]
    x0, y0, x1, y1 = _rect(label)
    clip = _clip(label)
    if clip is not None:
        x0, y0, x1, y1 = max(x0, clip[0]), max(y0, clip[1]), min(x1, clip[2]), min(y1, clip[3])
    # the texture may overflow the box: look at the texture's own area too
    tw, th = label.texture_size
    cx, cy = label.to_window(*label.center)
    x0, x1 = min(x0, cx - tw / 2), max(x1, cx + tw / 2)
    y0, y1 = min(y0, cy - th / 2), max(y1, cy + th / 2)
    if clip is not None:
        x0, y0, x1, y1 = max(x0, clip[0]), max(y0, clip[1]), min(x1, clip[2]), min(y1, clip[3])
    xa, xb = max(0, int(x0)), min(width, int(np.ceil(x1)))
    ya, yb = max(0, int(y0)), min(height, int(np.ceil(y1)))
    if xa >= xb or ya >= yb:
        return None
    f = fg[ya:yb, xa:xb].astype(int)
    b = bg[ya:yb, xa:xb].astype(int)
    ink = np.abs(f - b).sum(axis=2) > _INK
    if not ink.any():
        return None
    under = b[ink] / 255.0
    colour, alpha = _text_colour(label)
    drawn = colour * alpha + under * (1 - alpha)
    return float(np.percentile(contrast_ratio(drawn, under), _PERCENTILE))


def summary(readings: list[Reading]) -> dict[str, float | int]:
    """Smallest capital height (in 800x480 pixels), lowest contrast, labels cut off."""
    contrasts = [r.contrast for r in readings if r.contrast is not None]
    return {
        "labels": len(readings),
        "min_cap_px": min((r.cap_px * MIN_CAP_PX / r.need_cap_px for r in readings), default=0),
        "min_contrast": min(contrasts, default=0.0),
        "cut_off": sum(1 for r in readings if r.cut),
        "failing": sum(1 for r in readings if r.problems()),
    }


def walk(kiosk: Any, size: tuple[int, int], language: str) -> list[Reading]:
    """Every screen of the scripted visit (:func:`kiosk.tools.tour.visit`: attract, menu, betting,
    the decision, results, help, history, lockups, the voucher, the reminder) at ``size`` in
    ``language`` (the visit itself switches language once, for two screens), and the Stadium
    rows-and-columns tab after its result; the readings of them all."""
    from kivy.core.window import Window

    from kiosk.tools.tour import visit

    d = kiosk.driver
    kiosk.app.session.clock = kiosk.tour.player_clock  # the visit moves the session clock on
    if tuple(Window.size) != size:
        Window.size = size
        d.frames(4)
    if language != kiosk.app.session.language:
        kiosk.app.set_language(language)
        kiosk.app.refresh()
    readings: list[Reading] = []

    def shot(name: str) -> None:
        if kiosk.app.simulator_visible:
            return  # the developer's device panel, beside the player's screen
        screen = kiosk.app.root.ids.sm.current_screen
        if screen.name == "attract":  # held still at its faintest, so both frames agree
            screen.on_leave()  # stops its animation (or its blink)
            Animation.cancel_all(screen)
            screen.pulse = 0.35
        d.frames(2)
        readings.extend(read(kiosk.app, name))
        if name == "11-stadium-result":
            d.tap("tab:lines")
            readings.extend(read(kiosk.app, name + "-lines"))
            d.tap("tab:hand")
        if d.screen == "help":
            scroller = kiosk.app.root.ids.sm.current_screen.ids.scroller
            scroller.scroll_y = 0
            d.frames(3)
            readings.extend(read(kiosk.app, name + "-end"))
            scroller.scroll_y = 1
            d.frames(2)

    import ui.terminal.app

    shown = ui.terminal.app.VOUCHER_SHOWN_SECONDS
    ui.terminal.app.VOUCHER_SHOWN_SECONDS = 3600.0  # measuring takes longer than the voucher stays
    try:
        visit(d, kiosk.tour, shot)
    finally:
        ui.terminal.app.VOUCHER_SHOWN_SECONDS = shown
    return readings
