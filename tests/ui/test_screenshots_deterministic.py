"""The screenshots are deterministic (issue 13): a fixed clock, seeded validation numbers and
attract mode's invitation held bright, so taking them again changes no file unless a screen
changed; ``--size`` is bounded."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from kiosk.terminal.app.kiosk import build_app
from kiosk.tools.tour import tour_terminal
from tests.helpers.cli_process import turbokiosk
from ui.terminal.driver import Driver
from ui.terminal.screens.attract import BLINK_SECONDS


def _attract_and_voucher(data_dir: Path) -> tuple[bytes, bytes, str]:
    """Attract mode (after a blink's time) and a cash-out voucher, as a screenshot visit
    draws them: their PNG bytes and the voucher's validation number."""
    tour = tour_terminal(data_dir, fixed=True)
    app: Any = build_app(tour.terminal, show_simulator=False, speed=0.15, clock=tour.player_clock)
    driver = Driver(app, (800, 480))
    try:
        app.root.ids.sm.get_screen("attract").freeze()
        driver.settle()
        end = time.monotonic() + 1.5 * BLINK_SECONDS
        while time.monotonic() < end:
            driver.frames(1)
        attract = driver.frame().png()
        driver.tap_at(400, 240)
        app.root.ids.sim.act("note", 2000)
        driver.frames(3)
        driver.tap("cash_out")
        driver.settle()
        voucher = driver.frame().png()
        number = app.session.voucher().validation_text
    finally:
        driver.close()
        tour.terminal.runtime.close()
    return attract, voucher, number


def test_the_same_visit_draws_the_same_bytes(tmp_path: Path) -> None:
    first = _attract_and_voucher(tmp_path / "first")
    time.sleep(1.1)  # the wall clock moves on; the visit's does not
    second = _attract_and_voucher(tmp_path / "second")
    assert first[2] == second[2]  # the seeded validation number
    assert first[0] == second[0], "attract mode differs between two renderings"
    assert first[1] == second[1], "the voucher differs between two renderings"


def test_screenshots_refuse_a_size_out_of_range_in_one_line(tmp_path: Path) -> None:
    for size, said in (
        ("100000x100000", "the largest supported size is 7680x4320"),
        ("320x200", "the smallest supported size is 640x400"),
        ("big", "a size is WIDTHxHEIGHT"),
    ):
        result = turbokiosk("screenshots", "--out", str(tmp_path / "out"), "--size", size)
        assert result.returncode == 2
        (line,) = result.stderr.strip().splitlines()
        assert said in line, line
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_taking_the_screenshots_twice_changes_no_file(tmp_path: Path) -> None:
    env = {"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy"}
    for name in ("a", "b"):
        run = turbokiosk(
            "screenshots", "--out", str(tmp_path / name), "--size", "800x480", env=env, timeout=600
        )
        assert run.returncode == 0, run.stderr[-2000:]
    first = sorted((tmp_path / "a").rglob("*.png"))
    assert len(first) > 20
    for path in first:
        again = tmp_path / "b" / path.relative_to(tmp_path / "a")
        assert again.read_bytes() == path.read_bytes(), path.name
