"""The paced floor and the failover campaign (``tox -e floor``; not in the default run).

**Paced floor.** N terminals spread over several client processes (:mod:`tests.host.floor`),
each with its command stream open, reporting one game every 3 s, a meter snapshot every 60 s
and a ticket now and then: first against the asynchronous bare echo server, then against
``turbokiosk host serve`` on SQLite and on PostgreSQL (fsync on), in the same run.  Printed: p50
/ p99 acknowledgement latency of each and the ratios to the echo's; asserted: every game,
meter snapshot and ticket the terminals were acknowledged is in the database exactly once,
every stream stayed open and no call failed.

**Failover.** Two ``host serve`` processes on one PostgreSQL under the paced load; one of them
(at random) is SIGKILLed at random instants and started again; the terminals fail over; the
database afterwards holds every game and every printed voucher exactly once.

Knobs (environment): ``FLOOR_SECONDS`` (default 300), ``FLOOR_WORKERS`` (client processes,
default 4), ``FLOOR_KILLS`` (default 50), ``FLOOR_KILL_SECONDS`` (campaign length, default 240),
``FLOOR_TERMINALS`` (comma-separated scales, default 1000,2000,5000,7000), ``FLOOR_BACKENDS``
(default sqlite,postgresql), ``FLOOR_FAILOVER_TERMINALS`` (default 1000).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.host.accounting.db import HostDb, PostgresHostDb, SqliteHostDb
from tests.helpers.host_checks import enroll_pki
from tests.helpers.postgres import PostgresServer, binaries
from tests.host import floor, load

SECONDS = float(os.environ.get("FLOOR_SECONDS", "300"))
WORKERS = int(os.environ.get("FLOOR_WORKERS", "4"))
KILLS = int(os.environ.get("FLOOR_KILLS", "50"))
KILL_SECONDS = float(os.environ.get("FLOOR_KILL_SECONDS", "240"))
SCALES = [int(n) for n in os.environ.get("FLOOR_TERMINALS", "1000,2000,5000,7000").split(",")]
FAILOVER_TERMINALS = int(os.environ.get("FLOOR_FAILOVER_TERMINALS", "1000"))
HOST_ARGS = tuple(os.environ.get("FLOOR_HOST_ARGS", "").split())
BACKENDS = tuple(os.environ.get("FLOOR_BACKENDS", "sqlite,postgresql").split(","))


@pytest.fixture(scope="module")
def durable_postgres() -> Iterator[PostgresServer]:
    if binaries() is None:
        pytest.skip("PostgreSQL server binaries not installed (Debian package postgresql)")
    server = PostgresServer(fsync=True)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def floor_pki(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return floor.make_pki(tmp_path_factory.mktemp("floor-pki"), max([*SCALES, 1000]))


def start_host(
    host_dir: Path, pki_dir: Path, db: str | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    address = f"127.0.0.1:{load.free_port()}"
    args = ["-m", "kiosk", "host", "serve", "--host-dir", str(host_dir), "--pki", str(pki_dir)]
    args += ["--listen", address, "--progress-seconds", "10", *HOST_ARGS]
    if db is not None:
        args += ["--db", db]
    host_dir.mkdir(parents=True, exist_ok=True)
    enroll_pki(db or host_dir / "host.sqlite3", pki_dir)
    return floor.start_logged(args, host_dir / "serve.log"), address


def check_records(db: HostDb, run: floor.FloorResult) -> None:
    """Everything the terminals were acknowledged is in the records once, nothing else."""
    counted = floor.count_records(db)
    assert counted.games == counted.distinct_games == run.games
    assert counted.meters == run.meters
    assert set(run.vouchers) <= counted.issued_vouchers
    assert len(run.vouchers) == len(set(run.vouchers)) == run.tickets
    assert counted.alarms == 0


@pytest.mark.floor
@pytest.mark.timeout(7200)
@pytest.mark.parametrize("terminals", SCALES)
def test_paced_floor_against_echo(
    terminals: int, tmp_path: Path, floor_pki: Path, durable_postgres: PostgresServer
) -> None:
    echo_address = f"127.0.0.1:{load.free_port()}"
    echo = load.start_process(
        ["-m", "tests.host.aio_echo_server", "--pki", str(floor_pki), "--listen", echo_address]
    )
    try:
        baseline = floor.run_floor(
            echo_address, floor_pki, terminals, SECONDS, echo=True, workers=WORKERS
        )
    finally:
        load.stop_process(echo)
    print(f"\nfloor {terminals} echo:", baseline.summary())
    figures = {"echo": baseline.summary()}
    for backend in BACKENDS:
        url = durable_postgres.new_database(url=True) if backend == "postgresql" else None
        host, address = start_host(tmp_path / backend, floor_pki, url)
        try:
            run = floor.run_floor(
                address, floor_pki, terminals, SECONDS, echo=False, workers=WORKERS
            )
        finally:
            load.stop_process(host)
        summary = run.summary()
        summary["p50_vs_echo"] = round(run.percentile(0.5) / baseline.percentile(0.5), 2)
        summary["p99_vs_echo"] = round(run.percentile(0.99) / baseline.percentile(0.99), 2)
        figures[backend] = summary
        print(f"floor {terminals} {backend}:", summary)
        print(_progress(tmp_path / backend / "serve.log"))
        db: HostDb = (
            PostgresHostDb(url) if url else SqliteHostDb(tmp_path / backend / "host.sqlite3")
        )
        try:
            check_records(db, run)  # nothing lost or doubled, even when calls failed
        finally:
            db.close()
    print(f"floor {terminals} figures:", figures)
    for backend in BACKENDS:  # both measured before either is judged
        assert figures[backend]["streams_open"] == terminals
        assert not figures[backend]["errors"], (backend, figures[backend]["errors"])


@pytest.mark.floor
@pytest.mark.timeout(7200)
def test_failover_campaign_two_hosts_one_postgres(
    tmp_path: Path, floor_pki: Path, durable_postgres: PostgresServer
) -> None:
    url = durable_postgres.new_database(url=True)
    PostgresHostDb(url).close()  # the schema, once
    hosts = [start_host(tmp_path / f"host{i}", floor_pki, url) for i in (0, 1)]
    addresses = ",".join(address for _, address in hosts)
    kills: list[float] = []
    rng = random.Random(17)

    def kill_at_random(end: float) -> None:
        restart = 0.0  # how long the last restart took: the next wait makes room for it
        while len(kills) < KILLS and time.time() < end - 5:
            spacing = (end - 5 - time.time()) / (KILLS - len(kills))
            time.sleep(rng.uniform(0.1, max(0.2, 2 * (spacing - restart))))
            i = rng.randrange(2)
            process, address = hosts[i]
            process.send_signal(signal.SIGKILL)
            process.wait()
            kills.append(time.time())
            began = time.time()
            restarted = start_host_at(tmp_path / f"host{i}", floor_pki, url, address)
            restart = time.time() - began
            hosts[i] = (restarted, address)

    try:
        run = floor.run_floor(
            addresses,
            floor_pki,
            FAILOVER_TERMINALS,
            KILL_SECONDS + 10,
            echo=False,
            workers=WORKERS,
            during=kill_at_random,
        )
    finally:
        for process, _ in hosts:
            load.stop_process(process)
    summary = run.summary()
    summary["kills"] = len(kills)
    summary["retried_reports"] = run.retried_reports
    print("\nfailover campaign:", summary)
    db = PostgresHostDb(url)
    try:
        check_records(db, run)
    finally:
        db.close()
    assert len(kills) >= min(KILLS, 1)
    assert run.failovers > 0


def start_host_at(host_dir: Path, pki_dir: Path, db: str, address: str) -> subprocess.Popen[bytes]:
    """Start a host again on the address it had (a killed host's port is free at once)."""
    args = ["-m", "kiosk", "host", "serve", "--host-dir", str(host_dir), "--pki", str(pki_dir)]
    args += ["--listen", address, "--progress-seconds", "10", "--db", db]
    for _ in range(50):
        process = floor.start_logged(args, host_dir / "serve.log")
        if process.poll() is None:
            return process
        time.sleep(0.1)
    raise RuntimeError(f"the host did not start again on {address}")


def _progress(log: Path) -> str:
    """The host's last progress lines (throughput, queue depth, streams)."""
    lines = [line for line in log.read_text().splitlines() if "reports/s" in line]
    return "\n".join(lines[-3:])
