"""The paced floor over several client processes (:mod:`tests.host.floor_worker`, the lean
HTTP/2 client; :mod:`tests.host.floor_worker_aio`, the same terminals on ``grpc.aio``, for the
unary link of older terminals (``--unary``) and with ``FLOOR_CLIENT=aio``).

:func:`run_floor` starts ``workers`` processes, each with its slice of the terminals; waits
until every terminal of every process has said hello and opened its command stream; gives them
one common start time; lets them play ``seconds``; and merges what they report.  ``during`` is
called in this process while they play (the failover campaign kills hosts from it).  The CPU
time over the timed window is reported apart: the harness's (its workers' own), and whatever
``cpu`` names (the host's processes, the database server's: :func:`tree_cpu_seconds`).

:func:`count_records` counts in the host's database what the terminals were acknowledged,
so that nothing lost and nothing doubled is checked against what was sent.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.host.accounting.db import HostDb
from kiosk.terminal.hostlink import pki

PREFIX = "TK-F"


def start_logged(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    """A server process (``python ARGS``) whose standard error goes to ``log``; returns once it
    printed its first line (it is serving)."""
    with open(log, "ab") as err:
        process = subprocess.Popen(
            [sys.executable, *args],
            stdout=subprocess.PIPE,
            stderr=err,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    assert process.stdout is not None
    process.stdout.readline()
    return process


def names(n: int) -> list[str]:
    return [f"{PREFIX}{i:05d}" for i in range(n)]


def make_pki(directory: Path, n: int) -> Path:
    """A PKI with the host's and ``n`` terminals' certificates (kept between runs)."""
    pki.ensure_pki(directory, tuple(names(n)))
    return directory


def host_serve_dir(pki_dir: Path, serve_dir: Path) -> Path:
    """The directory a host serves from, as on a floor: the CA's certificate and the host's own
    certificate and key, copied from ``pki_dir`` (which holds every terminal's key too; a host
    never does, and ``host serve`` reads every key where it serves from to refuse the CA's)."""
    serve_dir.mkdir(parents=True, exist_ok=True)
    for name in (pki.CA_CERT, "host.crt", "host.key"):
        target = serve_dir / name
        if not target.exists():
            shutil.copy2(pki_dir / name, target)
    return serve_dir


@dataclass
class FloorResult:
    """The merged figures of one paced run."""

    terminals: int
    seconds: float
    reports: int = 0
    first_reports: int = 0  # made while connecting (first contact), not timed
    games: int = 0
    meters: int = 0
    tickets: int = 0
    vouchers: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    failovers: int = 0
    retried_reports: int = 0
    streams_open: int = 0
    connect_seconds: float = 0.0
    #: CPU seconds over the timed window: "harness", and each of run_floor's ``cpu`` readers
    cpu_s: dict[str, float] = field(default_factory=dict)

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def reports_per_second(self) -> float:
        return self.reports / self.seconds

    def summary(self) -> dict[str, Any]:
        return {
            "terminals": self.terminals,
            "seconds": self.seconds,
            "reports": self.reports,
            "first_reports": self.first_reports,
            "reports_per_s": round(self.reports_per_second, 1),
            "p50_ms": round(self.percentile(0.50), 2),
            "p99_ms": round(self.percentile(0.99), 2),
            "max_ms": round(max(self.latencies_ms, default=0.0), 1),
            "errors": dict(self.errors),
            "failovers": self.failovers,
            "streams_open": self.streams_open,
            "connect_s": round(self.connect_seconds, 1),
            "cpu_cores": {k: round(v / self.seconds, 3) for k, v in self.cpu_s.items()},
            "cpu_ms_per_report": {
                k: round(1000 * v / max(1, self.reports), 3) for k, v in self.cpu_s.items()
            },
        }


def run_floor(
    addresses: str,
    pki_dir: Path,
    terminals: int,
    seconds: float,
    *,
    echo: bool,
    workers: int,
    during: Callable[[float], None] | None = None,
    ready_timeout: float = 600.0,
    extra: tuple[str, ...] = (),
    cpu: dict[str, Callable[[], float]] | None = None,
) -> FloorResult:
    """Play the paced floor against ``addresses`` (see the module docstring)."""
    per = -(-terminals // workers)
    aio = "--unary" in extra or os.environ.get("FLOOR_CLIENT", "lean") == "aio"
    procs: list[subprocess.Popen[str]] = []
    for w in range(workers):
        first, count = w * per, min(per, terminals - w * per)
        if count <= 0:
            break
        command = [
            sys.executable,
            "-m",
            "tests.host.floor_worker_aio" if aio else "tests.host.floor_worker",
            "--addresses",
            addresses,
            "--pki",
            str(pki_dir),
            "--first",
            str(first),
            "--count",
            str(count),
            "--seconds",
            str(seconds),
            "--seed",
            str(w),
            *(["--echo"] if echo else []),
            *extra,
        ]
        procs.append(
            subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONHASHSEED": "0"},
            )
        )
    try:
        t0 = time.monotonic()
        for proc in procs:
            assert proc.stdout is not None
            line = _readline(proc, ready_timeout)
            if line.strip() != "ready":
                raise RuntimeError(f"a floor worker did not connect: {line!r}")
        connect_seconds = time.monotonic() - t0
        start = time.time() + 1.0
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(f"{start}\n")
            proc.stdin.flush()
        if during is not None:
            thread = threading.Thread(target=during, args=(start + seconds,), daemon=True)
            thread.start()
        time.sleep(max(0.0, start - time.time()))
        readers = cpu or {}
        before = {name: read() for name, read in readers.items()}
        time.sleep(max(0.0, start + seconds - time.time()))
        after = {name: read() for name, read in readers.items()}
        outputs = [json.loads(_readline(p, seconds + 600)) for p in procs]
        if during is not None:
            thread.join()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    result = FloorResult(terminals, seconds, connect_seconds=connect_seconds)
    result.cpu_s = {name: after[name] - before[name] for name in readers}
    result.cpu_s["harness"] = sum(out["cpu_s"] for out in outputs)
    for out in outputs:
        result.reports += out["reports"]
        result.first_reports += out["first_reports"]
        result.games += out["games"]
        result.meters += out["meters"]
        result.tickets += out["tickets"]
        result.vouchers += out["vouchers"]
        result.latencies_ms += out["latencies_ms"]
        result.errors.update(out["errors"])
        result.failovers += out["failovers"]
        result.retried_reports += out["retried_reports"]
        result.streams_open += out["streams_open"]
    return result


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) of process ``pid`` and its live descendants, and of the
    children they already waited for (a database server's ended backends); 0 once it ended."""
    ticks = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        stats[int(entry)] = fields
        children.setdefault(int(fields[1]), []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        found = stats.get(current)
        if found is None:
            continue
        total += sum(int(x) for x in found[11:15])  # utime, stime, cutime, cstime
        todo += children.get(current, [])
    return total / ticks


def _readline(proc: subprocess.Popen[str], timeout: float) -> str:
    """One line of a worker's output, or an error when it says nothing in time."""
    lines: list[str] = []
    assert proc.stdout is not None
    stdout = proc.stdout
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not lines or not lines[0]:
        raise RuntimeError(f"a floor worker said nothing in {timeout:.0f} s (exit {proc.poll()})")
    return lines[0]


@dataclass(frozen=True)
class RecordCount:
    """What the host's database holds of the floor's terminals."""

    games: int
    distinct_games: int
    meters: int
    issued_vouchers: set[str]
    alarms: int


def count_records(db: HostDb) -> RecordCount:
    """Count the floor's records (events by kind, meter snapshots, vouchers, alarms)."""
    with db.transaction() as tx:
        games, distinct = tx.execute(
            "SELECT COUNT(*), COUNT(DISTINCT message_id) FROM events WHERE kind = 'game_played'"
        ).fetchone()
        (meters,) = tx.execute("SELECT COUNT(*) FROM meter_snapshots").fetchone()
        issued = {
            row[0]
            for row in tx.execute(
                "SELECT validation_number FROM vouchers WHERE state = 'issued'"
            ).fetchall()
        }
        (alarms,) = tx.execute(
            "SELECT COUNT(*) FROM voucher_audit WHERE severity = 'alarm'"
        ).fetchone()
        (terminal_alarms,) = tx.execute(
            "SELECT COUNT(*) FROM terminal_alarms WHERE severity = 'alarm'"
        ).fetchone()
    return RecordCount(int(games), int(distinct), int(meters), issued, alarms + terminal_alarms)
