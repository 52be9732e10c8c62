"""Opening the host's records for the command line: one line, never a traceback, when they
cannot be opened (the password hidden).  Below both ``host`` and ``host_web`` (decision 0050).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import TypeVar

from kiosk.host.accounting.db import HostDb, HostDbError, open_db
from kiosk.terminal.cli.guard import EXIT_FAILED, CommandLineError

T = TypeVar("T")


def connect(target: str) -> HostDb:
    """The records at ``target``; one line (the password hidden) when they cannot be opened."""
    return opened(target, lambda: open_db(target))


def opened(target: str, open_records: Callable[[], T]) -> T:
    """``open_records()`` of the records at ``target``; a database or operating-system error
    is one line (the password hidden), the host's own refusals pass as they are."""
    try:
        return open_records()
    except HostDbError:
        raise
    except Exception as exc:
        if not _is_database_error(exc):
            raise
        reason = " ".join(str(exc).split()) or exc.__class__.__name__
        raise CommandLineError(
            f"cannot open the host records {redacted(target)}: {reason}", EXIT_FAILED
        ) from None


def _is_database_error(exc: Exception) -> bool:
    """sqlite3, psycopg (imported only when PostgreSQL is used) or the operating system."""
    if isinstance(exc, (OSError, sqlite3.Error)):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - a dependency
        return False
    return isinstance(exc, psycopg.Error)


def redacted(target: str) -> str:
    """A database URL or DSN with its password replaced by ``***``."""
    target = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", target)
    return re.sub(r"(password\s*=\s*)(\S+)", r"\1***", target)
