"""A broken store locks the terminal up; it never crashes and never moves money.

Each fault is made for real on a store a robot played on: a corrupt b-tree page, the file cut
to half its size, a data directory that is a file, a read-only data directory (a read-only
bind mount), a second terminal on a busy data directory.  For each: the terminal refuses to
play (the lockup, no traceback), ``audit`` names the fault in one line with a non-zero exit,
and the bill validator's cash box and the printer's vouchers are untouched.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.terminal.store.audit import audit
from tests.helpers.store_faults import (
    corrupt_page,
    money_of,
    one_line_error,
    played_store,
    read_only_bind,
    truncate_half,
    turbokiosk,
)

REPO = Path(__file__).resolve().parents[2]
PLAY = "bill 20\nbet first_down 5\ndeal\nnoraise\ncashout\nstatus\nquit\n"


def _break(fault: str, data_dir: Path) -> None:
    if fault == "corrupt_page":
        corrupt_page(data_dir)
    elif fault == "truncated":
        truncate_half(data_dir)
    else:
        raise AssertionError(fault)


@pytest.mark.parametrize(
    ("fault", "named"),
    [
        ("corrupt_page", ("quick_check", "corrupt", "malformed")),
        ("truncated", ("corrupt", "malformed", "quick_check")),
    ],
)
def test_a_broken_store_locks_every_command_up(tmp_path: Path, fault: str, named: tuple[str, ...]):
    data_dir = tmp_path / "terminal"
    money = played_store(data_dir)
    assert audit(data_dir).ok
    _break(fault, data_dir)

    done = turbokiosk("audit", "--data-dir", str(data_dir))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    fails = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert len(fails) == 1 and any(word in fails[0] for word in named), done.stdout

    soak = turbokiosk("soak", "--data-dir", str(data_dir), "--games", "3", "--seed", "1")
    assert soak.returncode == 3, soak.stdout + soak.stderr
    assert one_line_error(soak.stderr).startswith("soak: terminal locked: ")

    play = turbokiosk("play", "--data-dir", str(data_dir), stdin=PLAY)
    assert play.returncode == 3, play.stdout + play.stderr
    assert one_line_error(play.stderr).startswith("turbokiosk play: terminal locked: ")
    assert "Critical memory error: " in play.stdout
    assert "LOCKED: critical_memory_error" in play.stdout
    assert "Game 1 " not in play.stdout  # nothing was dealt

    for command in ("meters", "recall"):  # both need the journal
        shown = turbokiosk(command, "--data-dir", str(data_dir))
        assert shown.returncode != 0, (command, shown.stdout)
        assert one_line_error(shown.stderr).startswith(f"turbokiosk {command}: ")
    # the event log is a table of its own: it may still be readable; if not, one line
    shown = turbokiosk("events", "--data-dir", str(data_dir))
    if shown.returncode != 0:
        assert one_line_error(shown.stderr).startswith("turbokiosk events: ")
    assert "Traceback" not in shown.stderr

    assert money_of(data_dir) == money  # no note stacked, no voucher printed


def test_a_data_directory_that_is_a_file(tmp_path: Path) -> None:
    data_dir = tmp_path / "terminal"
    data_dir.write_text("not a directory\n")
    done = turbokiosk("audit", "--data-dir", str(data_dir))
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    fails = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert fails == [
        f"FAIL cannot open the store: the data directory {data_dir} is not a directory"
    ]
    for args in (("soak", "--games", "1"), ("play",), ("meters",), ("recall",), ("events",)):
        run = turbokiosk(*args, "--data-dir", str(data_dir), stdin="quit\n")
        assert run.returncode != 0, (args, run.stdout)
        assert "not a directory" in one_line_error(run.stderr), args
    assert data_dir.read_text() == "not a directory\n"  # nothing written


def test_a_read_only_data_directory(tmp_path: Path) -> None:
    data_dir = tmp_path / "terminal"
    money = played_store(data_dir)
    with read_only_bind(data_dir):
        # refused as an unusable --data-dir (exit 2) or as a store that cannot be written
        # (the lockup, exit 3): one line either way, and no game
        play = turbokiosk("play", "--data-dir", str(data_dir), stdin=PLAY)
        assert play.returncode in (2, 3), play.stdout + play.stderr
        line = one_line_error(play.stderr)
        assert "Read-only file system" in line or "read-only" in line, line
        assert "Game 1 " not in play.stdout
        soak = turbokiosk("soak", "--data-dir", str(data_dir), "--games", "2")
        assert soak.returncode in (2, 3), soak.stdout + soak.stderr
        assert "read-only" in one_line_error(soak.stderr).lower()
        done = turbokiosk("audit", "--data-dir", str(data_dir))
        assert "Traceback" not in done.stdout + done.stderr
        # a read-only medium may still be read (the store itself is sound) or not: either
        # every check passes, or the one failure says why it cannot be read
        fails = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
        assert done.returncode == (1 if fails else 0), done.stdout
        assert len(fails) <= 1, done.stdout
    assert money_of(data_dir) == money
    assert audit(data_dir).ok  # the store was never touched


def test_a_second_terminal_on_a_busy_data_directory(tmp_path: Path) -> None:
    data_dir = tmp_path / "terminal"
    money = played_store(data_dir, games=5)
    first = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "play", "--data-dir", str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert first.stdout is not None
        assert "Type 'help'" in first.stdout.readline() + first.stdout.readline()
        for args in (("play",), ("soak", "--games", "1"), ("run", "--devices", "inprocess")):
            second = turbokiosk(*args, "--data-dir", str(data_dir), stdin="quit\n")
            assert second.returncode == 4, (args, second.stdout, second.stderr)
            line = one_line_error(second.stderr)
            assert line.startswith(f"turbokiosk: the terminal of {data_dir} is running"), line
        reading = turbokiosk("audit", "--data-dir", str(data_dir))  # readers never wait
        assert reading.returncode == 0, reading.stdout
    finally:
        first.communicate("quit\n", timeout=30)
    assert first.returncode == 0
    assert money_of(data_dir) == money


def test_the_touchscreen_shows_the_lockup_without_a_store(tmp_path: Path) -> None:
    """``turbokiosk run`` on a truncated store comes up (no crash loop) and shows why."""
    data_dir = tmp_path / "terminal"
    played_store(data_dir, games=5)
    truncate_half(data_dir)
    dump = tmp_path / "screen.json"
    env = {"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "KIVY_NO_ARGS": "1"}
    run = turbokiosk(
        "run",
        "--data-dir",
        str(data_dir),
        "--devices",
        "inprocess",
        "--no-host",
        "--no-simulator",
        "--dump-screen",
        str(dump),
        "--exit-after-dump",
        env=env,
        timeout=120,
    )
    assert run.returncode == 3, run.stderr  # the lockup's status once the window closes
    assert "Traceback" not in run.stderr
    assert "turbokiosk run: terminal locked: non-volatile memory unreadable: " in run.stderr
    shown = json.loads(dump.read_text())
    assert shown["screen"] == "store_lockup"
    assert shown["lockup"] == "CRITICAL MEMORY ERROR"
    assert shown["reason"].startswith("non-volatile memory unreadable: ")
    assert "malformed" in shown["reason"] or "corrupt" in shown["reason"]
    assert shown["advice"] == "Please call an attendant"
    png = dump.with_suffix(".png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 2000


def test_the_touchscreen_shows_the_lockup_when_the_store_cannot_be_opened(
    tmp_path: Path,
) -> None:
    """``terminal.sqlite3`` is a directory: SQLite cannot even open it; the kiosk comes up
    with the lockup drawn from its reason alone."""
    data_dir = tmp_path / "terminal"
    (data_dir / "terminal.sqlite3").mkdir(parents=True)
    dump = tmp_path / "screen.json"
    env = {"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "KIVY_NO_ARGS": "1"}
    started = time.monotonic()
    run = turbokiosk(
        "run",
        "--data-dir",
        str(data_dir),
        "--dump-screen",
        str(dump),
        "--exit-after-dump",
        env=env,
        timeout=120,
    )
    assert run.returncode == 3, run.stderr
    assert "turbokiosk run: terminal locked: " in run.stderr
    assert time.monotonic() - started < 60
    shown = json.loads(dump.read_text())
    assert shown["screen"] == "store_lockup"
    assert shown["lockup"] == "CRITICAL MEMORY ERROR"
    assert shown["reason"].startswith("non-volatile memory unreadable: "), shown["reason"]
    assert "cannot be opened" in shown["reason"] or "unable to open" in shown["reason"]
    assert os.path.isdir(data_dir / "terminal.sqlite3")  # nothing written in its place


def test_audit_of_a_copy_is_unchanged_by_the_commands(tmp_path: Path) -> None:
    """The commands that met the broken store wrote nothing into it."""
    data_dir = tmp_path / "terminal"
    played_store(data_dir, games=5)
    corrupt_page(data_dir)
    before = (data_dir / "terminal.sqlite3").read_bytes()
    shutil.copytree(data_dir, tmp_path / "copy")
    turbokiosk("play", "--data-dir", str(data_dir), stdin=PLAY)
    turbokiosk("soak", "--data-dir", str(data_dir), "--games", "1")
    assert (data_dir / "terminal.sqlite3").read_bytes() == before
