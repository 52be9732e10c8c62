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
rows to be read again at start-up, and one after it leaves them queued exactly once.  An
exception leaves the queue when the reply carrying it is made: its id is appended to
``sas.sent`` (:meth:`ExceptionQueue.mark_sent`, one ``O_APPEND`` write) just before the reply
is written, and folded into the store by the writer thread and at the next start-up; decision
0026 gives the one window left.  The SAS thread reads the queue from memory and never waits
for the disk (see :class:`ExceptionQueue`).

**Prioritised and bounded.**  The next exception is the oldest of the highest priority
(:data:`PRIORITY`: money and handpays, then faults, then doors and menus, then the rest).  At
most ``capacity`` rows of priority 1 and below wait; past that the oldest of the lowest
priority is dropped and one *exception buffer overflow* (70) is queued in its place.  Priority
0 rows (handpays, tickets, validation) are never dropped.  Volatile exceptions (a validation
request, a ticket inserted: things that mean nothing after a restart) are kept in memory only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import sqlite3
import struct
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kiosk.terminal.sas.wire import ExceptionCode as X

FILE_NAME = "sas.sqlite3"
SENT_LOG_NAME = "sas.sent"  # ids of exceptions sent, appended before each reply is written
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
            X.AFT_TRANSFER_COMPLETE,
            X.LEGACY_BONUS_AWARDED,
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


@dataclass
class _Waiting:
    code: int
    priority: int
    data: bytes
    rte_only: bool


class ExceptionQueue:
    """The SAS link's non-volatile store.

    **The SAS thread never waits for the disk.**  What it reads (the exceptions waiting, the
    settings, the printed tickets) is kept in memory and changed only after the store has
    committed it; what it writes goes to a writer thread, except the one thing that must be
    safe before a reply is written — an exception sent — which is appended to ``sas.sent``
    (an ``O_APPEND`` write, no fsync: a killed process has handed it to the kernel) and folded
    into the store by the writer thread, and at the next start-up.  The terminal's thread
    queues with ``synchronous=FULL`` commits (they may take long on a busy disk: the SAS thread
    does not wait for them).
    """

    def __init__(
        self, data_dir: Path, *, capacity: int = DEFAULT_CAPACITY, keep: int = 1000
    ) -> None:
        self.path = Path(data_dir) / FILE_NAME
        self.capacity = capacity
        self.keep = keep  # reported rows kept for the record before the oldest are forgotten
        self._lock = threading.RLock()  # the connection
        self._mem = threading.RLock()  # the in-memory view
        self._sent_path = Path(data_dir) / SENT_LOG_NAME
        self._reader: sqlite3.Connection | None = None
        self._volatile_id = 0  # volatile exceptions: memory only, ids -1, -2, ...
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            self._db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
            )
            self.verify()
            self._fold_sent_log()
            with self._txn():
                self._db.execute("DELETE FROM exceptions WHERE volatile = 1 AND state = 'queued'")
            self._meta: dict[str, str] = {
                str(k): str(v) for k, v in self._db.execute("SELECT key, value FROM meta")
            }
            self._waiting: dict[int, _Waiting] = {
                int(r[0]): _Waiting(int(r[1]), int(r[2]), bytes(r[3]), bool(r[4]))
                for r in self._db.execute(
                    "SELECT id, code, priority, data, rte_only FROM exceptions "
                    "WHERE state = 'queued'"
                )
            }
            self._printed: list[PrintedTicket] = [
                PrintedTicket(r[0], r[1], r[2], r[3], bool(r[4]))
                for r in self._db.execute(
                    "SELECT id, validation_number, value, at, read FROM validations ORDER BY id"
                )
            ]
            self._sent_fd = os.open(self._sent_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except sqlite3.Error as exc:
            raise QueueError(f"SAS store {self.path}: {exc}") from exc
        except OSError as exc:
            raise QueueError(f"SAS store {self._sent_path}: {exc.strerror}") from exc
        self._writes: queue.SimpleQueue[tuple[str, object] | None] = queue.SimpleQueue()
        self._idle = threading.Event()
        self._idle.set()
        self._pending_writes = 0
        self._writer = threading.Thread(target=self._write_loop, name="sas-store", daemon=True)
        self._writer.start()

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

    def _fold_sent_log(self) -> None:
        """At start-up: the ids appended to ``sas.sent`` are sent, whatever the store says."""
        if not self._sent_path.exists():
            return
        raw = self._sent_path.read_bytes()
        ids = [i for (i,) in struct.iter_unpack(">q", raw[: len(raw) // 8 * 8])]
        with self._txn():
            self._db.executemany(
                "UPDATE exceptions SET state = 'sent' WHERE id = ? AND state = 'queued'",
                [(i,) for i in ids],
            )
        with open(self._sent_path, "r+b") as fh:
            fh.truncate(0)
            fh.flush()
            os.fsync(fh.fileno())

    def _later(self, kind: str, payload: object) -> None:
        """A store write the caller does not wait for (the writer thread does it)."""
        with self._mem:
            self._pending_writes += 1
            self._idle.clear()
        self._writes.put((kind, payload))

    def _write_loop(self) -> None:
        while True:
            item = self._writes.get()
            if item is None:
                return
            batch = [item]
            while True:
                try:
                    more = self._writes.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._writes.put(None)
                    break
                batch.append(more)
            with contextlib.suppress(sqlite3.Error):  # the store went away: the sent log holds
                self._apply_writes(batch)
            with self._mem:
                self._pending_writes -= len(batch)
                if self._pending_writes == 0:
                    self._idle.set()

    def _apply_writes(self, batch: list[tuple[str, object]]) -> None:
        with self._lock:
            self._db.execute("PRAGMA synchronous=NORMAL")
            try:
                with self._txn():
                    for kind, payload in batch:
                        if kind == "meta":
                            assert isinstance(payload, tuple)
                            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", payload)
                        elif kind == "sent":
                            assert isinstance(payload, list)
                            self._db.executemany(
                                "UPDATE exceptions SET state = 'sent' WHERE id = ?",
                                [(i,) for i in payload],
                            )
                        elif kind == "dropped":
                            assert isinstance(payload, list)
                            self._db.executemany(
                                "UPDATE exceptions SET state = 'dropped' WHERE id = ? "
                                "AND state = 'queued'",
                                [(i,) for i in payload],
                            )
                        elif kind == "read":
                            self._db.execute(
                                "UPDATE validations SET read = 1 WHERE id = ?", (payload,)
                            )
                    top = self._db.execute("SELECT MAX(id) FROM exceptions").fetchone()[0] or 0
                    if top - int(self._meta_get("base_id", "0")) > 2 * self.keep:
                        self._prune(self.keep)
            finally:
                self._db.execute("PRAGMA synchronous=FULL")

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until the writer thread has written everything handed to it."""
        self._idle.wait(timeout)

    def close(self) -> None:
        """Write what is pending, then close the store and the sent log."""
        self.flush()
        self._writes.put(None)
        self._writer.join(5)
        with self._lock:
            self._db.close()
            if self._reader is not None:
                self._reader.close()
        os.close(self._sent_fd)

    def _meta_get(self, key: str, default: str) -> str:
        with self._mem:
            return self._meta.get(key, default)

    def get_meta(self, key: str, default: str = "") -> str:
        """A setting kept in the store (from memory)."""
        return self._meta_get(key, default)

    def set_meta(self, key: str, value: str, *, durable: bool = True) -> None:
        """Keep a setting: at once in memory, in the store by the writer thread (``durable``
        is kept for the callers' intent; the write is the same)."""
        with self._mem:
            self._meta[key] = value
        self._later("meta", (key, value))

    def start_cursor(self, seq: int, epoch: str) -> None:
        """A new store follows the journal of ``epoch`` from row ``seq`` on (committed on
        return; nothing if the store already follows one)."""
        with self._lock, self._txn():
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('cursor', ?)", (str(seq),))
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('journal_epoch', ?)", (epoch,))
            kept = dict(
                self._db.execute(
                    "SELECT key, value FROM meta WHERE key IN ('cursor', 'journal_epoch')"
                ).fetchall()
            )
        with self._mem:
            self._meta.update({str(k): str(v) for k, v in kept.items()})

    def follow_new_journal(self, epoch: str) -> None:
        """The terminal's store was replaced (a RAM clear: a new epoch, rows from 1 again):
        follow the new journal from its first row (committed on return)."""
        with self._lock, self._txn():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('cursor', '0')")
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('journal_epoch', ?)", (epoch,))
        with self._mem:
            self._meta["cursor"], self._meta["journal_epoch"] = "0", epoch

    def stored_address(self) -> int:
        """The address kept in the store now (a technician may have set it from another
        process); read on a connection of its own, never waiting for the writers."""
        value = self.stored_value("address")
        return int(value) if value.isdigit() else 0

    def stored_value(self, key: str) -> str:
        """A setting as the store has it now (another process may have written it), "" for
        none; read on a connection of its own, never waiting for the writers."""
        if self._reader is None:
            self._reader = sqlite3.connect(
                f"file:{self.path}?mode=ro", uri=True, check_same_thread=False
            )
        row = self._reader.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else ""

    @property
    def cursor(self) -> int:
        """The last journal row whose exceptions are queued."""
        return int(self._meta_get("cursor", "0"))

    # --- integrity --------------------------------------------------------------------------

    def verify(self) -> int:
        """Check the chain of every exception row; the number checked (QueueError if broken)."""
        with self._lock:
            base = self._db.execute("SELECT value FROM meta WHERE key = 'chain_base'").fetchone()
            prev = bytes.fromhex(base[0]) if base else _ZERO_HASH
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

    # --- queueing (the terminal's thread) ------------------------------------------------------

    def _insert(self, item: NewException, source: int) -> tuple[int, _Waiting]:
        row = self._db.execute(
            "SELECT id, hash FROM exceptions ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row:
            row_id, prev = row[0] + 1, bytes(row[1])
        else:
            base = self._db.execute("SELECT value FROM meta WHERE key = 'chain_base'").fetchone()
            base_id = self._db.execute("SELECT value FROM meta WHERE key = 'base_id'").fetchone()
            prev = bytes.fromhex(base[0]) if base else _ZERO_HASH
            row_id = (int(base_id[0]) if base_id else 0) + 1
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
        return row_id, _Waiting(item.code, priority, item.data, item.rte_only)

    def _queue(
        self, items: Iterable[tuple[NewException, int]]
    ) -> tuple[dict[int, _Waiting], list[int]]:
        """Insert (inside a transaction) and apply the bound: (rows added, rows dropped)."""
        added: dict[int, _Waiting] = {}
        dropped: list[int] = []
        for item, source in items:
            row_id, row = self._insert(item, source)
            added[row_id] = row
            if row.priority == 0:
                continue
            with self._mem:
                waiting = {**self._waiting, **added}
            for gone in dropped:
                waiting.pop(gone, None)
            low = {i: w for i, w in waiting.items() if w.priority > 0 and i > 0}
            overflow = any(w.code == X.EXCEPTION_BUFFER_OVERFLOW for w in low.values())
            while len(low) > self.capacity:  # the overflow marker counts in the bound
                candidates = [i for i, w in low.items() if w.code != X.EXCEPTION_BUFFER_OVERFLOW]
                if not candidates:
                    break
                victim = min(candidates, key=lambda i: (-low[i].priority, i))
                self._db.execute("UPDATE exceptions SET state = 'dropped' WHERE id = ?", (victim,))
                del low[victim]
                if victim in added:
                    del added[victim]
                else:
                    dropped.append(victim)
                if not overflow:
                    row_id, row = self._insert(NewException(X.EXCEPTION_BUFFER_OVERFLOW), -1)
                    added[row_id] = row
                    low[row_id] = row
                    overflow = True
        return added, dropped

    def _publish(self, added: dict[int, _Waiting], dropped: list[int]) -> None:
        with self._mem:
            self._waiting.update(added)
            for gone in dropped:
                self._waiting.pop(gone, None)

    def push(self, items: Iterable[NewException], source: int = 0) -> None:
        """Queue exceptions that do not come from a journal row (committed on return).

        Volatile ones (a request the terminal is waiting on) are kept in memory only, under
        negative ids: they mean nothing after a restart, and the waiting terminal must not wait
        for the disk."""
        chosen = list(items)
        lasting = [item for item in chosen if not item.volatile]
        with self._mem:
            for item in chosen:
                if item.volatile:
                    self._volatile_id -= 1
                    self._waiting[self._volatile_id] = _Waiting(
                        item.code, PRIORITY.get(item.code, 3), item.data, item.rte_only
                    )
        if lasting:
            with self._lock, self._txn():
                added, dropped = self._queue((item, source) for item in lasting)
            self._publish(added, dropped)

    def take_events(self, rows: Iterable[tuple[int, RowEffects]]) -> int:
        """Queue what the journal rows ``(seq, effects)`` after the cursor mean (exceptions,
        tickets printed) and move the cursor past them, in one transaction; the new cursor."""
        printed: list[tuple[str, int, int]] = []
        with self._lock:
            with self._txn():
                stored = self._db.execute("SELECT value FROM meta WHERE key = 'cursor'").fetchone()
                cursor = int(stored[0]) if stored else 0
                pairs: list[tuple[NewException, int]] = []
                for seq, effects in rows:
                    if seq <= cursor:
                        continue
                    pairs += [(item, seq) for item in effects.exceptions]
                    printed += effects.printed
                    cursor = seq
                added, dropped = self._queue(pairs)
                for number, value, at in printed:
                    self._db.execute(
                        "INSERT INTO validations (validation_number, value, at, read) "
                        "VALUES (?, ?, ?, 0)",
                        (number, value, at),
                    )
                self._db.execute(
                    "DELETE FROM validations WHERE id <= (SELECT MAX(id) FROM validations) - 32"
                )
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('cursor', ?)", (str(cursor),))
            tickets = [
                PrintedTicket(r[0], r[1], r[2], r[3], bool(r[4]))
                for r in self._db.execute(
                    "SELECT id, validation_number, value, at, read FROM validations ORDER BY id"
                )
            ]
        self._publish(added, dropped)
        with self._mem:
            self._meta["cursor"] = str(cursor)
            read = {t.id for t in self._printed if t.read}
            self._printed = [
                PrintedTicket(t.id, t.validation_number, t.value, t.at, t.read or t.id in read)
                for t in tickets
            ]
        return cursor

    def add_printed(self, validation_number: str, value: int, at: int) -> None:
        """Keep a printed ticket's record for 4D outside a journal row (tests, tools): the
        journal's VoucherPrinted does it through :meth:`take_events`."""
        with self._lock, self._txn():
            self._db.execute(
                "INSERT INTO validations (validation_number, value, at, read) VALUES (?, ?, ?, 0)",
                (validation_number, value, at),
            )
            row_id = self._db.execute("SELECT MAX(id) FROM validations").fetchone()[0]
        with self._mem:
            self._printed.append(PrintedTicket(int(row_id), validation_number, value, at, False))
            del self._printed[:-32]

    _add_printed = add_printed  # the name an earlier version had (tests/sas/host use it)

    # --- reporting (the SAS thread: memory and the sent log only) ------------------------------

    def next(self, rte: bool) -> QueuedException | None:
        """The exception to report next (real-time-only ones are skipped while RTE is off)."""
        with self._mem:
            chosen = [(w.priority, i) for i, w in self._waiting.items() if rte or not w.rte_only]
            if not chosen:
                return None
            row_id = min(chosen)[1]
            w = self._waiting[row_id]
            return QueuedException(row_id, w.code, w.data, w.rte_only)

    def mark_sent(self, ids: Iterable[int]) -> None:
        """The reply carrying these exceptions is about to be written: out of the queue now,
        the ids appended to the sent log (safe from a kill), the store updated by the writer."""
        chosen = list(ids)
        if not chosen:
            return
        lasting = [i for i in chosen if i > 0]
        with self._mem:
            for i in chosen:
                self._waiting.pop(i, None)
            if lasting:
                os.write(self._sent_fd, b"".join(struct.pack(">q", i) for i in lasting))
        if lasting:
            self._later("sent", lasting)

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
        base = (bytes(row[1]).hex(), str(row[0]))
        self._db.execute("INSERT OR REPLACE INTO meta VALUES ('chain_base', ?)", (base[0],))
        self._db.execute("INSERT OR REPLACE INTO meta VALUES ('base_id', ?)", (base[1],))
        with self._mem:
            self._meta["chain_base"], self._meta["base_id"] = base

    def discard_rte_only(self) -> None:
        """Real-time reporting turned off: its own exceptions are not reported later."""
        with self._mem:
            gone = [i for i, w in self._waiting.items() if w.rte_only]
            for i in gone:
                del self._waiting[i]
        self._later("dropped", gone)

    def depth(self) -> int:
        """Exceptions waiting."""
        with self._mem:
            return len(self._waiting)

    def history(self) -> list[tuple[int, int, str]]:
        """(id, code, state) of every row kept, oldest first (for tests and the service menu)."""
        self.flush()
        with self._lock:
            return [
                (int(a), int(b), str(c))
                for a, b, c in self._db.execute(
                    "SELECT id, code, state FROM exceptions ORDER BY id"
                )
            ]

    # --- enhanced validation records (4D) ------------------------------------------------------

    def printed(self, *, unread_only: bool) -> list[PrintedTicket]:
        """The printed tickets kept (at most 32), oldest first."""
        with self._mem:
            return [t for t in self._printed if not (unread_only and t.read)]

    def mark_read(self, ticket_id: int) -> None:
        """The host has read this ticket's validation record."""
        with self._mem:
            self._printed = [
                PrintedTicket(t.id, t.validation_number, t.value, t.at, True)
                if t.id == ticket_id
                else t
                for t in self._printed
            ]
        self._later("read", ticket_id)

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
