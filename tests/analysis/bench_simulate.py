"""Benchmark of ``turbokiosk simulate``'s vectorised path against two baselines measured in
the same run (docs/performance.md):

* the **bare loop**: one wager in plain Python, ``random.sample`` of 9 cards and nine table
  look-ups per round (the floor any per-round Python simulator stands on), one core;
* **today's simulator**: the reference path through the game's own ``settle``
  (:func:`kiosk.kernel.analysis.table_sim.simulate_turbo_table` /
  :func:`~kiosk.kernel.analysis.table_sim.simulate_stadium_table`), one core;

then the vectorised path (every wager of the game: for Stadium the seat's ante and play, Pairs
Plus and 6-Card Bonus and the 12 blind row and column wagers; today's Stadium simulator settles
the first three only) on one process and on every core, for Turbo Football and Stadium Three
Card Poker, with the time a billion rounds would take and the load
average (the machine is shared: ratios, not absolute figures, are what compare).

    python tests/analysis/bench_simulate.py [--scale X]     # X = 1: about a minute

``tox -e bench`` runs it at a small scale (tests/analysis/test_simulate_bench.py).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.kernel.analysis import fast_sim, stadium_table
from kiosk.kernel.analysis.table_math import TABLE
from kiosk.kernel.analysis.table_sim import simulate_stadium_table, simulate_turbo_table
from kiosk.kernel.games import stadium, turbo
from kiosk.kernel.scoring import ICONS_BY_RANK

BILLION = 1_000_000_000


@dataclass(frozen=True)
class Figure:
    """One measured rate."""

    name: str
    rounds: int
    seconds: float

    @property
    def rate(self) -> float:
        """Rounds a second."""
        return self.rounds / self.seconds


def bare_loop(rounds: int) -> int:
    """One icon wager in plain Python: 9 cards by ``random.sample``, nine look-ups."""
    icons = [ICONS_BY_RANK[c >> 2] if c & 3 == 0 else 0 for c in range(52)]
    sample = random.Random(1).sample
    deck = range(52)
    wins = 0
    for _ in range(rounds):
        a, b, c, d, e, f, g, h, i = sample(deck, 9)
        total = (icons[a] + icons[b] + icons[c] + icons[d] + icons[e] + icons[f] + icons[g]) + (
            icons[h] + icons[i]
        )
        wins += total >= 8
    return wins


def timed(name: str, rounds: int, work: Callable[[], object]) -> Figure:
    start = time.perf_counter()
    work()
    return Figure(name, rounds, time.perf_counter() - start)


def measure(scale: float) -> list[Figure]:
    """Every figure of one run."""
    jobs = fast_sim.default_jobs()
    n_bare = int(300_000 * scale)
    n_ref_turbo = int(30_000 * scale)
    n_ref_stadium = int(15_000 * scale)
    n_fast = int(4_000_000 * scale)
    football = turbo.load("turbo-football")
    rules3 = stadium.load({})
    pars = stadium_table.wager_pars(rules3)
    turbo_deal = fast_sim.turbo_deal(football, 1, TABLE)
    stadium_deal = fast_sim.stadium_deal(rules3, 1)
    figures = [
        timed(
            "bare loop: 1 wager, random.sample + 9 look-ups (1 core)",
            n_bare,
            lambda: bare_loop(n_bare),
        ),
        timed(
            "today's simulator, Turbo Football (1 core)",
            n_ref_turbo,
            lambda: simulate_turbo_table(football, n_ref_turbo, random.Random(1), 1, TABLE),
        ),
        timed(
            "today's simulator, Stadium 3CP (1 core)",
            n_ref_stadium,
            lambda: simulate_stadium_table(rules3, n_ref_stadium, random.Random(1), 1, pars, {}),
        ),
    ]
    deals: tuple[tuple[fast_sim.Deal, str], ...] = (
        (turbo_deal, "Turbo Football"),
        (stadium_deal, "Stadium 3CP"),
    )
    for deal, label in deals:
        for j in sorted({1, jobs}):
            start = time.perf_counter()
            fast_sim.run_chunks(deal, n_fast, 1, j)
            name = f"vectorised, {label}, every wager ({j} job{'s' if j > 1 else ''})"
            figures.append(Figure(name, n_fast, time.perf_counter() - start))
    return figures


def render(figures: list[Figure]) -> str:
    """The table of rates and ratios."""
    bare = figures[0].rate
    reference = {"Turbo Football": figures[1].rate, "Stadium 3CP": figures[2].rate}
    load = os.getloadavg()
    lines = [
        f"cores: {fast_sim.default_jobs()}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        f"{'':<62} {'rounds/s':>12} {'x bare':>8} {'x today':>8} {'1e9 rounds':>11}",
    ]
    for f in figures:
        game = (
            "Turbo Football" if "Turbo" in f.name else "Stadium 3CP" if "Stadium" in f.name else ""
        )
        versus = f"{f.rate / reference[game]:8.1f}" if game else f"{'':>8}"
        hours = BILLION / f.rate / 3600
        lines.append(
            f"{f.name:<62} {f.rate:>12,.0f} {f.rate / bare:>8.2f} {versus} {hours:>9.2f} h"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="work multiplier")
    args = parser.parse_args()
    print(render(measure(args.scale)))


if __name__ == "__main__":
    main()
