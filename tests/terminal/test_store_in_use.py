"""Whether a terminal holds a data directory's store open: ``running`` for the audit and for
the records commands' verdict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kiosk.terminal.store.lock import TerminalLock, holder, in_use

HOLD = """
import sys
from kiosk.terminal.store.lock import TerminalLock
lock = TerminalLock.acquire(sys.argv[1])
print("held", flush=True)
sys.stdin.read()
"""


def test_a_store_nobody_holds_is_not_in_use(tmp_path: Path) -> None:
    assert not in_use(tmp_path)
    lock = TerminalLock.acquire(tmp_path)
    lock.release()
    assert not in_use(tmp_path)


def test_a_store_this_process_holds_is_in_use_though_no_other_process_holds_it(
    tmp_path: Path,
) -> None:
    """A terminal running in this process (its commits in another thread) is running: an
    audit from here must not take its anchor, ahead during a commit, for cut rows."""
    lock = TerminalLock.acquire(tmp_path)
    try:
        assert holder(tmp_path) is None  # no other process
        assert in_use(tmp_path)
    finally:
        lock.release()


def test_a_store_another_process_holds_is_in_use(tmp_path: Path) -> None:
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        assert holder(tmp_path) == other.pid
        assert in_use(tmp_path)
    finally:
        assert other.stdin is not None
        other.stdin.close()
        other.wait(30)
    assert not in_use(tmp_path)
