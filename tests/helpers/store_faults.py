"""Helpers of the store-failure tests: a played store, ways to break it, money reconciliation."""

from __future__ import annotations

import contextlib
import errno
import os
import random
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import events as ev
from kiosk.terminal.robot import Robot
from kiosk.terminal.store.journal import DB_NAME
from tests.helpers.cli_process import turbokiosk

__all__ = ["turbokiosk"]


def played_store(data_dir: Path, games: int = 30, seed: int = 7) -> dict[str, int]:
    """A terminal that played ``games`` games (notes in, cash-outs); its money at the end,
    with the store checkpointed so the main file holds every row."""
    terminal = build_terminal(data_dir)
    try:
        assert terminal.runtime.power_up().critical is None
        robot = Robot(
            terminal.runtime,
            terminal.simulated.validator,
            terminal.simulated.printer,
            random.Random(seed),
        )
        while robot.stats.games < games:
            robot.play_game()
        money = money_of(data_dir, terminal)
    finally:
        terminal.close()
    db = sqlite3.connect(data_dir / DB_NAME)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return money


def money_of(data_dir: Path, terminal: object | None = None) -> dict[str, int]:
    """What the devices hold: the cash box and the vouchers printed (cents)."""
    from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter

    validator = InProcessBillValidator(data_dir / "devices")
    printer = InProcessPrinter(data_dir / "devices")
    return {
        "cashbox": validator.cashbox_total(),
        "printed": sum(v["value"] for v in printer.printed().values()),
        "vouchers": len(printer.printed()),
    }


def root_page(data_dir: Path, table: str) -> tuple[int, int]:
    """(root page number, page size) of a table's b-tree."""
    db = sqlite3.connect(data_dir / DB_NAME)
    try:
        (page,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    finally:
        db.close()
    return int(page), int(size)


def corrupt_page(data_dir: Path, table: str = "journal") -> None:
    """Overwrite the b-tree header and cell pointers of a table's root page with garbage."""
    page, size = root_page(data_dir, table)
    offset = (page - 1) * size + (100 if page == 1 else 0)
    with open(data_dir / DB_NAME, "r+b") as fh:
        fh.seek(offset)
        fh.write(bytes([0xA5]) * 64)
        fh.flush()
        os.fsync(fh.fileno())


def truncate_half(data_dir: Path) -> None:
    """Cut the store file to half its size."""
    path = data_dir / DB_NAME
    os.truncate(path, path.stat().st_size // 2)


def journal_kinds(data_dir: Path) -> list[str]:
    """Every journaled event kind, in order (read-only)."""
    db = sqlite3.connect(f"file:{data_dir / DB_NAME}?mode=ro", uri=True)
    try:
        return [kind for (kind,) in db.execute("SELECT kind FROM journal ORDER BY seq")]
    finally:
        db.close()


def logged(data_dir: Path, kind: str) -> list[ev.Event]:
    """Event-log entries of one kind (read-only)."""
    db = sqlite3.connect(f"file:{data_dir / DB_NAME}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT body FROM event_log WHERE kind = ? ORDER BY seq", (kind,))
        return [ev.decode(body) for (body,) in rows]
    finally:
        db.close()


def is_root() -> bool:
    """Whether mounts can be made here (CI runs as root)."""
    return os.geteuid() == 0


@contextlib.contextmanager
def mounted(target: Path, *options: str) -> Iterator[Path]:
    """``mount ... target`` for the duration (a tmpfs or a read-only bind)."""
    if not is_root():
        pytest.skip("mounting a tmpfs or a read-only bind needs root (CI runs as root)")
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", *options, str(target)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount here: {done.stderr.strip()}")
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False)


@contextlib.contextmanager
def read_only_bind(directory: Path) -> Iterator[Path]:
    """The directory itself, bind-mounted read-only over itself, for the duration."""
    with mounted(directory, "--bind", str(directory)):
        done = subprocess.run(
            ["mount", "-o", "remount,ro,bind", str(directory)], capture_output=True, text=True
        )
        if done.returncode != 0:
            pytest.skip(f"cannot remount read-only here: {done.stderr.strip()}")
        yield directory


def one_line_error(stderr: str) -> str:
    """The one line a command printed on stderr (asserting there is one and no traceback)."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


def play(data_dir: Path, *lines: str) -> subprocess.CompletedProcess[str]:
    result = turbokiosk("play", "--data-dir", str(data_dir), stdin="\n".join(lines) + "\nquit\n")
    assert "Traceback" not in result.stderr, result.stderr
    return result


def fill(path: Path) -> int:
    """Write to ``path`` until the file system is full; the bytes written."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    written = 0
    try:
        for size in (1 << 16, 4096, 512, 1):
            block = b"\0" * size
            while True:
                try:
                    written += os.write(fd, block)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
    finally:
        os.close(fd)
    return written
