"""CPython benchmark of the hot path: ns per 9-card hand against the naive scorer and the floor.

Every round scores the same 1000 pseudo-random 9-card hands (tests/micropython/bench_payload.py,
shared with the MicroPython benchmark), so per-call harness overhead is one loop step, the same
for every scorer, and the hands vary as in play.  Ratios, not timed assertions: the table is
printed at the end of the run (tests/scoring/conftest.py).  Run with ``tox -e bench`` or
``pytest -m bench --benchmark-enable --benchmark-only tests/scoring``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.scoring_bench import HANDS, RESULTS, SCORERS
from tests.micropython.bench_payload import SUIT, score_all

pytestmark = pytest.mark.bench

"""Scorer name -> (min, median) ns per hand, filled as the benchmarks run."""


@pytest.mark.parametrize("name", list(SCORERS))
def test_ns_per_hand(benchmark: Any, name: str) -> None:
    scorer = SCORERS[name]
    benchmark.group = f"icon scoring: {len(HANDS)} nine-card hands per round"
    benchmark(score_all, scorer, HANDS, SUIT)
    if benchmark.stats is not None:  # None under --benchmark-disable
        stats = benchmark.stats.stats
        RESULTS[name] = (stats.min * 1e9 / len(HANDS), stats.median * 1e9 / len(HANDS))
