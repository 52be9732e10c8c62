"""Store faults: every SQLite or file-system error of the store, named in one line.

The store raises :class:`StoreError` (re-exported by :mod:`kiosk.terminal.store.journal`) for
anything that stops it reading or writing; :func:`store_fault` turns the underlying
``sqlite3.Error`` or ``OSError`` into the right one with a one-line reason a technician can act on:

* :class:`StorageFullError` when the file system is full (``SQLITE_FULL``, ``ENOSPC``,
  ``EDQUOT``): nothing of the step is applied and the terminal locks up in *storage full*,
  which lifts at the next power-up once space is free;
* a plain :class:`StoreError` for everything else (a corrupt page, a file that is not a
  database, an I/O error, a read-only or missing store): the *critical memory* lockup.

Decision: docs/decisions/0007-store-failures-lock-up.md.
"""

from __future__ import annotations

import errno
import sqlite3

from kiosk.kernel.faults import StorageFullError as StorageFullError
from kiosk.kernel.faults import StoreError as StoreError

#: SQLite's primary result codes that mean "the disk is full"
_SQLITE_FULL = 13
_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})

#: primary result code -> what it means for the terminal's store
_MEANINGS = {
    3: "permission denied",  # SQLITE_PERM
    5: "store busy (another process holds it)",  # SQLITE_BUSY
    6: "store locked",  # SQLITE_LOCKED
    8: "store is read-only",  # SQLITE_READONLY
    10: "disk I/O error",  # SQLITE_IOERR
    11: "store is corrupt",  # SQLITE_CORRUPT
    14: "store cannot be opened",  # SQLITE_CANTOPEN
    26: "store file is not a database",  # SQLITE_NOTADB
}


#: how a full disk reads in a message that crossed a process boundary (the signer's refusal)
_FULL_TEXTS = ("No space left on device", "database or disk is full", "Disk quota exceeded")


def _full(exc: BaseException) -> bool:
    if isinstance(exc, StorageFullError):
        return True
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        return code is not None and code & 0xFF == _SQLITE_FULL
    if isinstance(exc, OSError):
        return exc.errno in _FULL_ERRNOS
    return False


def is_storage_full(exc: BaseException) -> bool:
    """Whether ``exc`` (an SQLite, OS or store error, or one caused by it) means the disk is
    full: the journal's database or the signer's anchor had no room."""
    seen: BaseException | None = exc
    while seen is not None:
        if _full(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    text = str(exc)
    return any(marker in text for marker in _FULL_TEXTS)


def describe(exc: BaseException) -> str:
    """One line naming the fault (no traceback, no newline)."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        meaning = _MEANINGS.get(code & 0xFF) if code is not None else None
        text = f"{meaning} ({exc})" if meaning and str(exc) else str(exc) or type(exc).__name__
    elif isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        text = f"{exc.strerror or exc}{where}"
    else:
        text = str(exc) or type(exc).__name__
    if is_storage_full(exc) and not text.startswith("storage full"):
        text = f"storage full: {text}"
    return " ".join(text.split())


def store_fault(what: str, exc: BaseException) -> StoreError:
    """The store error for ``exc`` met while doing ``what``: storage full, or any other."""
    if isinstance(exc, StoreError) and not isinstance(exc, sqlite3.Error):
        return exc
    message = f"{describe(exc)} ({what})"
    return StorageFullError(message) if is_storage_full(exc) else StoreError(message)
