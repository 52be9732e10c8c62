"""The table's journal: one SQLite file (WAL, ``synchronous=FULL``), hash-chained like the
terminal's (:mod:`kiosk.terminal.store.journal`).

Tables
------
``journal``  every table event in order; ``hash`` is SHA-256 over the previous row's hash, the
             row's sequence number, kind and body, so a changed, missing or reordered row breaks
             the chain (:class:`JournalChainError` on open).
``recall``   every finished round (seats' wagers, cards, decisions, results or the void's
             returns), written in the transaction of the event that finished it.
``meta``     the table id the journal belongs to, its game (``edition``, ``mode``: what an audit
             replays it with) and, once signed, its signer ``epoch``.
``heads``    the table signer's Ed25519 signature of each commit's head (epoch, seq, chain hash),
             written in the commit's transaction, signed *before* it (decision 0036, as the
             terminal's store: :mod:`kiosk.table.core.record` verifies it).

One :meth:`TableJournal.append` is one transaction: after a kill either all of a step is there
or none of it.  Every SQLite or file-system fault is a
:class:`~kiosk.terminal.store.faults.StoreError`.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.kernel.chain import GENESIS as GENESIS
from kiosk.kernel.chain import TABLE, ChainError, ChainHead, MissingRowError, table_link
from kiosk.table.core import events as e
from kiosk.table.core.core import RoundRecord
from kiosk.terminal.store.faults import StoreError, store_fault
from kiosk.terminal.store.journal import IntegrityError

if TYPE_CHECKING:
    from kiosk.terminal.store.journal import CommitSigner

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL,
    hash BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS recall (game_number INTEGER PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS heads (
    seq INTEGER PRIMARY KEY, epoch INTEGER NOT NULL, hash BLOB NOT NULL,
    signature BLOB NOT NULL);
"""


class JournalChainError(IntegrityError):
    """The journal's hash chain or a row's body does not verify: the table must not run (a
    broken chain has the typed :class:`kiosk.kernel.chain.ChainError` as its cause)."""


def chain(prev: bytes, seq: int, kind: str, body: str) -> bytes:
    """The hash of row ``seq`` after a row hashed ``prev``
    (:func:`kiosk.kernel.chain.table_link`)."""
    return table_link(prev, seq, kind, body)


def _broken(broken: ChainError) -> JournalChainError:
    seq = broken.found if isinstance(broken, MissingRowError) else broken.seq
    return JournalChainError(f"table journal row {seq} breaks the hash chain")


class TableJournal:
    """The journal of one table, at ``path``."""

    def __init__(self, path: Path, table_id: str, *, readonly: bool = False) -> None:
        """Open (or create) the journal; ``readonly`` (an audit, ``meters``, ``recall``) opens
        an existing file without writing anything to it."""
        self.path = path
        self.readonly = readonly
        #: signs every commit's head (None: unsigned, as before the table signer; core tests)
        self.signer: CommitSigner | None = None
        try:
            if readonly:
                if not path.is_file():
                    raise StoreError(f"no table journal at {path}")
                self.db = sqlite3.connect(
                    f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
                )
            else:
                # one user at a time, from any thread: the server runs every step under its lock
                self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                self.db.executescript(_SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='table_id'").fetchone()
            if row is None and not readonly:
                self.db.execute("INSERT INTO meta VALUES ('table_id', ?)", (table_id,))
            last = self.db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1")
            head = last.fetchone()
        except sqlite3.Error as exc:
            raise store_fault(f"opening the table journal {path}", exc) from exc
        if row is not None and row[0] != table_id:
            raise StoreError(f"{path} is the journal of table {row[0]!r}, not {table_id!r}")
        self._head = ChainHead(head[0], bytes(head[1])) if head else ChainHead(0, GENESIS)

    # --- the signed record (kiosk.table.core.record) ----------------------------------------------

    def meta(self, key: str) -> str | None:
        """A value of the ``meta`` table, or None."""
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            raise store_fault("reading the table journal", exc) from exc
        return None if row is None else str(row[0])

    def epoch(self) -> int | None:
        """The signer epoch the journal is signed in (None: an unsigned journal)."""
        value = self.meta("epoch")
        return None if value is None else int(value)

    def remember(self, **values: str) -> None:
        """Keep ``meta`` values (the game an audit replays the journal with)."""
        try:
            self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", sorted(values.items()))
        except sqlite3.Error as exc:
            raise store_fault("writing the table journal", exc) from exc

    def signed_head(self, seq: int) -> tuple[int, bytes, bytes] | None:
        """(epoch, chain hash, signature) of the signed head row ``seq``, or None."""
        try:
            row = self.db.execute(
                "SELECT epoch, hash, signature FROM heads WHERE seq = ?", (seq,)
            ).fetchone()
        except sqlite3.Error as exc:
            raise store_fault("reading the table journal", exc) from exc
        return None if row is None else (int(row[0]), bytes(row[1]), bytes(row[2]))

    def sign_as_is(self, epoch: int, signature: bytes) -> None:
        """Start signing: the epoch and the signature of the head as it stands (a new journal's
        row 0, or an unsigned journal of a previous release adopted)."""
        seq, chain_hash = self._head
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('epoch', ?)", (str(epoch),))
            self.db.execute(
                "INSERT OR REPLACE INTO heads VALUES (?, ?, ?, ?)",
                (seq, epoch, chain_hash, signature),
            )
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise store_fault("writing the table journal", exc) from exc

    def recall_rows(self) -> Iterator[tuple[int, str]]:
        """Every recall row as stored: (game number, body)."""
        try:
            yield from self.db.execute("SELECT game_number, body FROM recall ORDER BY game_number")
        except sqlite3.Error as exc:
            raise store_fault("reading the table recall", exc) from exc

    @property
    def head(self) -> ChainHead:
        """The last row's sequence number and hash."""
        return self._head

    def append(self, events: Sequence[e.Event], finished: Sequence[RoundRecord] = ()) -> None:
        """Journal a step's events (and the rounds they finish) in one transaction.

        With a signer, the new head is signed *before* the transaction and its signature is
        written in it (decision 0006: a kill between the two is the anchor's previous head)."""
        before = self._head
        after, chained = TABLE.extend(before, (e.encode(event) for event in events))
        seq, prev = after
        rows = [
            (r.seq, event.at, r.kind, r.body, r.hash)
            for r, event in zip(chained, events, strict=True)
        ]
        signature = None
        if self.signer is not None and rows:
            signature = self.signer.sign(seq, prev, None)[0]
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("INSERT INTO journal VALUES (?, ?, ?, ?, ?)", rows)
            for record in finished:
                self.db.execute(
                    "INSERT OR REPLACE INTO recall VALUES (?, ?)",
                    (record.game_number, recall_body(record)),
                )
            if signature is not None and self.signer is not None:
                self.db.execute(
                    "INSERT OR REPLACE INTO heads VALUES (?, ?, ?, ?)",
                    (seq, self.signer.epoch, prev, signature),
                )
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if signature is not None and self.signer is not None:
                # the signed head never reached the journal: back to the journal's head
                with contextlib.suppress(StoreError):
                    self.signer.withdraw(*before)
            raise store_fault("writing the table journal", exc) from exc
        self._head = after

    def events(self) -> Iterator[e.Event]:
        """Every journaled event in order, each row's hash checked."""
        try:
            rows = self.db.execute("SELECT seq, kind, body, hash FROM journal ORDER BY seq")
            for row in TABLE.verify(rows):
                try:
                    yield e.decode(row.kind, row.body)
                except e.EventDecodeError as exc:
                    raise JournalChainError(f"table journal row {row.seq}: {exc}") from exc
        except ChainError as broken:
            raise _broken(broken) from broken
        except sqlite3.Error as exc:
            raise store_fault("reading the table journal", exc) from exc

    def recall(self, game_number: int) -> RoundRecord | None:
        """The recall of a finished round, or None."""
        try:
            row = self.db.execute(
                "SELECT body FROM recall WHERE game_number = ?", (game_number,)
            ).fetchone()
        except sqlite3.Error as exc:
            raise store_fault("reading the table recall", exc) from exc
        if row is None:
            return None
        record: RoundRecord = e.build(RoundRecord, json.loads(row[0]))
        return record

    def close(self) -> None:
        self.db.close()


def recall_body(record: RoundRecord) -> str:
    """A recall row's body: the record as canonical JSON."""
    return _canonical(e.plain(record))


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
