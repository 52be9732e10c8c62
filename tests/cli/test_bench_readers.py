"""Benchmark: what asking power-up's question costs ``turbokiosk meters`` (decision 0040).

On one store (a robot's games), the reader as it is now (the store verified as power-up would,
then the figures) against the figures alone (main's reader), alternated in one run so that
both see the same machine load.  Reported as a ratio; run with ``tox -e bench``.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

import pytest

from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.robot import Robot
from kiosk.terminal.store.journal import Journal
from kiosk.terminal.store.reader import created_at, current_state, open_readonly
from kiosk.terminal.textui.records import meters_text, period_meters_since, run_on_store

pytestmark = pytest.mark.bench
GAMES = 400
ROUNDS = 7


def played(data_dir: Path) -> int:
    terminal = build_terminal(data_dir)
    try:
        assert terminal.runtime.power_up().critical is None
        robot = Robot(
            terminal.runtime,
            terminal.simulated.validator,
            terminal.simulated.printer,
            random.Random(4),
        )
        while robot.stats.games < GAMES:
            robot.play_game()
        return terminal.runtime.journal.head()[0]
    finally:
        terminal.close()


def test_meters_with_the_power_up_check_against_the_figures_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "terminal"
    rows = played(data_dir)

    def show(journal: Journal) -> int:  # what `turbokiosk meters` prints
        view = current_state(journal)
        since = period_meters_since(journal, created_at(journal))
        meters_text(view.state, view.seq, since, data_dir)
        return 0

    def checked() -> float:
        t0 = time.perf_counter()
        assert run_on_store("meters", data_dir, show) == 0
        return time.perf_counter() - t0

    def alone() -> float:
        t0 = time.perf_counter()
        with open_readonly(data_dir) as journal:
            show(journal)
        return time.perf_counter() - t0

    with_check, without = [], []
    for _ in range(ROUNDS):
        with_check.append(checked())
        without.append(alone())
    a, b = statistics.median(with_check), statistics.median(without)
    with capsys.disabled():
        print(
            f"\nmeters on {rows} journal rows ({GAMES} games): with power-up's check "
            f"{a * 1000:.1f} ms, figures alone {b * 1000:.1f} ms: {a / b:.1f}x"
        )
    assert a > 0 and b > 0
