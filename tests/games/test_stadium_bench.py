"""Benchmarks of the Stadium exact computations, each beside a brute-force baseline measured in
the same run (pytest-benchmark prints the ratios).  Run with ``tox -e bench`` or
``pytest -m bench --benchmark-enable --benchmark-only tests/games/test_stadium_bench.py``.

* the full-information Play/Fold decision (inclusion–exclusion over the 9 seen cards) against a
  pass over the 12,341 dealer hands;
* the exact parts of the par sheet (ante/play over 407,170,400 hand pairs, Pairs Plus, the
  6-Card Bonus over 20,358,520 sets) against the numpy brute force of the ante/play counts.
"""

import random
from typing import Any

import pytest

from kiosk.kernel.analysis import stadium_par
from kiosk.kernel.games import stadium
from kiosk.kernel.games.stadium_advice import _tables
from tests.helpers.brute_force import brute_force_ante_play, brute_force_ev_play

pytestmark = pytest.mark.bench

RULES = stadium.load({})
ARRAYS = [random.Random(n).sample(range(52), 9) for n in range(50)]


def decide_all() -> None:
    for array in ARRAYS:
        stadium.optimal_play(RULES, array, (0, 1, 2))


def brute_force_all() -> None:
    for array in ARRAYS[:5]:
        brute_force_ev_play(array[:3], array, RULES.ante_bonus.pays)


def test_optimal_play_50_decisions(benchmark: Any) -> None:
    benchmark.group = "stadium play/fold decision"
    _tables()  # built once per process (about 0.1 s), as on the terminal
    benchmark(decide_all)


def test_baseline_brute_force_5_decisions(benchmark: Any) -> None:
    benchmark.group = "stadium play/fold decision"
    benchmark.pedantic(brute_force_all, rounds=3)


def exact_parts() -> None:
    rules = stadium.load({})
    stadium_par.ante_play_par(rules.ante_bonus)
    stadium_par.side_wager_par(rules.pairs_plus)
    stadium_par.side_wager_par(rules.six_card_bonus)


def test_exact_par_sheet_parts(benchmark: Any) -> None:
    benchmark.group = "stadium exact par sheet"
    benchmark.pedantic(exact_parts, setup=_tables.cache_clear, rounds=3)


def test_baseline_numpy_brute_force_ante_play(benchmark: Any) -> None:
    benchmark.group = "stadium exact par sheet"
    benchmark.pedantic(brute_force_ante_play, rounds=3)
