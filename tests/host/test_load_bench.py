"""Saturation: 200 simulated terminals streaming events to one host, against a bare echo baseline.

Run with ``tox -e bench`` (or ``pytest -m bench --benchmark-enable tests/host``).  The servers
run in their own process on loopback with the same mutual TLS: the asynchronous bare echo
(:mod:`tests.host.aio_echo_server`), then ``turbokiosk host serve`` on SQLite and on
PostgreSQL (fsync on), in the same run; the figures are printed and stored in the benchmark's
extra_info: events/s and p50/p99 call latency of each, and their ratios to the echo's.
Afterwards the host's records must hold every event exactly once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.host.accounting.db import HostDb, PostgresHostDb, SqliteHostDb
from tests.helpers.host_checks import enroll_pki
from tests.helpers.postgres import PostgresServer, binaries
from tests.host import load

TERMINALS, BATCHES, PER_BATCH = 200, 25, 10


def _serve(tmp_path: Path, pki_dir: Path, db: str | None) -> tuple[Any, str]:
    address = f"127.0.0.1:{load.free_port()}"
    args = ["-m", "kiosk", "host", "serve", "--host-dir", str(tmp_path), "--pki", str(pki_dir)]
    args += ["--listen", address, *(["--db", db] if db else [])]
    enroll_pki(db or tmp_path / "host.sqlite3", pki_dir)
    return load.start_process(args), address


@pytest.mark.bench
@pytest.mark.timeout(1800)
def test_two_hundred_terminals_against_echo(tmp_path: Path, benchmark: Any) -> None:
    if binaries() is None:
        pytest.skip("PostgreSQL server binaries not installed (Debian package postgresql)")
    names = load.terminal_names(TERMINALS)
    pki_dir = load.make_pki(tmp_path, names)
    echo_address = f"127.0.0.1:{load.free_port()}"
    echo = load.start_process(
        ["-m", "tests.host.aio_echo_server", "--pki", str(pki_dir), "--listen", echo_address]
    )
    try:
        baseline = load.drive(echo_address, pki_dir, names, BATCHES, PER_BATCH, echo=True)
    finally:
        load.stop_process(echo)
    postgres = PostgresServer(fsync=True)
    figures: dict[str, Any] = {
        "terminals": TERMINALS,
        "events": TERMINALS * BATCHES * PER_BATCH,
        "echo_events_per_s": round(baseline.events_per_second),
        "echo_p50_ms": round(baseline.percentile(0.50) * 1000, 2),
        "echo_p99_ms": round(baseline.percentile(0.99) * 1000, 2),
    }
    try:
        for backend in ("sqlite", "postgresql"):
            url = postgres.new_database(url=True) if backend == "postgresql" else None
            host, address = _serve(tmp_path / backend, pki_dir, url)
            try:
                if backend == "sqlite":
                    run = benchmark.pedantic(
                        load.drive,
                        args=(address, pki_dir, names, BATCHES, PER_BATCH),
                        kwargs={"echo": False},
                        rounds=1,
                        iterations=1,
                    )
                else:
                    run = load.drive(address, pki_dir, names, BATCHES, PER_BATCH, echo=False)
            finally:
                load.stop_process(host)
            figures[f"{backend}_events_per_s"] = round(run.events_per_second)
            figures[f"{backend}_p50_ms"] = round(run.percentile(0.50) * 1000, 2)
            figures[f"{backend}_p99_ms"] = round(run.percentile(0.99) * 1000, 2)
            figures[f"{backend}_throughput_vs_echo"] = round(
                run.events_per_second / baseline.events_per_second, 3
            )
            figures[f"{backend}_p99_vs_echo"] = round(
                run.percentile(0.99) / baseline.percentile(0.99), 2
            )
            db: HostDb = (
                PostgresHostDb(url) if url else SqliteHostDb(tmp_path / backend / "host.sqlite3")
            )
            try:
                rows = db.events(last=10**9)
                ids = [r.message_id for r in rows]
                expected = TERMINALS * BATCHES * PER_BATCH
                assert len(ids) == len(set(ids)) == expected  # none lost, none twice
                assert {r.terminal_id for r in rows} == set(names)
            finally:
                db.close()
    finally:
        postgres.stop()
    benchmark.extra_info.update(figures)
    print("\nhost load:", figures)
