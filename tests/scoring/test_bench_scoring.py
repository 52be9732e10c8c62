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

from kiosk.scoring import count_icons, score_turbo
from tests.micropython.bench_payload import SUIT, empty, make_hands, naive_count_icons, score_all

pytestmark = pytest.mark.bench

HANDS = make_hands()
SCORERS = {
    "empty": empty,
    "naive": naive_count_icons,
    "count_icons": count_icons,
    "score_turbo": score_turbo,
}
RESULTS: dict[str, tuple[float, float]] = {}
"""Scorer name -> (min, median) ns per hand, filled as the benchmarks run."""


@pytest.mark.parametrize("name", list(SCORERS))
def test_ns_per_hand(benchmark: Any, name: str) -> None:
    scorer = SCORERS[name]
    benchmark.group = f"icon scoring: {len(HANDS)} nine-card hands per round"
    benchmark(score_all, scorer, HANDS, SUIT)
    if benchmark.stats is not None:  # None under --benchmark-disable
        stats = benchmark.stats.stats
        RESULTS[name] = (stats.min * 1e9 / len(HANDS), stats.median * 1e9 / len(HANDS))


def ratio_table() -> list[str]:
    """The ratio table, once every scorer has been timed in this run."""
    if set(RESULTS) != set(SCORERS):
        return []
    floor_min, floor_median = RESULTS["empty"]
    naive_min, naive_median = RESULTS["naive"]
    lines = [
        f"icon scoring hot path, CPython, ns per 9-card hand ({len(HANDS)} hands per round)",
        f"{'scorer':<12} {'min':>9} {'median':>9} {'x empty':>9} {'x empty':>9} "
        f"{'naive/x':>9} {'naive/x':>9}",
        f"{'':<12} {'':>9} {'':>9} {'(min)':>9} {'(median)':>9} {'(min)':>9} {'(median)':>9}",
    ]
    for name in SCORERS:
        low, middle = RESULTS[name]
        lines.append(
            f"{name:<12} {low:9.1f} {middle:9.1f} {low / floor_min:9.2f} "
            f"{middle / floor_median:9.2f} {naive_min / low:9.2f} {naive_median / middle:9.2f}"
        )
    lines.append("goals: count_icons naive/x >= 2.5 and x empty <= 4; score_turbo x empty <= 12")
    return lines
