"""The dashboard's own connections to the host's database (SQLite file or PostgreSQL).

Two connections, each serialised by its own lock:

- ``read``: the host's tables, **read-only** (SQLite ``mode=ro``; PostgreSQL
  ``default_transaction_read_only``), so no page can change a record of the host;
- ``write``: the dashboard's own tables (users, sessions, its audit), never the host's.

Statements use ``?`` placeholders on both back ends.  Nothing here imports the host's code:
the host may change how it writes (threads, asyncio, group commit) without breaking the pages.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def is_postgres(target: str) -> bool:
    """Whether ``target`` names PostgreSQL (a URL or a ``host=...`` DSN)."""
    return target.startswith(("postgresql://", "postgres://", "host="))


class Connection:
    """One connection with a lock; ``?`` placeholders on either back end."""

    def __init__(self, target: str, *, read_only: bool) -> None:
        self.postgres = is_postgres(target)
        self._lock = threading.Lock()
        self._conn: Any
        if self.postgres:
            import psycopg

            self._conn = psycopg.connect(target, autocommit=True)
            if read_only:
                self._conn.execute("SET default_transaction_read_only = on")
        else:
            path = Path(target)
            if read_only:
                uri = f"file:{path.resolve()}?mode=ro"
                self._conn = sqlite3.connect(
                    uri, uri=True, isolation_level=None, check_same_thread=False, timeout=30
                )
            else:
                self._conn = sqlite3.connect(
                    path, isolation_level=None, check_same_thread=False, timeout=30
                )
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=FULL")

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.postgres else sql

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query (its own read transaction)."""
        with self._lock:
            return [tuple(r) for r in self._conn.execute(self._sql(sql), params).fetchall()]

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """A unit of work, committed when the block ends and rolled back when it raises."""
        with self._lock:
            if self.postgres:
                with self._conn.transaction():
                    yield Transaction(self)
                return
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield Transaction(self)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class Transaction:
    """Statements inside :meth:`Connection.transaction`."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; the number of rows it changed."""
        cur = self._conn._conn.execute(self._conn._sql(sql), params)
        return int(cur.rowcount)

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query inside the transaction."""
        cur = self._conn._conn.execute(self._conn._sql(sql), params)
        return [tuple(r) for r in cur.fetchall()]
