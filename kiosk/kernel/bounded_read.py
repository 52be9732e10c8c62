"""Reading a file named from outside (command line, configuration) with a size bound.

Every file the command line or a configuration names is read through :func:`read_bounded`: only
a regular file is read (a FIFO, a device such as ``/dev/zero``, a directory or a missing file is
refused before anything is read, so nothing hangs), and a file larger than its bound is refused
without reading it all.  The error is one line that names the file and what is wrong with it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: default bound for a small text file (a pay table, a configuration, a certificate)
SMALL_FILE = 1 << 20


class InputFileError(ValueError):
    """A named file cannot be read as asked: one line saying which file and why."""


def read_bounded(path: Path | str, limit: int = SMALL_FILE, *, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises :class:`InputFileError` for a missing file, one that is not a regular file, one that
    cannot be read, or one longer than ``limit`` bytes.
    """
    name = os.fspath(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not hang; it is refused just below
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputFileError(f"{what} {name}: no such file") from None
    except IsADirectoryError:
        raise InputFileError(f"{what} {name}: is a directory, not a file") from None
    except PermissionError:
        raise InputFileError(f"{what} {name}: permission denied") from None
    except OSError as exc:
        raise InputFileError(f"{what} {name}: cannot open ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputFileError(f"{what} {name}: is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(f"{what} {name}: not a regular file")
        if info.st_size > limit:
            raise InputFileError(f"{what} {name}: {info.st_size} bytes, more than {limit} allowed")
        chunks = []
        total = 0
        while True:
            try:
                chunk = os.read(fd, min(65536, limit + 1 - total))
            except OSError as exc:
                raise InputFileError(f"{what} {name}: cannot read ({exc.strerror})") from None
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise InputFileError(f"{what} {name}: more than {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_bounded_text(path: Path | str, limit: int = SMALL_FILE, *, what: str = "file") -> str:
    """:func:`read_bounded` decoded as UTF-8 (undecodable: :class:`InputFileError`)."""
    data = read_bounded(path, limit, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputFileError(f"{what} {os.fspath(path)}: not UTF-8 text") from None
