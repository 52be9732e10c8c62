"""The tamper campaign: one test per attack on the critical memory (issue 11).

Each test puts money through a real terminal (``turbokiosk play`` as a process, its
development signer beside the data directory), tampers with the data directory as someone
with the SD card would, then checks that

- the terminal refuses to play: power-up ends in the critical memory lockup with one line, and
  ``turbokiosk play`` shows it (no traceback), its bill validator refusing notes;
- ``turbokiosk audit`` names the fault in one FAIL line and exits 1;
- no money is credited or lost: the store is left as the tamperer left it (nothing written to
  it, nothing signed for it), and its credits are not played.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as ev
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.store.journal import DB_NAME, body_hash, canonical, row_hash
from tests.helpers.store_faults import play

REPO = Path(__file__).resolve().parents[2]


def turbokiosk(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("TURBOKIOSK_SIGNER", None)
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def db(data_dir: Path) -> sqlite3.Connection:
    return sqlite3.connect(data_dir / DB_NAME, isolation_level=None)


def head(data_dir: Path) -> tuple[int, bytes]:
    with db(data_dir) as conn:
        seq, chain = conn.execute("SELECT seq, hash FROM journal ORDER BY seq DESC").fetchone()
    return seq, bytes(chain)


def assert_refuses_to_play(data_dir: Path, fault: str) -> None:
    """Power-up locks with ``fault`` in its one-line reason; play and audit say so."""
    rows_before = _rows(data_dir)
    terminal = build_terminal(data_dir)
    try:
        report = terminal.runtime.power_up()
        assert report.critical is not None and fault in report.critical, report.critical
        assert "\n" not in report.critical
        state = terminal.runtime.state
        assert state.critical is not None
        assert not terminal.runtime.accepting_money()
        with pytest.raises(CommandError, match="critical"):
            terminal.runtime.execute(c.PlaceWager("first_down", 500))
    finally:
        terminal.close()
    assert _rows(data_dir) == rows_before, "the tampered store was written to"
    shown = play(data_dir, "bill 20", "status")
    assert "Critical memory error: non-volatile memory check failed: " in shown.stdout
    assert fault in shown.stdout
    # it ends at once, before a line of input (decision 0040): the note is never taken
    assert shown.returncode == 3 and shown.stderr.startswith("turbokiosk play: terminal locked")
    assert "note" not in shown.stdout and "Game 1 " not in shown.stdout
    assert _rows(data_dir) == rows_before, "the tampered store was written to"
    result = turbokiosk("audit", "--data-dir", str(data_dir))
    assert result.returncode == 1, result.stdout
    assert "Traceback" not in result.stderr, result.stderr
    failures = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert len(failures) == 1 and fault in failures[0], result.stdout


def _rows(data_dir: Path) -> int:
    if not (data_dir / DB_NAME).exists() or (data_dir / DB_NAME).stat().st_size == 0:
        return 0
    with db(data_dir) as conn:
        try:
            return int(conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0])
        except sqlite3.DatabaseError:
            return -1


@pytest.fixture
def funded(tmp_path: Path) -> Path:
    """A stopped terminal with $120 in notes, one game played, credits on the meter."""
    data_dir = tmp_path / "terminal"
    out = play(data_dir, "bill 100", "bill 20", "bet first_down 5", "deal", "noraise")
    assert "Credits $1" in out.stdout, out.stdout
    check = turbokiosk("audit", "--data-dir", str(data_dir))
    assert check.returncode == 0, check.stdout
    return data_dir


def test_forged_rows_with_the_chain_recomputed(funded: Path) -> None:
    seq, chain = head(funded)
    with db(funded) as conn:
        for event in (
            ev.BillEscrowAccepted(at=1, seat=0, value=10_000),
            ev.BillStacked(at=1, seat=0, value=10_000),
        ):
            seq += 1
            body = ev.encode(event)
            chain = row_hash(chain, seq, body)
            conn.execute(
                "INSERT INTO journal VALUES (?, ?, ?, ?, ?)", (seq, 1, event.type_name, body, chain)
            )
    assert_refuses_to_play(funded, f"journal head row {seq} carries no signature")


def test_cut_tail_after_a_printed_voucher(funded: Path) -> None:
    out = play(funded, "cashout")
    assert "Credits $0.00" in out.stdout, out.stdout
    with db(funded) as conn:
        (started,) = conn.execute(
            "SELECT seq FROM journal WHERE kind = 'CashoutStarted' ORDER BY seq DESC"
        ).fetchone()
        # the cash-out's rows and all after it, with their signatures and log entries
        for table in ("journal", "heads", "event_log", "snapshots", "outbox"):
            conn.execute(f"DELETE FROM {table} WHERE seq >= ?", (started,))
    assert_refuses_to_play(funded, "is behind the signer's anchor")


def _killed_after_a_note(data_dir: Path) -> None:
    """Insert $55 in a play session and SIGKILL it: the commit is in the WAL only."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "play", "--data-dir", str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("bill 50\nbill 5\nstatus\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    for line in proc.stdout:
        if "> status" in line or time.monotonic() > deadline:
            break
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert (data_dir / f"{DB_NAME}-wal").stat().st_size > 0


def test_wal_deleted_after_a_kill(funded: Path) -> None:
    _killed_after_a_note(funded)
    (funded / f"{DB_NAME}-wal").unlink()
    (funded / f"{DB_NAME}-shm").unlink(missing_ok=True)
    assert_refuses_to_play(funded, "is behind the signer's anchor")


def test_wal_frame_with_a_flipped_byte(funded: Path) -> None:
    _killed_after_a_note(funded)
    wal = funded / f"{DB_NAME}-wal"
    data = bytearray(wal.read_bytes())
    data[32 + 24 + 100] ^= 0x40  # inside the first frame's page: its checksum fails
    wal.write_bytes(bytes(data))
    (funded / f"{DB_NAME}-shm").unlink(missing_ok=True)
    assert_refuses_to_play(funded, "is behind the signer's anchor")


@pytest.mark.parametrize("how", ["deleted", "truncated"])
def test_store_deleted_or_truncated(funded: Path, how: str) -> None:
    path = funded / DB_NAME
    if how == "deleted":
        for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
            (funded / name).unlink(missing_ok=True)
    else:
        path.write_bytes(b"")
    terminal = build_terminal(funded)
    try:
        report = terminal.runtime.power_up()
        assert report.critical is not None
        assert "the store is missing or empty but the signer's anchor" in report.critical
        assert not terminal.runtime.accepting_money()
    finally:
        terminal.close()
    shown = play(funded, "bill 20", "status")
    assert "Critical memory error" in shown.stdout and "missing or empty" in shown.stdout
    assert shown.returncode == 3 and "note" not in shown.stdout  # ended before a line
    result = turbokiosk("audit", "--data-dir", str(funded))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    failures = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert len(failures) == 1 and "the store is empty" in failures[0], result.stdout


def test_snapshot_edited_with_its_checksum_recomputed(funded: Path) -> None:
    with db(funded) as conn:
        seq, body = conn.execute(
            "SELECT seq, body FROM snapshots ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        import json

        state = json.loads(body)
        state["credits"] = [state["credits"][0] + 10_000]
        text = canonical(state)
        conn.execute(
            "UPDATE snapshots SET body = ?, hash = ? WHERE seq = ?",
            (text, body_hash(seq, text), seq),
        )
    assert_refuses_to_play(funded, f"snapshot after row {seq}: the signature does not verify")
