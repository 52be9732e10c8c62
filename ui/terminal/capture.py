"""What is on the screen, as pixels and as data: screenshots, pixel probes, the screen dump.

Pixels are read from the frame just drawn, before it is shown (``glReadPixels`` on the back
buffer between the window's draw and its flip), so what is read is exactly what is displayed.
"""

from __future__ import annotations

import json
import resource
import struct
import time
import zlib
from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

from kiosk.terminal.presentation.faces import CardFace


class Frame:
    """One rendered frame: RGB bytes, bottom row first (OpenGL's order)."""

    def __init__(self, width: int, height: int, data: bytes) -> None:
        self.width, self.height, self.data = width, height, data

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        """The colour at window coordinates (x, y), y up."""
        i = (y * self.width + x) * 3
        return self.data[i], self.data[i + 1], self.data[i + 2]

    def mean(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float]:
        """Mean colour of a window region (sampled every other pixel)."""
        total = [0, 0, 0]
        n = 0
        for py in range(int(y), int(y + h), 2):
            for px in range(int(x), int(x + w), 2):
                if 0 <= px < self.width and 0 <= py < self.height:
                    for k, v in enumerate(self.pixel(px, py)):
                        total[k] += v
                    n += 1
        return (total[0] / n, total[1] / n, total[2] / n) if n else (0.0, 0.0, 0.0)

    def png(self) -> bytes:
        """The frame as a PNG file (top row first)."""
        stride = self.width * 3
        rows = b"".join(
            b"\x00" + self.data[y * stride : (y + 1) * stride]
            for y in range(self.height - 1, -1, -1)
        )

        def chunk(kind: bytes, body: bytes) -> bytes:
            crc = zlib.crc32(kind + body) & 0xFFFFFFFF
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 6))
            + chunk(b"IEND", b"")
        )


def render() -> Frame:
    """Process pending work, draw a frame, read it back, then show it."""
    EventLoop.idle()
    Window.dispatch("on_draw")
    width, height = Window.size
    data = glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
    Window.dispatch("on_flip")
    return Frame(width, height, bytes(data))


def save_png(path: Path, frame: Frame | None = None) -> Path:
    """Write the current (or a given) frame to ``path``."""
    frame = frame or render()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(frame.png())
    return path


def _names(faces: tuple[CardFace | None, ...]) -> list[str | None]:
    return [f.name if f is not None else None for f in faces]


def dump(app: Any) -> dict[str, Any]:
    """What the player sees, as data: screen, meters, cards, prompt, lockup, voucher."""
    view = app.view()
    lockup = app.session.lockup()
    voucher = app.session.voucher()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    table = getattr(app, "table_view", None)  # a seat at a table: its bar (decision 0023)
    return {
        "screen": app.root.ids.sm.current,
        "edition": view.edition,
        "phase": view.phase,
        "game_number": view.game_number,
        "credit": view.credit_text,
        "wager": view.wager_text,
        "win": view.win_text,
        "first": _names(view.first),
        "own": _names(view.own),
        "dealer": _names(view.dealer),
        "positions": list(view.positions),
        "icon_count": view.icon_count,
        "offer": view.offer.prompt if view.offer is not None else None,
        "guide": view.guide_text,
        "lockup": lockup.title if lockup is not None else None,
        "lockup_reason": lockup.reason if lockup is not None else None,
        "lockup_detail": lockup.detail_text if lockup is not None else None,
        "voucher": voucher.amount_text if voucher is not None else None,
        "table": None
        if table is None
        else {
            "step": table.step.value,
            "headline": table.headline,
            "detail": table.detail,
            "seconds": table.seconds,
            "lost": table.lost,
        },
        "language": app.session.language,
        "size": list(Window.size),
        "max_rss_kb": usage.ru_maxrss,
        "time": time.time(),
    }


def write_dump(app: Any, path: Path, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write the dump (with ``extra`` fields) as JSON and the frame beside it as PNG."""
    data = {**dump(app), **(extra or {})}
    path.parent.mkdir(parents=True, exist_ok=True)
    save_png(path.with_suffix(".png"))
    path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    return data
