"""The exception queue that survives power loss: its own hash-chained SQLite file.

``DATA_DIR/sas.sqlite3`` (WAL, ``synchronous=FULL``) holds, beside the terminal's journal:

- ``exceptions``: every exception queued for the host, in order, each row chained to the one
  before it (``hash = SHA-256(prev hash, id, code, priority, data, source)``).  A row is
  ``queued`` until it has gone out on the line, then ``sent``;
- ``validations``: cash-out tickets printed, for the host's enhanced-validation reads (4D);
- ``meta``: the **cursor** (the last journal row turned into exceptions), the address, the
  bill acceptor's host setting, the validation ID the host set (4C), the last ticket in.

**Nothing lost, nothing repeated.**  Exceptions come from the terminal's journal, not from
memory: :meth:`ExceptionQueue.take_events` queues the exceptions of journal rows after the
cursor and moves the cursor *in the same transaction*, so a SIGKILL before it leaves the
rows to be read again at start-up, and one after it leaves them queued exactly once.  A row
leaves the queue when the response that carried it has been written to the port
(:meth:`ExceptionQueue.mark_sent`, committed when the reply is made, just before it is
written, so a kill at any instant neither repeats it nor loses it; decision 0026 gives the one
window left).

**Prioritised and bounded.**  The next exception is the oldest of the highest priority
(:data:`PRIORITY`: money and handpays, then faults, then doors and menus, then the rest).  At
most ``capacity`` rows of priority 1 and below wait; past that the oldest of the lowest
priority is dropped and one *exception buffer overflow* (70) is queued in its place.  Priority
0 rows (handpays, tickets, validation) are never dropped.  Volatile rows (a validation request,
a ticket inserted: things that mean nothing after a restart) are removed at start-up.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kiosk.sas.wire import ExceptionCode as X

FILE_NAME = "sas.sqlite3"
SCHEMA_VERSION = 1
DEFAULT_CAPACITY = 64
_ZERO_HASH = bytes(32)

#: exception code -> priority (0 first); codes not listed are priority 3
PRIORITY: dict[int, int] = {
    **dict.fromkeys(
        (
            X.HANDPAY_PENDING,
            X.HANDPAY_RESET,
            X.SYSTEM_VALIDATION_REQUEST,
            X.TICKET_INSERTED,
            X.TICKET_TRANSFER_COMPLETE,
            X.CASHOUT_TICKET_PRINTED,
            X.HANDPAY_VALIDATED,
        ),
        0,
    ),
    **dict.fromkeys(
        (
            X.AC_POWER_APPLIED,
            X.AC_POWER_LOST,
            X.GENERAL_TILT,
            X.BILL_JAM,
            X.BILL_ACCEPTOR_HARDWARE_FAILURE,
            X.CASHBOX_FULL,
            X.CASHBOX_REMOVED,
            X.RAM_ERROR_NO_DATA_RECOVERED,
            X.MEMORY_ERROR_RESET,
            X.PRINTER_COMMUNICATION_ERROR,
            X.PRINTER_PAPER_OUT,
            X.PRINTER_CARRIAGE_JAMMED,
            X.EXCEPTION_BUFFER_OVERFLOW,
        ),
        1,
    ),
    **dict.fromkeys(
        (
            X.SLOT_DOOR_OPENED,
            X.SLOT_DOOR_CLOSED,
            X.DROP_DOOR_OPENED,
            X.DROP_DOOR_CLOSED,
            X.CARD_CAGE_OPENED,
            X.CARD_CAGE_CLOSED,
            X.CASHBOX_DOOR_OPENED,
            X.CASHBOX_DOOR_CLOSED,
            X.BELLY_DOOR_OPENED,
            X.BELLY_DOOR_CLOSED,
            X.CASHBOX_INSTALLED,
            X.OPERATOR_CHANGED_OPTIONS,
            X.SOFT_METERS_RESET,
            X.ATTENDANT_MENU_ENTERED,
            X.ATTENDANT_MENU_EXITED,
            X.OPERATOR_MENU_ENTERED,
            X.OPERATOR_MENU_EXITED,
        ),
        2,
    ),
}


class QueueError(Exception):
    """The SAS store cannot be used (unreadable, or its chain is broken): one line why."""


@dataclass(frozen=True)
class NewException:
    """An exception to queue: its code, its real-time event data, where it came from."""

    code: int
    data: bytes = b""  # the event data sent with it when real-time reporting is on
    rte_only: bool = False  # reported only while real-time event reporting is on
    volatile: bool = False  # meaningless after a restart (removed at start-up)


@dataclass(frozen=True)
class RowEffects:
    """What one journal row means to the SAS link: exceptions, and a ticket printed."""

    exceptions: tuple[NewException, ...] = ()
    printed: tuple[tuple[str, int, int], ...] = ()  # (validation number, cents, epoch ms)


@dataclass(frozen=True)
class QueuedException:
    """A queued exception, as the protocol core reports it."""

    id: int
    code: int
    data: bytes
    rte_only: bool


@dataclass(frozen=True)
class PrintedTicket:
    """A cash-out ticket printed, for enhanced validation (4D)."""

    id: int
    validation_number: str
    value: int  # cents
    at: int  # epoch ms
    read: bool


def _row_hash(prev: bytes, row_id: int, item: NewException, priority: int, source: int) -> bytes:
    h = hashlib.sha256()
    h.update(prev)
    h.update(row_id.to_bytes(8, "big"))
    h.update(bytes([item.code, priority, item.rte_only, item.volatile]))
    h.update(len(item.data).to_bytes(2, "big") + item.data)
    h.update(source.to_bytes(8, "big", signed=True))
    return h.digest()


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS exceptions (
    id INTEGER PRIMARY KEY,
    code INTEGER NOT NULL,
    priority INTEGER NOT NULL,
    data BLOB NOT NULL,
    rte_only INTEGER NOT NULL,
    volatile INTEGER NOT NULL,
    source INTEGER NOT NULL,
    state TEXT NOT NULL,
    hash BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS exceptions_waiting ON exceptions (state, priority, id);
CREATE TABLE IF NOT EXISTS validations (
    id INTEGER PRIMARY KEY,
    validation_number TEXT NOT NULL,
    value INTEGER NOT NULL,
    at INTEGER NOT NULL,
    read INTEGER NOT NULL
);
"""


class ExceptionQueue:
    """The SAS link's non-volatile store (thread-safe: one connection behind a lock)."""

    def __init__(
        self, data_dir: Path, *, capacity: int = DEFAULT_CAPACITY, keep: int = 1000
    ) -> None:
        self.path = Path(data_dir) / FILE_NAME
        self.capacity = capacity
        self.keep = keep  # reported rows kept for the record before the oldest are forgotten
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            self._db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
            )
            self.verify()
            with self._txn():
                self._db.execute("DELETE FROM exceptions WHERE volatile = 1 AND state = 'queued'")
        except sqlite3.Error as exc:
            raise QueueError(f"SAS store {self.path}: {exc}") from exc

    # --- plumbing ---------------------------------------------------------------------------

    class _Txn:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> None:
            self.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
            self.db.execute("COMMIT" if exc is None else "ROLLBACK")

    def _txn(self) -> ExceptionQueue._Txn:
        return ExceptionQueue._Txn(self._db)

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()

    def get_meta(self, key: str, default: str = "") -> str:
        """A setting kept in the store."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if row is None else str(row[0])

    def set_meta(self, key: str, value: str, *, durable: bool = True) -> None:
        """Keep a setting (committed before this returns; on disk too unless ``durable`` is
        False, for figures that are only informative)."""
        with self._lock:
            if not durable:
                self._db.execute("PRAGMA synchronous=NORMAL")
            try:
                with self._txn():
                    self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
            finally:
                if not durable:
                    self._db.execute("PRAGMA synchronous=FULL")

    @property
    def cursor(self) -> int:
        """The last journal row whose exceptions are queued."""
        return int(self.get_meta("cursor", "0"))

    # --- integrity --------------------------------------------------------------------------

    def verify(self) -> int:
        """Check the chain of every exception row; the number checked (QueueError if broken)."""
        with self._lock:
            prev = bytes.fromhex(self.get_meta("chain_base", _ZERO_HASH.hex()))
            count = 0
            rows = self._db.execute(
                "SELECT id, code, priority, data, rte_only, volatile, source, hash "
                "FROM exceptions ORDER BY id"
            )
            for row_id, code, priority, data, rte, vol, source, stored in rows:
                item = NewException(code, bytes(data), bool(rte), bool(vol))
                if _row_hash(prev, row_id, item, priority, source) != stored:
                    raise QueueError(f"SAS store {self.path}: exception row {row_id} altered")
                prev = stored
                count += 1
            return count

    # --- queueing ---------------------------------------------------------------------------

    def _append(self, item: NewException, source: int) -> None:
        row = self._db.execute(
            "SELECT id, hash FROM exceptions ORDER BY id DESC LIMIT 1"
        ).fetchone()
        prev = (
            bytes(row[1]) if row else bytes.fromhex(self.get_meta("chain_base", _ZERO_HASH.hex()))
        )
        row_id = (row[0] if row else int(self.get_meta("base_id", "0"))) + 1
        priority = PRIORITY.get(item.code, 3)
        self._db.execute(
            "INSERT INTO exceptions VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?)",
            (
                row_id,
                item.code,
                priority,
                item.data,
                int(item.rte_only),
                int(item.volatile),
                source,
                _row_hash(prev, row_id, item, priority, source),
            ),
        )
        if priority > 0:
            self._bound()

    def _bound(self) -> None:
        waiting = self._db.execute(
            "SELECT COUNT(*) FROM exceptions WHERE state = 'queued' AND priority > 0"
        ).fetchone()[0]
        if waiting <= self.capacity:
            return
        victim = self._db.execute(
            "SELECT id FROM exceptions WHERE state = 'queued' AND priority > 0 AND code != ? "
            "ORDER BY priority DESC, id LIMIT 1",
            (X.EXCEPTION_BUFFER_OVERFLOW,),
        ).fetchone()
        if victim is not None:
            self._db.execute("UPDATE exceptions SET state = 'dropped' WHERE id = ?", victim)
        overflow = self._db.execute(
            "SELECT 1 FROM exceptions WHERE state = 'queued' AND code = ?",
            (X.EXCEPTION_BUFFER_OVERFLOW,),
        ).fetchone()
        if overflow is None:
            self._append(NewException(X.EXCEPTION_BUFFER_OVERFLOW), -1)

    def push(self, items: Iterable[NewException], source: int = 0) -> None:
        """Queue exceptions that do not come from a journal row (committed on return)."""
        with self._lock, self._txn():
            for item in items:
                self._append(item, source)

    def take_events(self, rows: Iterable[tuple[int, RowEffects]]) -> int:
        """Queue what the journal rows ``(seq, effects)`` after the cursor mean (exceptions,
        tickets printed) and move the cursor past them, in one transaction; the new cursor."""
        with self._lock, self._txn():
            cursor = int(self.get_meta("cursor", "0"))
            for seq, effects in rows:
                if seq <= cursor:
                    continue
                for item in effects.exceptions:
                    self._append(item, seq)
                for number, value, at in effects.printed:
                    self._add_printed(number, value, at)
                cursor = seq
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('cursor', ?)", (str(cursor),))
            return cursor

    def next(self, rte: bool) -> QueuedException | None:
        """The exception to report next (real-time-only ones are skipped while RTE is off)."""
        with self._lock:
            query = (
                "SELECT id, code, data, rte_only FROM exceptions WHERE state = 'queued' "
                + ("" if rte else "AND rte_only = 0 ")
                + "ORDER BY priority, id LIMIT 1"
            )
            row = self._db.execute(query).fetchone()
        if row is None:
            return None
        return QueuedException(row[0], row[1], bytes(row[2]), bool(row[3]))

    def mark_sent(self, ids: Iterable[int]) -> None:
        """The response carrying these exceptions is about to be written to the port.

        Committed *before* the write, without waiting for the disk (``synchronous=NORMAL``:
        a killed process has handed the row to the kernel; only a power cut before the next
        checkpoint or full commit could undo it, and then the exception is reported again,
        never lost).  A kill before this commit leaves the exception queued, unwritten.
        """
        chosen = list(ids)
        if not chosen:
            return
        with self._lock:
            self._db.execute("PRAGMA synchronous=NORMAL")
            try:
                self._mark_sent(chosen)
            finally:
                self._db.execute("PRAGMA synchronous=FULL")

    def _mark_sent(self, chosen: list[int]) -> None:
        with self._txn():
            self._db.executemany(
                "UPDATE exceptions SET state = 'sent' WHERE id = ?", [(i,) for i in chosen]
            )
            if max(chosen) - int(self.get_meta("base_id", "0")) > 2 * self.keep:
                self._prune(self.keep)

    def _prune(self, keep: int) -> None:
        """Forget the oldest reported or dropped rows beyond ``keep``; the chain goes on from
        the last row forgotten (its hash and id kept as the chain's base)."""
        row = self._db.execute(
            "SELECT id, hash FROM exceptions WHERE id <= (SELECT MAX(id) FROM exceptions) - ? "
            "AND id < COALESCE((SELECT MIN(id) FROM exceptions WHERE state = 'queued'), 1e18) "
            "ORDER BY id DESC LIMIT 1",
            (keep,),
        ).fetchone()
        if row is None:
            return
        self._db.execute("DELETE FROM exceptions WHERE id <= ?", (row[0],))
        self._db.execute(
            "INSERT OR REPLACE INTO meta VALUES ('chain_base', ?)", (bytes(row[1]).hex(),)
        )
        self._db.execute("INSERT OR REPLACE INTO meta VALUES ('base_id', ?)", (str(row[0]),))

    def discard_rte_only(self) -> None:
        """Real-time reporting turned off: its own exceptions are not reported later."""
        with self._lock, self._txn():
            self._db.execute(
                "UPDATE exceptions SET state = 'dropped' WHERE state = 'queued' AND rte_only = 1"
            )

    def depth(self) -> int:
        """Exceptions waiting."""
        with self._lock:
            return int(
                self._db.execute(
                    "SELECT COUNT(*) FROM exceptions WHERE state = 'queued'"
                ).fetchone()[0]
            )

    def history(self) -> list[tuple[int, int, str]]:
        """(id, code, state) of every row kept, oldest first (for tests and the service menu)."""
        with self._lock:
            return [
                (int(a), int(b), str(c))
                for a, b, c in self._db.execute(
                    "SELECT id, code, state FROM exceptions ORDER BY id"
                )
            ]

    # --- enhanced validation records (4D) ------------------------------------------------------

    def _add_printed(self, validation_number: str, value: int, at: int) -> None:
        self._db.execute(
            "INSERT INTO validations (validation_number, value, at, read) VALUES (?, ?, ?, 0)",
            (validation_number, value, at),
        )
        self._db.execute(
            "DELETE FROM validations WHERE id <= (SELECT MAX(id) FROM validations) - 32"
        )

    def printed(self, *, unread_only: bool) -> list[PrintedTicket]:
        """The printed tickets kept (at most 32), oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, validation_number, value, at, read FROM validations "
                + ("WHERE read = 0 " if unread_only else "")
                + "ORDER BY id"
            ).fetchall()
        return [PrintedTicket(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]

    def mark_read(self, ticket_id: int) -> None:
        """The host has read this ticket's validation record."""
        with self._lock, self._txn():
            self._db.execute("UPDATE validations SET read = 1 WHERE id = ?", (ticket_id,))

    # --- small JSON settings ----------------------------------------------------------------

    def get_json(self, key: str) -> dict[str, object]:
        """A JSON object kept under ``key`` ({} when none)."""
        text = self.get_meta(key, "{}")
        try:
            value = json.loads(text)
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def set_json(self, key: str, value: dict[str, object], *, durable: bool = True) -> None:
        """Keep a JSON object under ``key``."""
        self.set_meta(key, json.dumps(value, sort_keys=True), durable=durable)
