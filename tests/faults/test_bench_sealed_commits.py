"""Benchmark: the terminal's cost per commit (Stadium rounds, every card sealed at the signer)
against its durable writes alone, measured in the same run (issue 23, part 3).

The baseline of one commit is what a commit must write durably: one bare SQLite insert+commit
with the journal's settings (WAL, ``synchronous=FULL``) and one signer's sync (a slot of the
anchor's size written with ``pwrite`` and ``fdatasync``, as the anchor is).  Rounds of the
terminal and the same number of baseline commits alternate, so both see the same machine
load.  The terminal is measured with the development signer (in-process, ``DATA_DIR.signer``)
and with the signer program over its Unix socket (``turbokiosk signer serve``, production).

Run with ``tox -e bench``, or on this file alone (the whole measurement is one pytest-benchmark
round; ``--benchmark-only`` overrides the ``--benchmark-skip`` of the project's options)::

    pytest -m bench --benchmark-enable --benchmark-only -s -p no:cacheprovider \
        tests/faults/test_bench_sealed_commits.py

``SEALED_BENCH_ROUNDS`` sets the rounds (300).  Each line printed also gives the machine's load
average and the terminal process's CPU per commit (its threads; not the signer program's).
Goal: at most 1.5x.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import Phase
from kiosk.terminal.signer.client import SocketSigner
from kiosk.terminal.signer.state import SLOT_SIZE
from kiosk.terminal.store.journal import Journal
from tests.helpers.terminal_rig import Rig

pytestmark = pytest.mark.bench
ROUNDS = int(os.environ.get("SEALED_BENCH_ROUNDS", "300"))
REPO = Path(__file__).resolve().parents[2]


class DurableWrites:
    """A commit's durable writes alone: a bare SQLite insert+commit and a slot's fdatasync."""

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(root / "bare.sqlite3", isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        self.body = "x" * 400
        self.slots = os.open(root / "anchor.slots", os.O_RDWR | os.O_CREAT, 0o600)
        self.slot = b"s" * SLOT_SIZE
        self.n = 0

    def run(self, commits: int) -> float:
        t0 = time.perf_counter()
        for _ in range(commits):
            self.n += 1
            os.pwrite(self.slots, self.slot, (self.n % 2) * SLOT_SIZE)
            os.fdatasync(self.slots)
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO t (body) VALUES (?)", (self.body,))
            self.db.execute("COMMIT")
        return time.perf_counter() - t0

    def close(self) -> None:
        self.db.close()
        os.close(self.slots)


@pytest.fixture
def signer_socket(tmp_path: Path) -> Iterator[Path]:
    """``turbokiosk signer serve`` in its own process."""
    state, sock = tmp_path / "signer-state", tmp_path / "signer.sock"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run(
        [sys.executable, "-m", "kiosk", "signer", "init", "--state-dir", str(state)],
        check=True,
        env=env,
        capture_output=True,
    )
    serve = ["signer", "serve", "--socket", str(sock), "--state-dir", str(state)]
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", *serve], env=env)
    deadline = time.monotonic() + 30
    while not sock.exists():
        assert time.monotonic() < deadline and proc.poll() is None, "the signer did not start"
        time.sleep(0.05)
    yield sock
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)


def measure(rig: Rig, baseline: DurableWrites) -> tuple[float, float, float, float]:
    """(median ms per commit of the terminal, of the baseline, commits per round, the
    terminal's CPU ms per commit)."""
    rt = rig.runtime
    rt.execute(c.InsertTicket("9" * 18, value=9_000_000))
    rt.execute(c.TicketStackedReport("9" * 18))
    rt.execute(c.SelectEdition("stadium-3cp"))
    commits = 0
    original = Journal.commit

    def counting(self: Journal, *args: Any, **kwargs: Any) -> int:
        nonlocal commits
        commits += 1
        return original(self, *args, **kwargs)

    Journal.commit = counting  # type: ignore[method-assign]
    terminal, durable, counts = [], [], []
    cpu = 0.0
    try:
        for _ in range(ROUNDS):
            before = commits
            c0, t0 = time.process_time(), time.perf_counter()
            rt.execute(c.SelectPositions((0, 1, 2)))
            rt.execute(c.PlaceWager("ante", 100))
            rt.execute(c.Deal())
            if rt.state.phase is Phase.DECISION:
                rt.execute(c.Decide("play"))
            elapsed = time.perf_counter() - t0
            cpu += time.process_time() - c0
            assert rt.state.phase is Phase.RESULT
            n = commits - before
            terminal.append(elapsed / n)
            durable.append(baseline.run(n) / n)
            counts.append(n)
    finally:
        Journal.commit = original  # type: ignore[method-assign]
    assert rt.core.audit_credits() is None
    return (
        statistics.median(terminal) * 1e3,
        statistics.median(durable) * 1e3,
        statistics.mean(counts),
        cpu / sum(counts) * 1e3,
    )


def report(
    what: str, figures: tuple[float, float, float, float], capsys: pytest.CaptureFixture[str]
) -> None:
    own, durable, per_round, cpu = figures
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    with capsys.disabled():
        print(
            f"\n{what}: {ROUNDS} Stadium rounds, {per_round:.2f} commits per round; per commit "
            f"median {own:.3f} ms, its durable writes alone (bare SQLite commit + slot "
            f"fdatasync) {durable:.3f} ms; ratio {own / durable:.2f}x (goal <= 1.5x); "
            f"terminal CPU {cpu:.3f} ms per commit; load average {load}"
        )


def test_sealed_commits_with_the_development_signer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], benchmark: Any
) -> None:
    rig = Rig(tmp_path / "t", TerminalConfig(credit_limit=10_000_000))
    baseline = DurableWrites(tmp_path / "bare")
    try:
        figures = benchmark.pedantic(measure, args=(rig, baseline), rounds=1, iterations=1)
        report("development signer (in-process)", figures, capsys)
    finally:
        baseline.close()
        rig.runtime.close()


def test_sealed_commits_with_the_signer_program(
    tmp_path: Path, signer_socket: Path, capsys: pytest.CaptureFixture[str], benchmark: Any
) -> None:
    rig = _rig_with(tmp_path / "t", SocketSigner(signer_socket))
    baseline = DurableWrites(tmp_path / "bare")
    try:
        figures = benchmark.pedantic(measure, args=(rig, baseline), rounds=1, iterations=1)
        report("signer program (Unix socket)", figures, capsys)
    finally:
        baseline.close()
        rig.runtime.close()


def _rig_with(data_dir: Path, signer: SocketSigner) -> Rig:
    class SocketRig(Rig):
        def boot(self, **kwargs: object) -> Any:
            return super().boot(signer=signer, **kwargs)

    return SocketRig(data_dir, TerminalConfig(credit_limit=10_000_000))
