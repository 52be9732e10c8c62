"""The exception queue across SIGKILL of a real terminal process, polled over a real pty.

A ``turbokiosk play --sas-port`` process opens and closes the main door line by line while a
host thread general-polls it; the process is killed (SIGKILL) at random instants and started
again on the same data directory.  At the end every exception the journal calls for has been
received exactly once: the door events (11/12) and one AC power applied (17) per power-up
(`tox -e slow`: a real process restarted several times takes longer than the default run allows).
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import threading
import time
import tty
from collections import Counter
from pathlib import Path

import pytest

from kiosk.terminal.core import events as e
from kiosk.terminal.sas.wire import ExceptionCode as X
from kiosk.terminal.store.reader import open_readonly

REPO = Path(__file__).resolve().parents[2]


class PollingHost:
    """General polls to address 1 every few milliseconds, each exception acknowledged with
    the sync poll (the broadcast general poll, 80); every exception byte kept."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.received: list[int] = []
        self.zeros = 0
        self.polling = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.polling.is_set():
                self._drain(0.01)
                continue
            os.write(self.master, b"\x81")
            if self._drain(0.2):  # heard: acknowledge it with the sync poll (80)
                os.write(self.master, b"\x80")
            time.sleep(0.01)

    def _drain(self, timeout: float) -> bool:
        """Read the answer (waiting at most ``timeout``); whether an exception came."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        heard = False
        for byte in os.read(self.master, 4096):
            if byte:
                self.received.append(byte)
                self.zeros = 0
                heard = True
            else:
                self.zeros += 1
        return heard

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)


def _start(data: Path, port: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("TURBOKIOSK_SIGNER", None)
    command = [sys.executable, "-m", "kiosk", "play", "--data-dir", str(data)]
    return subprocess.Popen(
        [*command, "--sas-port", port, "--sas-address", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _wait_started(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    line = process.stdout.readline()  # the session's first line: the terminal is up
    assert line, process.stderr.read() if process.stderr else ""


def _expected(data: Path) -> Counter[int]:
    counts: Counter[int] = Counter()
    with open_readonly(data) as journal:
        for row in journal.rows():
            if isinstance(row.event, e.DoorChanged):
                counts[X.SLOT_DOOR_OPENED if row.event.open else X.SLOT_DOOR_CLOSED] += 1
            elif isinstance(row.event, e.PoweredUp):
                counts[X.AC_POWER_APPLIED] += 1
    return counts


def _sas_rows(data: Path) -> list[tuple[int, int, str, int]]:
    import sqlite3

    with sqlite3.connect(data / "sas.sqlite3") as db:
        return db.execute("SELECT id, code, state, source FROM exceptions").fetchall()


def kill_campaign(tmp_path: Path, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    data = tmp_path / "terminal"
    host = PollingHost(master)
    lines = ["door open", "door close"] * (4 + 3 * kills)
    kill_after = sorted(rng.sample(range(1, len(lines)), kills))
    sent = 0
    try:
        for stop_at in [*kill_after, len(lines)]:
            process = _start(data, port)
            _wait_started(process)
            host.polling.set()
            assert process.stdin is not None
            while sent < stop_at:
                process.stdin.write(lines[sent] + "\n")
                process.stdin.flush()
                sent += 1
                time.sleep(rng.uniform(0.0, 0.03))
            if stop_at < len(lines):
                time.sleep(rng.uniform(0.0, 0.05))
                process.send_signal(signal.SIGKILL)
                process.wait(10)
                host.polling.clear()
                continue
            time.sleep(0.3)  # the last lines reach the terminal
            host.zeros = 0
            deadline = time.monotonic() + 20
            while host.zeros < 20 and time.monotonic() < deadline:
                time.sleep(0.02)
            host.polling.clear()
            process.stdin.write("quit\n")
            process.stdin.flush()
            _, err = process.communicate(timeout=20)
            assert process.returncode == 0, err
            assert "Traceback" not in err
    finally:
        host.stop()
        os.close(master)
        os.close(slave)
    expected = _expected(data)
    assert expected[X.AC_POWER_APPLIED] == kills + 1
    assert expected[X.SLOT_DOOR_OPENED] >= 1
    assert Counter(host.received) == expected, (host.received, _sas_rows(data))


@pytest.mark.slow  # 3 to 20 s on a loaded machine: tox -e slow
def test_exception_queue_across_one_sigkill(tmp_path: Path) -> None:
    kill_campaign(tmp_path, kills=1, seed=16)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_exception_queue_across_many_sigkills(tmp_path: Path, seed: int) -> None:
    kill_campaign(tmp_path, kills=8, seed=seed)
