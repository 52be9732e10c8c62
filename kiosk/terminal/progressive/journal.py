"""The progressive journal: every booked round's contributions and hits, in a hash chain.

One SQLite file (WAL, ``synchronous=FULL``): a row per booked round, keyed by its source (a
table or terminal) and game number, holding the round's events as canonical JSON and the
SHA-256 chain ``hash = sha256(previous hash | source | game | body)``.  A round is one
transaction, so after a power cut it is booked whole or not at all; :meth:`rows` checks the
chain while reading and raises :class:`JournalChainError` at the first row that does not
follow.  The settings the journal was started with are kept; opening it with other settings
is refused (:class:`SettingsMismatchError`) rather than replaying a meter under other rules.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from kiosk.kernel.games.progressive import (
    Contributed,
    Event,
    Hit,
    ProgressiveSettings,
    Transferred,
)
from kiosk.terminal.store.faults import StoreError, store_fault
from kiosk.terminal.store.journal import IntegrityError

GENESIS = bytes(32)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rounds (
    seq INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    game INTEGER NOT NULL,
    body TEXT NOT NULL,
    hash BLOB NOT NULL,
    UNIQUE (source, game)
);
"""


class JournalChainError(IntegrityError):
    """A journal row that does not follow its predecessor."""


class SettingsMismatchError(StoreError):
    """A journal opened with settings other than those it was started with."""


@dataclass(frozen=True)
class BookedRound:
    """One settled round's progressive events, as journaled."""

    source: str
    game: int
    events: tuple[Event, ...]

    @property
    def contributions(self) -> tuple[Contributed, ...]:
        """The round's contributions, in seat order."""
        return tuple(ev for ev in self.events if isinstance(ev, Contributed))

    @property
    def hits(self) -> tuple[Hit, ...]:
        """The round's hits, in seat order."""
        return tuple(ev for ev in self.events if isinstance(ev, Hit))

    @property
    def transfers(self) -> tuple[Transferred, ...]:
        """A retirement's transfer (a row of its own)."""
        return tuple(ev for ev in self.events if isinstance(ev, Transferred))


def settings_text(settings: ProgressiveSettings) -> str:
    """The settings as canonical JSON (what the journal keeps)."""
    m = settings.meter
    return json.dumps(
        {
            "name": settings.name,
            "wager": settings.wager,
            "outcome": settings.outcome,
            "qualify_cents": settings.qualify_cents,
            "reset_cents": m.reset_cents,
            "rate_ppm": m.rate_ppm,
            "hidden_ppm": m.hidden_ppm,
            "ceiling_cents": m.ceiling_cents,
            "overflow": m.overflow.value,
        },
        sort_keys=True,
    )


def body_of(events: Sequence[Event]) -> str:
    """A round's events as canonical JSON."""
    return json.dumps(
        [{"kind": type(ev).__name__, **asdict(ev)} for ev in events],
        sort_keys=True,
        separators=(",", ":"),
    )


def events_of(body: str) -> tuple[Event, ...]:
    """The events of a journaled body."""
    out: list[Event] = []
    for item in json.loads(body):
        kind = item.pop("kind")
        out.append(_KINDS[kind](**item))
    return tuple(out)


_KINDS: dict[str, type[Contributed] | type[Hit] | type[Transferred]] = {
    "Contributed": Contributed,
    "Hit": Hit,
    "Transferred": Transferred,
}


def link(prev: bytes, source: str, game: int, body: str) -> bytes:
    """The chain hash of a row."""
    return hashlib.sha256(prev + f"|{source}|{game}|{body}".encode()).digest()


class ProgressiveJournal:
    """The journal of one progressive, at ``path``."""

    def __init__(self, path: Path, settings: ProgressiveSettings) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(_SCHEMA)
            wanted = settings_text(settings)
            row = self.db.execute("SELECT value FROM meta WHERE key='settings'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('settings', ?)", (wanted,))
            head = self.db.execute("SELECT hash FROM rounds ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.Error as exc:
            self.db.close()
            raise store_fault(f"opening the progressive journal {path}", exc) from exc
        if row is not None and row[0] != wanted:
            self.db.close()
            raise SettingsMismatchError(
                f"{path} was started with other settings ({row[0]}); a meter is never replayed "
                "under other rules"
            )
        self._head = bytes(head[0]) if head else GENESIS

    def append(self, source: str, game: int, events: Sequence[Event]) -> None:
        """Book one round (one transaction)."""
        body = body_of(events)
        digest = link(self._head, source, game, body)
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                last = self.db.execute(
                    "SELECT hash FROM rounds ORDER BY seq DESC LIMIT 1"
                ).fetchone()
                if (bytes(last[0]) if last else GENESIS) != self._head:
                    raise JournalChainError(
                        f"{self.path}: another writer booked after this meter's last row; "
                        "a progressive has one writer"
                    )
                self.db.execute(
                    "INSERT INTO rounds (source, game, body, hash) VALUES (?, ?, ?, ?)",
                    (source, game, body, digest),
                )
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise store_fault(f"booking {source} game {game}", exc) from exc
        self._head = digest

    def rows(self) -> Iterator[BookedRound]:
        """Every booked round in order, the chain checked."""
        prev = GENESIS
        for seq, source, game, body, digest in self.db.execute(
            "SELECT seq, source, game, body, hash FROM rounds ORDER BY seq"
        ):
            if link(prev, source, game, body) != bytes(digest):
                raise JournalChainError(f"{self.path}: row {seq} does not follow its predecessor")
            prev = bytes(digest)
            yield BookedRound(source, game, events_of(body))

    def close(self) -> None:
        """Close the file."""
        self.db.close()
