"""Speed of the kiosk on this machine's renderer: ``python -m kiosk.tools.bench --size WxH``.

Prints one JSON object: frames per second during the deal animation (with the product's 60 fps
cap, and uncapped to show the headroom), the same for an empty Kivy window drawing one
full-screen rectangle every frame (the renderer's floor, measured in the same process), the time
from a touch to the frame that shows its effect, and the process's peak resident memory after
the games.  Run headless (SDL offscreen, Mesa software GL) by ``tests/ui/test_bench_ui.py``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GAMES = 6  # deals timed per setting


def _deal_fps(driver: Any, tour: Any, rounds: int) -> list[float]:
    """Frames drawn per second from the touch on DEAL to the last card turned over."""
    from kiosk.tools.tour import STADIUM_CARDS, TURBO_CARDS

    app = driver.app
    results = []
    for i in range(rounds):
        stadium = i % 2 == 1
        driver.tap("games")
        driver.tap("game:stadium-3cp" if stadium else "game:turbo-football")
        if stadium:
            for position in (0, 4, 8):
                driver.tap(f"position:{position}")
        driver.tap("chip:100")
        driver.tap("spot:ante" if stadium else "spot:first_down")
        tour.script = STADIUM_CARDS if stadium else TURBO_CARDS
        frames, start = app.frames, time.perf_counter()
        driver.tap("deal")
        driver.wait(lambda: app.view().offer is not None, 20, "the decision")
        driver.wait(lambda: not app.dealing, 20, "the first deal")
        first = (app.frames - frames, time.perf_counter() - start)
        driver.tap("take")
        frames, start = app.frames, time.perf_counter()
        driver.wait(lambda: not app.dealing, 20, "the second deal")
        second = (app.frames - frames, time.perf_counter() - start)
        results.append((first[0] + second[0]) / (first[1] + second[1]))
    return results


def _touch_to_frame(driver: Any, samples: int) -> list[float]:
    """Milliseconds from a touch on a wager spot to the first frame shown with the chip on it.

    The spot's pixels are read from every frame just before it is shown (the window's flip).
    """
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    from ui.terminal.touch import ScriptedTouch

    driver.tap("games")
    driver.tap("game:turbo-football")
    if driver.app.view().can_clear:
        driver.tap("clear")
    driver.tap("chip:500")
    out = []
    for i in range(samples):
        spot = driver.widget("spot:long_pass" if i % 2 else "spot:field_goal")
        x, y = (int(v) for v in spot.to_window(spot.x, spot.y))
        w, h = int(spot.width), int(spot.height)
        shown: list[tuple[float, bytes]] = []

        def read(
            *_: object,
            x: int = x,
            y: int = y,
            w: int = w,
            h: int = h,
            shown: list[tuple[float, bytes]] = shown,
        ) -> None:
            pixels = glReadPixels(x, y, w, h, GL_RGB, GL_UNSIGNED_BYTE)
            shown.append((time.perf_counter(), bytes(pixels)))

        driver.frames(2)
        Window.bind(on_flip=read)
        EventLoop.idle()
        Window.canvas.ask_update()
        EventLoop.idle()
        before = shown[-1][1]
        cx, cy = spot.to_window(*spot.center)
        touch = ScriptedTouch(cx, cy)
        start = time.perf_counter()
        touch.down()
        touch.up()
        while not any(at > start and pixels != before for at, pixels in shown):
            if time.perf_counter() - start > 2:
                raise AssertionError("the touch never showed")
            EventLoop.idle()
        Window.unbind(on_flip=read)
        at = next(at for at, pixels in shown if at > start and pixels != before)
        out.append((at - start) * 1000)
    driver.tap("clear")
    return out


def _floor_fps(size: tuple[int, int], seconds: float = 2.0) -> float:
    """An empty Kivy window redrawing one full-screen rectangle every frame (same renderer)."""
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.graphics import Color, Rectangle
    from kivy.graphics.opengl import glFinish
    from kivy.uix.widget import Widget

    widget = Widget(size=size)
    with widget.canvas:
        Color(0.05, 0.42, 0.26, 1)
        rect = Rectangle(size=size)
    Window.add_widget(widget)
    frames, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        rect.pos = (frames % 2, 0)  # a change: the window redraws
        EventLoop.idle()
        glFinish()  # as the kiosk does offscreen: the frame is really drawn
        frames += 1
    Window.remove_widget(widget)
    return frames / (time.perf_counter() - start)


def measure(size: tuple[int, int]) -> dict[str, Any]:
    """Every figure at ``size`` (call in a fresh process: Kivy's window keeps its size)."""
    from ui.terminal import env

    env.prepare(size, headless=True, maxfps=60)
    from kivy.clock import Clock

    from kiosk.terminal.app.kiosk import build_app
    from kiosk.tools.tour import tour_terminal
    from ui.terminal import memory
    from ui.terminal.driver import Driver

    figures: dict[str, Any] = {"size": f"{size[0]}x{size[1]}"}
    with tempfile.TemporaryDirectory(prefix="turbokiosk-bench-") as tmp:
        tour = tour_terminal(Path(tmp))
        app = build_app(tour.terminal, show_simulator=False)
        driver = Driver(app, size)
        try:
            app.root.ids.sim.act("note", 10_000)
            driver.frames(3)
            driver.wait(lambda: driver.screen == "menu", 10, "the menu")
            capped = _deal_fps(driver, tour, GAMES)
            Clock._max_fps = 0  # uncapped: the renderer's headroom
            uncapped = _deal_fps(driver, tour, GAMES)
            Clock._max_fps = 60
            touches = _touch_to_frame(driver, 10)
            rss_after = memory.resident_mb()
        finally:
            driver.close()
            tour.terminal.runtime.close()
        Clock._max_fps = 60
        floor_capped = _floor_fps(size)
        Clock._max_fps = 0
        floor_uncapped = _floor_fps(size)
    figures.update(
        deal_fps=statistics.median(capped),
        deal_fps_min=min(capped),
        deal_fps_uncapped=statistics.median(uncapped),
        empty_window_fps=floor_capped,
        empty_window_fps_uncapped=floor_uncapped,
        touch_to_frame_ms=statistics.median(touches),
        touch_to_frame_ms_max=max(touches),
        peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        rss_after_games_mb=rss_after,
    )
    return figures


def main(argv: list[str] | None = None) -> int:
    """``python -m kiosk.tools.bench --size WxH``: the figures as JSON on standard output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="800x480")
    args = parser.parse_args(argv)
    from ui.terminal.env import parse_size

    print(json.dumps(measure(parse_size(args.size))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
