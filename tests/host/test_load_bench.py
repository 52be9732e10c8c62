"""Load: 200 simulated terminals streaming events to one host, against a bare echo baseline.

Run with ``tox -e bench`` (or ``pytest -m bench --benchmark-enable tests/host``).  Both
servers run in their own process on loopback with the same mutual TLS; the figures are printed
and stored in the benchmark's extra_info: events/s and p50/p99 call latency of each, and their
ratios.  Afterwards the host's records must hold every event exactly once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.host.db import SqliteHostDb
from tests.host import load

TERMINALS, BATCHES, PER_BATCH = 200, 25, 10


@pytest.mark.bench
@pytest.mark.timeout(1800)
def test_two_hundred_terminals_against_echo(tmp_path: Path, benchmark: Any) -> None:
    names = load.terminal_names(TERMINALS)
    pki_dir = load.make_pki(tmp_path, names)
    echo_address = f"127.0.0.1:{load.free_port()}"
    echo = load.start_process(
        ["-m", "tests.host.echo_server", "--pki", str(pki_dir), "--listen", echo_address]
    )
    try:
        baseline = load.drive(echo_address, pki_dir, names, BATCHES, PER_BATCH, echo=True)
    finally:
        load.stop_process(echo)
    host_address = f"127.0.0.1:{load.free_port()}"
    host = load.start_process(
        [
            "-m",
            "kiosk",
            "host",
            "serve",
            "--host-dir",
            str(tmp_path),
            "--pki",
            str(pki_dir),
            "--listen",
            host_address,
        ]
    )
    results: list[load.LoadResult] = []
    try:
        benchmark.pedantic(
            lambda: results.append(
                load.drive(host_address, pki_dir, names, BATCHES, PER_BATCH, echo=False)
            ),
            rounds=1,
            iterations=1,
        )
    finally:
        load.stop_process(host)
    (run,) = results
    figures = {
        "terminals": TERMINALS,
        "events": run.events,
        "request_bytes": run.request_bytes,
        "host_events_per_s": round(run.events_per_second),
        "echo_events_per_s": round(baseline.events_per_second),
        "host_p50_ms": round(run.percentile(0.50) * 1000, 2),
        "host_p99_ms": round(run.percentile(0.99) * 1000, 2),
        "echo_p50_ms": round(baseline.percentile(0.50) * 1000, 2),
        "echo_p99_ms": round(baseline.percentile(0.99) * 1000, 2),
    }
    figures["throughput_vs_echo"] = round(run.events_per_second / baseline.events_per_second, 3)
    figures["p99_vs_echo"] = round(run.percentile(0.99) / baseline.percentile(0.99), 2)
    benchmark.extra_info.update(figures)
    print("\nhost load:", figures)
    db = SqliteHostDb(tmp_path / "host.sqlite3")
    try:
        rows = db.events(last=10**9)
        ids = [r["message_id"] for r in rows]
        assert len(ids) == len(set(ids)) == TERMINALS * BATCHES * PER_BATCH  # none lost, none twice
        per_terminal = {r["terminal_id"] for r in rows}
        assert per_terminal == set(names)
    finally:
        db.close()
