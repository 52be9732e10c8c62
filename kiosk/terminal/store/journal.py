"""The journal: one SQLite file (WAL, ``synchronous=FULL``) holding everything that must survive.

Tables
------
``journal``   every event, in order; each row's ``hash`` is SHA-256 over the previous row's hash,
              its sequence number and its body, so a changed, missing or reordered row breaks the
              chain.
``snapshots`` the terminal state after a given journal row, with its own hash; recovery loads the
              newest good one and replays the rows after it.
``recall``    the last games, card by card (bounded, oldest dropped first).
``event_log`` tilts, doors, power, configuration, money events (bounded per kind).
``outbox``    messages owed to the accounting host (store-and-forward).
``service_audit`` the service menu's audit log: every entry, exit and action with role, time and
              before/after values, hash-chained like the journal; SQLite triggers refuse any
              UPDATE or DELETE, so nothing (the menu included) can clear it.
``meta``      schema version, the creation record and the store epoch (``epoch``).
``heads``     the signer's Ed25519 signature of each commit's head (epoch, seq, chain hash),
              written in the commit's transaction (see :mod:`kiosk.terminal.store.verify`).
``snapshot_signatures`` the signer's signature of each snapshot (its head and body checksum).

A commit writes a command's events and their projections in one transaction: after a power cut
either all of it is there or none of it.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from kiosk.kernel.chain import GENESIS as GENESIS
from kiosk.kernel.chain import TERMINAL, ChainError, ChainHead, MissingRowError, terminal_link
from kiosk.kernel.chain import digest as digest
from kiosk.terminal.core import events as ev

#: event kinds kept in the event log (decided in :mod:`kiosk.terminal.core.event_sets`)
from kiosk.terminal.core.event_sets import LOGGED_KINDS as LOGGED_KINDS
from kiosk.terminal.store.faults import StorageFullError as StorageFullError
from kiosk.terminal.store.faults import StoreError as StoreError
from kiosk.terminal.store.faults import store_fault

if TYPE_CHECKING:
    from kiosk.terminal.signer.records import RoundSeal

SCHEMA_VERSION = 1
DB_NAME = "terminal.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL,
    hash BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS snapshots (
    seq INTEGER PRIMARY KEY, body TEXT NOT NULL, hash BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS recall (
    game_number INTEGER PRIMARY KEY, at INTEGER NOT NULL, body TEXT NOT NULL,
    hash BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS event_log (
    seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL,
    hash BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS event_log_kind ON event_log (kind, seq);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL,
    hash BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS service_audit (
    id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, at INTEGER NOT NULL, body TEXT NOT NULL,
    hash BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS heads (
    seq INTEGER PRIMARY KEY, epoch INTEGER NOT NULL, hash BLOB NOT NULL,
    signature BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS snapshot_signatures (
    seq INTEGER PRIMARY KEY, epoch INTEGER NOT NULL, signature BLOB NOT NULL);
CREATE TRIGGER IF NOT EXISTS service_audit_no_update BEFORE UPDATE ON service_audit
    BEGIN SELECT RAISE(ABORT, 'the service audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS service_audit_no_delete BEFORE DELETE ON service_audit
    BEGIN SELECT RAISE(ABORT, 'the service audit log is append-only'); END;
"""


class IntegrityError(StoreError):
    """Non-volatile memory failed a check: the terminal (or table) must lock (critical memory
    error).  A broken hash chain is one, with the typed :class:`kiosk.kernel.chain.ChainError` as
    its cause."""


def chain_broken(what: str, broken: ChainError, next_word: str = "next is") -> IntegrityError:
    """The store's words for a broken chain of ``what`` ("journal row", ...)."""
    if isinstance(broken, MissingRowError):
        return IntegrityError(f"{what} {broken.seq} is missing ({next_word} {broken.found})")
    return IntegrityError(f"{what} {broken.seq} fails its chain hash")


def row_hash(prev: bytes, seq: int, body: str) -> bytes:
    """Chain hash of a journal row (:func:`kiosk.kernel.chain.terminal_link`)."""
    return terminal_link(prev, seq, "", body)


def body_hash(key: int, body: str) -> bytes:
    """Checksum of a snapshot, recall, event-log or outbox row."""
    return digest(str(key).encode(), body.encode())


#: canonical JSON (sorted keys, no spaces)
canonical = ev.canonical


class CommitSigner(Protocol):
    """Signs each commit's head before it is written (see :mod:`kiosk.terminal.store.signed`)."""

    epoch: int

    def sign(
        self,
        seq: int,
        chain_hash: bytes,
        snapshot_hash: bytes | None,
        seal: RoundSeal | None = None,
    ) -> tuple[bytes, bytes | None]:
        """(head signature, snapshot signature or None); the round's seal (if any) is kept by
        the signer with the head; StoreError when refused."""
        ...

    def begin(
        self,
        seq: int,
        chain_hash: bytes,
        snapshot_hash: bytes | None,
        seal: RoundSeal | None = None,
    ) -> Callable[[], tuple[bytes, bytes | None]]:
        """:meth:`sign` sent now: calling the result waits for its answer (the same answer
        again on a second call; StoreError when refused).  It must be called before the
        commit, and in any case (the signer's connection waits for it)."""
        ...

    def withdraw(self, seq: int, chain_hash: bytes) -> None:
        """Go back to the head ``seq`` (the store's): the head just signed never reached it."""
        ...


@dataclass(frozen=True)
class Projections:
    """What a commit writes besides its events."""

    snapshot: dict[str, Any] | None = None  # state after the last event of the commit
    recall: dict[str, Any] | None = None  # a finished game
    outbox: tuple[tuple[str, dict[str, Any]], ...] = ()  # (kind, message) for the host
    audit: tuple[dict[str, Any], ...] = ()  # service audit records (each has "at", epoch ms)
    #: the round's cards sealed at the signer with this commit's head (not in the store)
    seal: RoundSeal | None = None


@dataclass(frozen=True)
class OutboxRow:
    """A host message waiting in the outbox.

    ``id`` is the row's key (for :meth:`Journal.ack_outbox`); ``seq`` is the last journal row
    of the commit that wrote it, shared by every message of that commit.
    """

    id: int
    seq: int
    kind: str
    message: dict[str, Any]


@dataclass(frozen=True)
class JournalRow:
    """One journaled event."""

    seq: int
    event: ev.Event


class Journal:
    """The terminal's SQLite store.  One writer (the terminal); readers may open it read-only."""

    def __init__(
        self,
        data_dir: Path,
        *,
        readonly: bool = False,
        recall_limit: int = 1000,
        log_limit_per_kind: int = 2000,
    ) -> None:
        self.path = Path(data_dir) / DB_NAME
        self.readonly = readonly
        self.recall_limit = recall_limit
        self.log_limit_per_kind = log_limit_per_kind
        try:
            self.db = self._open(Path(data_dir))
        except (sqlite3.Error, OSError) as exc:
            raise store_fault(f"opening {self.path}", exc) from exc
        self._head: ChainHead | None = None
        #: signs every commit's head (None: unsigned, as before the signer; tests of the store)
        self.signer: CommitSigner | None = None
        self._sealed: str | None = None
        # the writer's one cursor: Connection.execute would make a new cursor for every statement
        self._writer = self.db.cursor()

    def _open(self, data_dir: Path) -> sqlite3.Connection:
        if self.readonly:
            if not data_dir.is_dir() and data_dir.exists():
                raise StoreError(f"the data directory {data_dir} is not a directory")
            if not self.path.is_file():
                what = "missing" if not self.path.exists() else "not a file:"
                raise StoreError(f"no terminal data in {data_dir} ({what} {DB_NAME})")
            uri = f"file:{self.path}?mode=ro"
            return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(_SCHEMA)
        except BaseException:
            db.close()
            raise
        return db

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    # --- creation ---------------------------------------------------------------------------

    def is_new(self) -> bool:
        """True until the genesis snapshot is written."""
        count: int = self.db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0]
        return count == 0

    def create(self, genesis_state: dict[str, Any], created_at: int) -> None:
        """Write the meta record and the genesis snapshot (state before any event).

        With a signer, the store's epoch and the signed genesis head and snapshot too.
        """
        body = canonical(genesis_state)
        checksum = body_hash(0, body)
        signatures = self.signer.sign(0, GENESIS, checksum) if self.signer else None
        with self._txn():
            self.db.execute(
                "INSERT INTO meta VALUES ('schema_version', ?), ('created_at', ?)",
                (str(SCHEMA_VERSION), str(created_at)),
            )
            self.db.execute("INSERT INTO snapshots VALUES (0, ?, ?)", (body, checksum))
            if self.signer is not None and signatures is not None:
                self.db.execute("INSERT INTO meta VALUES ('epoch', ?)", (str(self.signer.epoch),))
                self._write_signatures(0, GENESIS, signatures, snapshot=True)

    def adopt(self, epoch: int, head_signature: bytes, snapshots: dict[int, bytes]) -> None:
        """Sign an unsigned store of a previous release as it is (see
        kiosk.terminal.store.critmem)."""
        seq, chain = self.head()
        with self._txn():
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('epoch', ?)", (str(epoch),))
            self.db.execute(
                "INSERT OR REPLACE INTO heads VALUES (?, ?, ?, ?)",
                (seq, epoch, chain, head_signature),
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO snapshot_signatures VALUES (?, ?, ?)",
                [(s, epoch, sig) for s, sig in snapshots.items()],
            )

    def seal(self, reason: str) -> None:
        """Refuse every further write (the store failed its verification): StoreError."""
        self._sealed = reason

    @property
    def sealed(self) -> str | None:
        """Why the store takes no writes, or None."""
        return self._sealed

    def epoch(self) -> int | None:
        """The store's epoch (None: a store written before the signer)."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'epoch'").fetchone()
        return int(row[0]) if row else None

    def _write_signatures(
        self, seq: int, chain: bytes, signatures: tuple[bytes, bytes | None], snapshot: bool
    ) -> None:
        assert self.signer is not None
        epoch = self.signer.epoch
        write = self._writer
        write.execute(
            "INSERT OR REPLACE INTO heads VALUES (?, ?, ?, ?)", (seq, epoch, chain, signatures[0])
        )
        if snapshot and signatures[1] is not None:
            write.execute(
                "INSERT OR REPLACE INTO snapshot_signatures VALUES (?, ?, ?)",
                (seq, epoch, signatures[1]),
            )

    # --- writing ----------------------------------------------------------------------------

    def head(self) -> ChainHead:
        """Sequence number and hash of the last journal row (0 and the genesis hash if none)."""
        if self._head is None:
            row = self.db.execute(
                "SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1"
            ).fetchone()
            self._head = ChainHead(row[0], bytes(row[1])) if row else ChainHead(0, GENESIS)
        return self._head

    def commit(self, events: Iterable[ev.Event], projections: Projections = Projections()) -> int:
        """Durably write events and projections in one transaction; the last sequence number.

        With a signer, the new head (and the snapshot) is signed *before* the transaction and
        the signatures are written in it (decision 0006: signing first never makes a power cut
        look like tampering).
        """
        if self._sealed is not None:
            raise StoreError(f"the store takes no writes: {self._sealed}")
        try:
            seq, prev = self.head()
        except (sqlite3.Error, OSError) as exc:
            raise store_fault("reading the journal head", exc) from exc
        before = (seq, prev)
        # encode and chain first: the write lock is held only for the inserts and the fsync
        rows = []
        logged = []
        for event in events:
            seq += 1
            body = ev.encode(event)
            kind = event.type_name
            prev = terminal_link(prev, seq, kind, body)
            rows.append((seq, event.at, kind, body, prev))
            if kind in LOGGED_KINDS:
                logged.append((seq, event, body))
        write = self._writer
        snap = None if projections.snapshot is None else canonical(projections.snapshot)
        snap_hash = None if snap is None else body_hash(seq, snap)
        # the signer signs and makes its anchor durable while the rows are written; the
        # transaction commits only with the signatures, so only after the anchor (decision 0006)
        signatures = None
        if self.signer is not None and (rows or snap is not None):
            signatures = self.signer.begin(seq, prev, snap_hash, projections.seal)
        try:
            with self._txn():
                write.executemany("INSERT INTO journal VALUES (?, ?, ?, ?, ?)", rows)
                for logged_seq, event, body in logged:
                    self._log(logged_seq, event, body)
                if snap is not None:
                    write.execute(
                        "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)", (seq, snap, snap_hash)
                    )
                if projections.recall is not None:
                    self._recall(projections.recall)
                for kind, message in projections.outbox:
                    text = canonical(message)
                    write.execute(
                        "INSERT INTO outbox (seq, kind, body, hash) VALUES (?, ?, ?, ?)",
                        (seq, kind, text, body_hash(seq, text)),
                    )
                for record in projections.audit:
                    self._audit(seq, record)
                if signatures is not None:
                    self._write_signatures(seq, prev, signatures(), snapshot=snap is not None)
        except BaseException as failed:
            self._head = None
            if signatures is not None and self.signer is not None:
                self._after_failed_commit(signatures, before, failed)
            raise
        self._head = ChainHead(seq, prev)
        return seq

    def _after_failed_commit(
        self,
        signatures: Callable[[], tuple[bytes, bytes | None]],
        before: tuple[int, bytes],
        failed: BaseException,
    ) -> None:
        """A commit whose head was sent to the signer failed: its answer is taken (if not
        already), and a head signed for nothing is withdrawn, so that the signer goes back to
        the store's head and the terminal (locked, or retrying a full disk) can write again;
        if it cannot, the next power-up withdraws it (decision 0006).  A head the signer did
        not sign (refused, unreachable) is left to the next power-up, as ever."""
        assert self.signer is not None
        try:
            signatures()
        except StoreError:
            return  # not signed (or not known to be): nothing to withdraw now
        if isinstance(failed, StoreError):
            with contextlib.suppress(StoreError):
                self.signer.withdraw(*before)

    def _log(self, seq: int, event: ev.Event, body: str) -> None:
        self.db.execute(
            "INSERT INTO event_log VALUES (?, ?, ?, ?, ?)",
            (seq, event.at, event.type_name, body, body_hash(seq, body)),
        )
        self.db.execute(
            "DELETE FROM event_log WHERE kind = ? AND seq <= (SELECT seq FROM event_log "
            "WHERE kind = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)",
            (event.type_name, event.type_name, self.log_limit_per_kind),
        )

    def _audit(self, seq: int, record: dict[str, Any]) -> None:
        """Append a service audit record, chained to the previous one (read in this txn)."""
        last = self.db.execute(
            "SELECT id, hash FROM service_audit ORDER BY id DESC LIMIT 1"
        ).fetchone()
        number, prev = (last[0] + 1, bytes(last[1])) if last else (1, GENESIS)
        body = canonical(record)
        self.db.execute(
            "INSERT INTO service_audit VALUES (?, ?, ?, ?, ?)",
            (number, seq, record["at"], body, row_hash(prev, number, body)),
        )

    def _recall(self, record: dict[str, Any]) -> None:
        number = record["game_number"]
        body = ev.canonical_record(record)
        write = self._writer
        write.execute(
            "INSERT OR REPLACE INTO recall VALUES (?, ?, ?, ?)",
            (number, record.get("settled_at", 0), body, body_hash(number, body)),
        )
        if number > self.recall_limit:  # the oldest games past the limit
            write.execute(
                "DELETE FROM recall WHERE game_number <= ?", (number - self.recall_limit,)
            )

    def prune_snapshots(self, keep: int = 20) -> None:
        """Drop all but the newest ``keep`` snapshots (the genesis snapshot is kept too)."""
        with self._txn():
            self.db.execute(
                "DELETE FROM snapshots WHERE seq > 0 AND seq < (SELECT seq FROM snapshots "
                "ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                (keep - 1,),
            )

    def ack_outbox(self, ids: Iterable[int]) -> None:
        """Forget host messages the host acknowledged."""
        with self._txn():
            self.db.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in ids])

    class _Txn:
        """One write transaction; any SQLite or OS error in it (at COMMIT too) rolls it back
        and is raised as a :class:`StoreError` (:class:`StorageFullError` when the disk is
        full), so the connection is left ready for the next write."""

        def __init__(self, db: sqlite3.Cursor) -> None:
            self.db = db

        def __enter__(self) -> None:
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except (sqlite3.Error, OSError) as exc:
                raise store_fault("journal write", exc) from exc

        def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
            if exc is None:
                try:
                    self.db.execute("COMMIT")
                    return
                except (sqlite3.Error, OSError) as failed:
                    exc = failed
            if self.db.connection.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error as failed:  # the rollback failing is the store failing
                    raise store_fault("journal rollback", failed) from exc
            if isinstance(exc, sqlite3.Error | OSError):
                raise store_fault("journal write", exc) from exc

    def _txn(self) -> Journal._Txn:
        return Journal._Txn(self._writer)

    # --- reading ------------------------------------------------------------------------------

    def latest_snapshot(self) -> tuple[int, dict[str, Any]]:
        """The newest snapshot whose checksum holds: (journal seq it follows, state)."""
        for seq, body, h in self.db.execute(
            "SELECT seq, body, hash FROM snapshots ORDER BY seq DESC"
        ):
            if body_hash(seq, body) == bytes(h):
                state: dict[str, Any] = json.loads(body)
                return seq, state
        raise IntegrityError("no snapshot passes its checksum")

    def genesis(self) -> dict[str, Any]:
        """The state before the first event."""
        row = self.db.execute("SELECT body, hash FROM snapshots WHERE seq = 0").fetchone()
        if row is None or body_hash(0, row[0]) != bytes(row[1]):
            raise IntegrityError("genesis snapshot missing or corrupt")
        state: dict[str, Any] = json.loads(row[0])
        return state

    def rows(self, after: int = 0) -> Iterator[JournalRow]:
        """Journal rows after a sequence number, decoded (chain not checked here)."""
        for seq, body in self.db.execute(
            "SELECT seq, body FROM journal WHERE seq > ? ORDER BY seq", (after,)
        ):
            yield JournalRow(seq, ev.decode(body))

    def verify_chain(self, after: int = 0) -> int:
        """Check every journal row's chain hash; the number of rows checked.

        Raises IntegrityError naming the first bad row.
        """
        start = GENESIS
        if after:
            row = self.db.execute("SELECT hash FROM journal WHERE seq = ?", (after,)).fetchone()
            if row is None:
                raise IntegrityError(f"journal row {after} is missing")
            start = bytes(row[0])
        rows = self.db.execute(
            "SELECT seq, kind, body, hash FROM journal WHERE seq > ? ORDER BY seq", (after,)
        )
        try:
            return TERMINAL.count(rows, (after, start))
        except ChainError as broken:
            raise chain_broken("journal row", broken) from broken

    def verify_audit_chain(self) -> int:
        """Check the service audit log's hash chain; the number of records.

        Raises IntegrityError naming the first bad record.
        """
        rows = self.db.execute("SELECT id, '', body, hash FROM service_audit ORDER BY id")
        try:
            return TERMINAL.count(rows)
        except ChainError as broken:
            raise chain_broken("service audit record", broken, "next") from broken

    def verify_tables(self) -> dict[str, int]:
        """SQLite's own check plus every checksummed row; counts per table."""
        result = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if result != "ok":
            raise IntegrityError(f"SQLite quick_check: {result}")
        counts = {"journal": self.verify_chain(), "service_audit": self.verify_audit_chain()}
        for table, key in (
            ("snapshots", "seq"),
            ("recall", "game_number"),
            ("event_log", "seq"),
            ("outbox", "seq"),
        ):
            n = 0
            for k, body, h in self.db.execute(f"SELECT {key}, body, hash FROM {table}"):
                if body_hash(k, body) != bytes(h):
                    raise IntegrityError(f"{table} row {k} fails its checksum")
                n += 1
            counts[table] = n
        return counts

    def recall(self, last: int = 10) -> list[dict[str, Any]]:
        """The last games, newest first."""
        rows = self.db.execute(
            "SELECT body FROM recall ORDER BY game_number DESC LIMIT ?", (last,)
        ).fetchall()
        return [json.loads(body) for (body,) in rows]

    def event_log(self, kinds: Iterable[str] | None = None, last: int = 100) -> list[JournalRow]:
        """Logged events, newest first, optionally only some kinds."""
        wanted = list(kinds) if kinds else None
        if wanted:
            marks = ",".join("?" * len(wanted))
            query = (
                f"SELECT seq, body FROM event_log WHERE kind IN ({marks}) ORDER BY seq DESC LIMIT ?"
            )
            params: tuple[Any, ...] = (*wanted, last)
        else:
            query = "SELECT seq, body FROM event_log ORDER BY seq DESC LIMIT ?"
            params = (last,)
        return [JournalRow(seq, ev.decode(body)) for seq, body in self.db.execute(query, params)]

    def outbox(self, limit: int = 100) -> list[OutboxRow]:
        """Host messages not yet acknowledged, oldest first."""
        rows = self.db.execute(
            "SELECT id, seq, kind, body FROM outbox ORDER BY id LIMIT ?", (limit,)
        ).fetchall()
        return [OutboxRow(i, s, k, json.loads(b)) for i, s, k, b in rows]

    def created_at(self) -> int:
        """When this journal was created (epoch ms; 0 before creation): names its epoch."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'created_at'").fetchone()
        return int(row[0]) if row else 0
