"""The scoring benchmark's hands, scorers, timings and ratio table (scoring/conftest.py)."""

from __future__ import annotations

from kiosk.kernel.scoring import count_icons, score_turbo
from tests.micropython.bench_payload import empty, make_hands, naive_count_icons

HANDS = make_hands()


SCORERS = {
    "empty": empty,
    "naive": naive_count_icons,
    "count_icons": count_icons,
    "score_turbo": score_turbo,
}


RESULTS: dict[str, tuple[float, float]] = {}
"""Scorer name -> (min, median) ns per hand, filled as the benchmarks run."""


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
