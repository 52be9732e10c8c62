"""``turbokiosk host serve --processes N`` (one port, one PostgreSQL) and the tuned collector."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.host.accounting import gc_tuning
from kiosk.host.accounting.db import PostgresHostDb
from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.client import HostClient
from tests.helpers.cli_process import REPO, turbokiosk
from tests.helpers.host_checks import enroll_pki
from tests.helpers.postgres import PostgresServer


def test_several_processes_on_sqlite_are_refused_in_one_line(tmp_path: Path) -> None:
    host_dir = tmp_path / "h"
    result = turbokiosk("host", "serve", "--host-dir", str(host_dir), "--processes", "2")
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1 and "needs PostgreSQL" in result.stderr
    assert "Traceback" not in result.stderr
    result = turbokiosk("host", "serve", "--host-dir", str(host_dir), "--processes", "0")
    assert result.returncode != 0 and "--processes: from 1 to 64" in result.stderr


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                found.append(int(entry))
    return found


def test_two_processes_share_one_port_and_one_postgres(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    host_dir = tmp_path / "h"
    pki_dir = host_dir / "pki"
    pki.ensure_pki(pki_dir, ("TK-A", "TK-B", "TK-C", "TK-D"))
    url = postgres_server.new_database(url=True)
    enroll_pki(url, pki_dir)
    serve = [sys.executable, "-m", "kiosk", "host", "serve", "--host-dir", str(host_dir)]
    serve += ["--db", url, "--listen", "127.0.0.1:0", "--processes", "2"]
    process = subprocess.Popen(
        serve, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline(), process.stdout.readline()]
        assert all("serving on 127.0.0.1:" in line for line in lines), lines
        both = lines[0] + lines[1]
        assert "process 1 of 2)" in both and "process 2 of 2)" in both
        address = lines[0].split("serving on ")[1].split()[0]
        assert address == lines[1].split("serving on ")[1].split()[0]  # one port
        assert len(_children(process.pid)) == 2
        for name in ("TK-A", "TK-B", "TK-C", "TK-D"):  # each opens its stream, on either
            client = HostClient(address, pki.credentials(pki_dir, name), name, timeout=10)
            try:
                session, _ = client.open_link("0.1.0", "sig", 0)
                session.close()
            finally:
                client.close()
        db = PostgresHostDb(url)
        try:
            assert {t.terminal_id for t in db.terminals()} >= {"TK-A", "TK-B", "TK-C", "TK-D"}
        finally:
            db.close()
        killed = _children(process.pid)[0]  # a process that dies is started again
        os.kill(killed, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while not (len(now := _children(process.pid)) == 2 and killed not in now):
            assert time.monotonic() < deadline, now
            time.sleep(0.2)
        assert f"serving on {address}" in process.stdout.readline()  # the new one
        client = HostClient(address, pki.credentials(pki_dir, "TK-A"), "TK-A", timeout=10)
        try:
            for _ in range(4):  # whichever process the kernel picks
                session, _ = client.open_link("0.1.0", "sig", 0)
                session.close()
        finally:
            client.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    time.sleep(0.2)
    assert not _children(process.pid)


def test_the_tuned_collector_freezes_the_start_up_heap() -> None:
    before = gc.get_threshold()
    try:
        state = gc_tuning.tune()
        assert state.thresholds == gc_tuning.THRESHOLDS == gc.get_threshold()
        # frozen objects freed by their refcount since (another test's threads) leave the
        # permanent generation: the count can only have fallen
        assert state.frozen > 1000 and 0 < gc.get_freeze_count() <= state.frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_the_host_sets_its_switch_interval() -> None:
    before = sys.getswitchinterval()
    try:
        assert gc_tuning.set_switch_interval(0.5) == pytest.approx(0.5)
        assert sys.getswitchinterval() == pytest.approx(0.0005)
    finally:
        sys.setswitchinterval(before)


def test_a_switch_interval_out_of_range_is_one_line() -> None:
    ran = turbokiosk("host", "serve", "--switch-interval-ms", "0")
    assert ran.returncode != 0
    err = ran.stderr.strip().splitlines()
    assert len(err) == 1 and "--switch-interval-ms" in err[0] and "Traceback" not in ran.stderr


@pytest.mark.bench
def test_a_full_collection_of_the_host_before_and_after_tuning(tmp_path: Path) -> None:
    """The pause of a full (generation 2) collection in a started host, Python's defaults
    against the tuned collector, in the same process (printed; docs/host.md)."""
    from kiosk.host.accounting.db import SqliteHostDb
    from kiosk.host.accounting.server import HostServer

    pki.ensure_pki(tmp_path / "pki", ("TK-A",))
    server = HostServer(
        SqliteHostDb(tmp_path / "host.sqlite3"),
        pki.credentials(tmp_path / "pki", "host"),
        "127.0.0.1:0",
    ).start()
    before = gc.get_threshold()

    def pause_ms() -> float:
        times = []
        for _ in range(5):
            began = time.perf_counter()
            gc.collect()
            times.append((time.perf_counter() - began) * 1000)
        return min(times)

    try:
        default = pause_ms(), len(gc.get_objects())
        state = gc_tuning.tune()
        tuned = pause_ms(), len(gc.get_objects())
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
        server.stop()
    print(
        f"\nfull collection: default {default[0]:.2f} ms over {default[1]} objects; tuned "
        f"{tuned[0]:.2f} ms over {tuned[1]} objects ({state.frozen} frozen)"
    )
    assert tuned[1] < default[1]
