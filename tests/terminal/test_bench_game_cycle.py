"""Benchmark: one complete game cycle (wager to journaled settlement, fsync on) against the same
number of bare SQLite insert+commit transactions with the same settings, measured in one run.

Run with ``tox -e bench``.  Goal: at most 1.5x the bare commits.
"""

import sqlite3
import statistics
import time

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import Phase
from kiosk.terminal.store.journal import Journal

pytestmark = pytest.mark.bench
GAMES = 300


class BareCommits:
    """Bare insert+commit transactions, WAL and synchronous=FULL like the journal."""

    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        self.body = "x" * 400

    def run(self, n_commits):
        t0 = time.perf_counter()
        for _ in range(n_commits):
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO t (body) VALUES (?)", (self.body,))
            self.db.execute("COMMIT")
        return time.perf_counter() - t0


def test_game_cycle_against_bare_commits(make_rig, tmp_path, capsys):
    """Game cycles and bare commits alternate, so both see the same machine load."""
    rig = make_rig(TerminalConfig(credit_limit=10_000_000))
    rt = rig.runtime
    # funded through the escrow path a voucher takes (host answer, then stacked)
    rt.execute(c.InsertTicket("9" * 18, value=9_000_000))
    rt.execute(c.TicketStackedReport("9" * 18))
    rt.execute(c.SelectEdition("icon-v2"))
    bare = BareCommits(tmp_path / "bare.sqlite3")
    commits = 0
    original = Journal.commit

    def counting(self, *args, **kwargs):
        nonlocal commits
        commits += 1
        return original(self, *args, **kwargs)

    Journal.commit = counting  # type: ignore[method-assign]
    cycle_times, bare_times, commit_counts = [], [], []
    try:
        for _ in range(GAMES):
            before = commits
            t0 = time.perf_counter()
            rt.execute(c.PlaceWager("bet_a", 100))
            rt.execute(c.Deal())
            if rt.state.phase is Phase.DECISION:
                rt.execute(c.Decide("raise"))
            cycle_times.append(time.perf_counter() - t0)
            commit_counts.append(commits - before)
            assert rt.state.phase is Phase.RESULT
            bare_times.append(bare.run(commits - before))
    finally:
        Journal.commit = original  # type: ignore[method-assign]
        bare.db.close()
    per_game = statistics.mean(commit_counts)
    cycle_median = statistics.median(cycle_times)
    bare_median = statistics.median(bare_times)
    ratio = cycle_median / bare_median
    with capsys.disabled():
        print(
            f"\ngame cycle (wager -> journaled settlement, fsync): median "
            f"{cycle_median * 1e3:.3f} ms, {per_game:.2f} durable commits per game\n"
            f"the same number of bare SQLite insert+commits (WAL, synchronous=FULL): median "
            f"{bare_median * 1e3:.3f} ms\nratio {ratio:.2f}x (goal <= 1.5x)"
        )
    assert rt.core.audit_credits() is None


def test_soak_throughput(make_rig, capsys):
    import random

    from kiosk.terminal.robot import Robot

    rig = make_rig()
    robot = Robot(rig.runtime, rig.validator, rig.printer, random.Random(5))
    t0 = time.perf_counter()
    while robot.stats.games < GAMES:
        robot.play_game()
    elapsed = time.perf_counter() - t0
    with capsys.disabled():
        print(f"\nsoak: {robot.stats.games / elapsed:.1f} games/s (robot, fsync on)")
