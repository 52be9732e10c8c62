"""``tox -e bench``: the simulator benchmark (tests/analysis/bench_simulate.py) at a small
scale, printing rounds a second and ratios against the bare loop and today's simulator
measured in the same run.  Nothing is asserted about time: the figures go to the report."""

from __future__ import annotations

import pytest

from tests.analysis import bench_simulate

pytestmark = pytest.mark.bench


def test_simulate_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    figures = bench_simulate.measure(0.1)
    with capsys.disabled():
        print()
        print(bench_simulate.render(figures))
    assert [f.rounds > 0 for f in figures] == [True] * len(figures)
