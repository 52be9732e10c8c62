"""Screenshots of every screen at every supported size, from the scripted visit
(:mod:`kiosk.tools.tour`).

Run through ``turbokiosk screenshots --out docs/screenshots`` (headless; a few minutes).  The
visit is deterministic: the clocks stand still (``kiosk.tools.tour.TOUR_EPOCH_MS``, times shown
in UTC), validation numbers come from a fixed seed and attract mode's invitation is held
bright, so taking the screenshots again changes no file unless a screen changed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SIZES: tuple[tuple[int, int], ...] = ((800, 480), (1920, 1080))


def take(out: Path, sizes: Sequence[tuple[int, int]] = SIZES, speed: float = 0.25) -> list[Path]:
    """Write ``out/WxH/NN-name.png`` for every screen of the visit; the files written.

    A Kivy window keeps the size it was opened with, so each further size is taken by a
    fresh process (``python -m kiosk screenshots --size WxH``).
    """
    if len(sizes) > 1:
        written: list[Path] = []
        for size in sizes:
            command = [sys.executable, "-m", "kiosk", "screenshots", "--out", str(out)]
            result = subprocess.run(
                [*command, "--size", f"{size[0]}x{size[1]}"],
                check=True,
                capture_output=True,
                text=True,
            )
            written += [Path(line) for line in result.stdout.split()]
        return written
    return _take_here(out, sizes[0], speed)


def _take_here(out: Path, size: tuple[int, int], speed: float) -> list[Path]:
    from ui.terminal import env

    os.environ["TZ"] = "UTC"  # the voucher's and the history's times, the same anywhere
    time.tzset()
    env.prepare(size, headless=True)
    from kiosk.terminal.app.kiosk import build_app
    from kiosk.tools.tour import tour_terminal, visit
    from ui.terminal import capture
    from ui.terminal.driver import Driver

    written: list[Path] = []
    folder = out / f"{size[0]}x{size[1]}"
    with tempfile.TemporaryDirectory(prefix="turbokiosk-shots-") as tmp:
        tour = tour_terminal(Path(tmp), fixed=True)
        app = build_app(
            tour.terminal,
            show_simulator=False,
            speed=speed,
            clock=tour.player_clock,
            table_status=tour.table,
        )
        driver = Driver(app, size)
        app.root.ids.sm.get_screen("attract").freeze()  # the invitation bright

        def shot(name: str) -> None:
            driver.frames(2)
            written.append(capture.save_png(folder / f"{name}.png", still_frame(driver)))

        import ui.terminal.app

        shown = ui.terminal.app.VOUCHER_SHOWN_SECONDS
        # the visit touches the voucher away itself: on a loaded machine the voucher's own
        # 2.5 s (at this speed) ran out while its picture waited for a still frame
        ui.terminal.app.VOUCHER_SHOWN_SECONDS = 3600.0
        try:
            visit(driver, tour, shot)
        finally:
            ui.terminal.app.VOUCHER_SHOWN_SECONDS = shown
            driver.close()
            tour.terminal.runtime.close()
    return written


#: how long a screenshot waits for the screen to stop moving (a list's scroll settling)
STILL_SECONDS = 15.0
#: how long the screen must stay unchanged to count as still: Kivy's scroll views fade their
#: bar out half a second after a scroll, over half a second
STILL_FOR_SECONDS = 1.2


def still_frame(driver: Any) -> Any:
    """The screen once it has stayed the same for :data:`STILL_FOR_SECONDS`: what moves with
    real time (a scroll to the help's pay tables, a scroll bar fading) has come to rest,
    however loaded the machine (a frame taken while it moved differed from one run to the
    next)."""
    frame = driver.frame()
    since = time.monotonic()
    deadline = since + STILL_SECONDS
    while time.monotonic() < deadline:
        driver.frames(1)
        again = driver.frame()
        if again.data != frame.data:
            frame, since = again, time.monotonic()
        elif time.monotonic() - since >= STILL_FOR_SECONDS:
            return frame
    raise RuntimeError(f"the screen kept moving for {STILL_SECONDS:.0f} s")
