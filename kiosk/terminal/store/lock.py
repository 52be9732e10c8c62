"""One process is the terminal of a data directory, and it says so with a lock.

The process that runs the terminal (the touchscreen app, ``turbokiosk play``, ``turbokiosk
service`` on a stopped terminal) holds an exclusive POSIX record lock (``fcntl.lockf``) on
``<data_dir>/terminal.lock`` for as long as it lives; the file holds its process id.  The kernel
drops the lock when the process ends, however it ends (a power cut or SIGKILL leaves no stale
lock).  Another process that finds the lock taken must not write the terminal's store: the
service command then runs read-only.

POSIX record locks belong to a process, so a process may take the lock of a data directory it
already holds (a terminal restarted in-process after a simulated power cut, as the fault tests
do); the lock is counted and released when the last holder lets go.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import ClassVar

from kiosk.kernel.bounded_read import InputFileError, read_bounded_text

LOCK_NAME = "terminal.lock"


class TerminalBusyError(Exception):
    """Another process is the terminal of this data directory."""

    def __init__(self, data_dir: Path, pid: int | None) -> None:
        who = f"process {pid}" if pid else "another process"
        super().__init__(
            f"the terminal of {data_dir} is running ({who} holds {Path(data_dir) / LOCK_NAME})"
        )
        self.pid = pid


class TerminalLock:
    """The exclusive lock of one data directory, held by this process."""

    _held: ClassVar[dict[Path, tuple[int, int]]] = {}  # path -> (fd, holders)

    def __init__(self, path: Path) -> None:
        self.path = path
        self._released = False

    @classmethod
    def acquire(cls, data_dir: Path) -> TerminalLock:
        """Take the lock (this process may already hold it); TerminalBusyError if another does."""
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        path = (data_dir / LOCK_NAME).resolve()
        if path in cls._held:
            fd, holders = cls._held[path]
            cls._held[path] = (fd, holders + 1)
            return cls(path)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise TerminalBusyError(data_dir, _pid_in(path)) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        cls._held[path] = (fd, 1)
        return cls(path)

    def release(self) -> None:
        """Let go (the lock itself goes when this process's last holder lets go)."""
        if self._released:
            return
        self._released = True
        fd, holders = self._held[self.path]
        if holders > 1:
            self._held[self.path] = (fd, holders - 1)
            return
        del self._held[self.path]
        os.close(fd)  # closing the descriptor drops the process's record lock

    @classmethod
    def held_here(cls, data_dir: Path) -> bool:
        """Whether this process holds the lock of ``data_dir``."""
        return (Path(data_dir) / LOCK_NAME).resolve() in cls._held


def holder(data_dir: Path) -> int | None:
    """The process id of another process holding the lock, or None when nobody else does."""
    data_dir = Path(data_dir)
    path = data_dir / LOCK_NAME
    if TerminalLock.held_here(data_dir) or not path.exists():
        return None
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO put in its place must not hang
    try:
        # a shared lock probe: refused while another process holds the exclusive lock; it is
        # taken on a descriptor of our own and dropped at once (this process holds no lock here)
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return _pid_in(path) or -1
    finally:
        os.close(fd)
    return None


def in_use(data_dir: Path) -> bool:
    """Whether a terminal holds the store of ``data_dir`` open, in this process or another: its
    commits may be in flight (the signer's anchor is ahead of the journal during each one)."""
    return TerminalLock.held_here(data_dir) or holder(data_dir) is not None


def _pid_in(path: Path) -> int | None:
    try:
        text = read_bounded_text(path, 32, what="lock file").strip()
    except InputFileError:
        return None
    return int(text) if text.isdigit() else None
