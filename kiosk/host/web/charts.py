"""Bar charts drawn on the server as SVG: no script, no library, nothing fetched."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from kiosk.kernel.money_text import dollars

WIDTH, HEIGHT = 760, 220
LEFT, RIGHT, TOP, BOTTOM = 78, 12, 28, 34


@dataclass(frozen=True)
class Bar:
    """One bar: its label under the axis and its value (cents, may be negative)."""

    label: str
    value: int


def hour_label(hour_ms: int) -> str:
    """``14h`` for an hour starting at ``hour_ms`` (local time)."""
    return time.strftime("%Hh", time.localtime(hour_ms / 1000))


def _nice_step(span: int) -> int:
    """A round step (1, 2 or 5 times a power of ten) for about four ticks over ``span``."""
    target = max(1, -(-span // 4))
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= target:
                return step * factor
        step *= 10


def axis(values: Sequence[int]) -> tuple[int, int, int]:
    """(bottom, top, step) of a value axis through zero, its ends on round steps."""
    high, low = max([0, *values]), min([0, *values])
    step = _nice_step(max(high - low, 100))
    bottom = low // step * step
    top = -(-high // step) * step
    return bottom, max(top, bottom + step), step


def bar_chart(title: str, bars: Sequence[Bar], css_class: str) -> Markup:
    """An SVG bar chart of money per bar, with a zero line, gridlines and labels."""
    low, top, step = axis([b.value for b in bars])
    span = top - low
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y(value: int) -> float:
        return TOP + plot_h * (top - value) / span

    parts = [
        f'<svg class="chart {escape(css_class)}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"'
        f' aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f'<text class="title" x="{LEFT}" y="18">{escape(title)}</text>',
    ]
    for value in range(low, top + 1, step):
        ty = y(value)
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}"/>'
            f'<text class="tick" x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">'
            f"{escape(dollars(value))}</text>"
        )
    if bars:
        slot = plot_w / len(bars)
        every = max(1, len(bars) // 12)
        for i, bar in enumerate(bars):
            x = LEFT + i * slot + slot * 0.15
            y0, y1 = sorted((y(0), y(bar.value)))
            parts.append(
                f'<rect class="bar" x="{x:.1f}" y="{y0:.1f}" width="{slot * 0.7:.1f}"'
                f' height="{max(y1 - y0, 0.5):.1f}"><title>{escape(bar.label)}:'
                f" {escape(dollars(bar.value))}</title></rect>"
            )
            if i % every == 0:
                parts.append(
                    f'<text class="label" x="{x + slot * 0.35:.1f}" y="{HEIGHT - BOTTOM + 16}"'
                    f' text-anchor="middle">{escape(bar.label)}</text>'
                )
    parts.append(
        f'<line class="axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>'
    )
    parts.append("</svg>")
    return Markup("".join(parts))
