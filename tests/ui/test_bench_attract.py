"""Benchmark (``tox -e bench``): the kiosk's CPU at attract mode against an idle Kivy window
measured in the same run (``python -m kiosk.tools.bench_attract``; docs/performance.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from kiosk.tools.bench_attract import GOAL_PERCENT
from tests.helpers.cli_process import REPO


def _attract_bench() -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-m", "kiosk.tools.bench_attract", "--size", "800x480", "--seconds", "10"],
        cwd=REPO,
        env={**os.environ, "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    figures: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return figures


@pytest.mark.bench
def test_bench_attract_mode_cpu_against_an_idle_window(benchmark: Any) -> None:
    figures = benchmark.pedantic(_attract_bench, rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    print(json.dumps(figures, indent=1))
    assert figures["idle_window_cpu_percent"] > 0
    assert figures["kiosk_attract_cpu_percent"] <= GOAL_PERCENT, figures
