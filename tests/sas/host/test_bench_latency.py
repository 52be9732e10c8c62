"""Poll-to-response latency of a terminal's SAS link while it plays, against a bare echo.

Run with ``tox -e bench`` (or ``pytest -m bench --benchmark-enable tests/sas/host``).  The
host's side is the host tool's own line and probe (:mod:`kiosk.host.sas.timing`): it sends a
general poll, waits for the answer, sends the next, ``SAS_BENCH_POLLS`` times (100,000 by
default), timing the first byte of each answer (what SAS 6.02's 20 ms limit is about) and the
last.  The baseline is the same loop in the same run against a bare echo in another process on
the same kind of pty (the host keeps the master, the other process opens the far end).  The
terminal meanwhile plays as fast as its robot can (notes, wagers, decisions; no cash-outs,
which would wait for a validation number this probe does not give), so the SAS thread shares
the interpreter with a busy terminal.  A smaller probe of long poll 1A
(current credits, an 8-byte answer) follows.  The figures are printed and stored in the
benchmark's extra_info; docs/sas.md has the last run's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kiosk.host.sas.line import HostLine
from kiosk.host.sas.timing import LatencyStats, probe
from kiosk.terminal.sas import wire
from tests.sas.host.e2e import ENV, ROOT, TerminalProcess, terminal_meters

POLLS = int(os.environ.get("SAS_BENCH_POLLS", "100000"))


def _warm_up(line: HostLine) -> None:
    for _ in range(500):  # until the far end is open and answering
        if probe(line, wire.general_poll(1), 1, 1, timeout_s=0.2).answered:
            return
    raise AssertionError("nothing answers on the line")


def _echo_baseline(tmp_path: Path) -> LatencyStats:
    link = tmp_path / "echo.tty"
    line = HostLine.create_pty(link)
    echo = subprocess.Popen(
        [sys.executable, "-m", "tests.sas.host.echo_pty", "--open", str(link)], cwd=ROOT, env=ENV
    )
    try:
        _warm_up(line)
        return probe(line, wire.general_poll(1), 1, POLLS)
    finally:
        echo.terminate()
        echo.wait(10)
        line.close()


@pytest.mark.bench
@pytest.mark.timeout(3600)
def test_general_poll_latency_while_playing(tmp_path: Path, benchmark: Any) -> None:
    baseline = _echo_baseline(tmp_path)
    link = tmp_path / "sas.tty"
    line = HostLine.create_pty(link)
    term = TerminalProcess(tmp_path / "term", link, 1)
    results: list[LatencyStats] = []
    try:
        _warm_up(line)
        assert term.proc.stdin is not None
        term.proc.stdin.write("play 100000000 16\n")  # plays until it is killed
        term.proc.stdin.flush()
        benchmark.pedantic(
            lambda: results.append(probe(line, wire.general_poll(1), 1, POLLS)),
            rounds=1,
            iterations=1,
        )
        long_polls = probe(line, wire.long_poll(1, 0x1A), 8, max(1, POLLS // 10))
        playing = term.proc.poll() is None
    finally:
        term.kill()
        line.close()
    games = int(terminal_meters(tmp_path / "term")["lifetime"].get("games_played", 0))
    (sas,) = results
    limit_ms = wire.RESPONSE_LIMIT_S * 1000
    figures = {
        "polls": POLLS,
        "games_played_meanwhile": games,
        "limit_ms": limit_ms,
        "echo_first_p50_ms": round(baseline.first_p50_ms, 3),
        "echo_first_p99_ms": round(baseline.first_p99_ms, 3),
        "echo_first_max_ms": round(baseline.first_max_ms, 3),
        "echo_over_limit": baseline.over_limit,
        "echo_answered": baseline.answered,
        "sas_first_p50_ms": round(sas.first_p50_ms, 3),
        "sas_first_p99_ms": round(sas.first_p99_ms, 3),
        "sas_first_max_ms": round(sas.first_max_ms, 3),
        "sas_whole_p99_ms": round(sas.whole_p99_ms, 3),
        "sas_answered": sas.answered,
        "sas_over_limit": sas.over_limit,
        "p50_vs_echo": round(sas.first_p50_ms / baseline.first_p50_ms, 1),
        "p99_vs_echo": round(sas.first_p99_ms / baseline.first_p99_ms, 1),
        "p99_vs_limit": round(sas.first_p99_ms / limit_ms, 3),
        "long_1a_polls": long_polls.polls,
        "long_1a_first_p50_ms": round(long_polls.first_p50_ms, 3),
        "long_1a_first_p99_ms": round(long_polls.first_p99_ms, 3),
        "long_1a_whole_p99_ms": round(long_polls.whole_p99_ms, 3),
        "long_1a_over_limit": long_polls.over_limit,
    }
    benchmark.extra_info.update(figures)
    print("\nSAS latency:", figures)
    assert playing and games > 0, "the terminal did not play during the probe"
    assert baseline.answered >= POLLS * 0.999  # a loaded machine delays even the echo
    assert sas.answered >= POLLS * 0.999, figures  # a late answer past 100 ms counts as lost
    assert sas.first_p50_ms < limit_ms, figures
