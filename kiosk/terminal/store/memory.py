"""An in-memory journal: the SQLite journal's contract and hash chain, kept in lists.

:class:`MemoryJournal` is a real store, not a stand-in: every event is encoded exactly as the
SQLite journal writes it, chained with the same SHA-256 row hash
(:data:`kiosk.kernel.chain.TERMINAL`), decoded again when read, and the same kinds go to the
event log (:data:`kiosk.terminal.core.events.LOGGED_KINDS`).  What it lacks is durability: nothing
survives the process, there is no fsync, no signer and no file.  Pure tests of the terminal
core use it to journal what a core decides and to replay it into a fresh core (a power cycle
without a disk); a runtime can run on it too (:class:`kiosk.terminal.store.port.RuntimeJournal`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from kiosk.kernel.chain import TERMINAL, ChainError, ChainHead, ChainRow
from kiosk.terminal.core import events as ev
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.event_sets import LOGGED_KINDS
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.store.critmem import StoreCheck
from kiosk.terminal.store.faults import StoreError
from kiosk.terminal.store.journal import (
    GENESIS,
    IntegrityError,
    JournalRow,
    OutboxRow,
    Projections,
    body_hash,
    canonical,
    chain_broken,
)

if TYPE_CHECKING:
    from kiosk.terminal.signer.client import Signer

_NOTHING_MORE = Projections()


class MemoryJournal:
    """The journal's hash chain, snapshots, event log, recall and outbox, in memory."""

    def __init__(self, *, recall_limit: int = 1000, log_limit_per_kind: int = 2000) -> None:
        self.recall_limit = recall_limit
        self.log_limit_per_kind = log_limit_per_kind
        self._rows: list[ChainRow] = []
        self._snapshots: dict[int, tuple[str, bytes]] = {}
        self._recall: dict[int, str] = {}
        self._log: dict[str, list[int]] = {}
        self._outbox: list[OutboxRow] = []
        self._outbox_id = 0
        self._audit: list[dict[str, Any]] = []
        self._created_at = 0
        self._sealed: str | None = None
        self._closed = False

    # --- creation and power-up ------------------------------------------------------------------

    def is_new(self) -> bool:
        """True until the genesis snapshot is written."""
        return 0 not in self._snapshots

    def create(self, genesis_state: dict[str, Any], created_at: int) -> None:
        """Write the genesis snapshot (the state before any event)."""
        body = canonical(genesis_state)
        self._snapshots[0] = (body, body_hash(0, body))
        self._created_at = created_at

    def power_up(
        self, signer: Signer | None, genesis: Callable[[], dict[str, Any]], now: int
    ) -> StoreCheck:
        """Create the store when new, else check the chain and rebuild the state (the newest
        snapshot that passes its checksum, the rows after it replayed).  The store is
        unsigned: ``signer`` is not asked (the SQLite journal's power-up is what it checks)."""
        check = StoreCheck()
        try:
            if self.is_new():
                self.create(genesis(), now)
            check.checked_rows = self.verify_chain()
            seq, snapshot = self.latest_snapshot()
            core = TerminalCore(TerminalState.from_snapshot(snapshot))
            for row in self.rows(after=seq):
                core.apply([row.event])
                check.replayed += 1
        except (StoreError, ev.EventDecodeError) as exc:
            check.critical = str(exc)
            return check
        check.state = core.state
        return check

    # --- writing --------------------------------------------------------------------------------

    def head(self) -> ChainHead:
        """Sequence number and hash of the last row (0 and the genesis hash if none)."""
        if not self._rows:
            return ChainHead(0, GENESIS)
        last = self._rows[-1]
        return ChainHead(last.seq, last.hash)

    def commit(self, events: Iterable[ev.Event], projections: Projections = _NOTHING_MORE) -> int:
        """Append events and their projections at once; the last sequence number."""
        if self._closed:
            raise StoreError("the store is closed")
        if self._sealed is not None:
            raise StoreError(f"the store takes no writes: {self._sealed}")
        rows_in = ((event.type_name, ev.encode(event)) for event in events)
        (seq, _), rows = TERMINAL.extend(self.head(), rows_in)
        self._rows.extend(rows)
        for row in rows:
            if row.kind in LOGGED_KINDS:
                kept = self._log.setdefault(row.kind, [])
                kept.append(row.seq)
                del kept[: max(0, len(kept) - self.log_limit_per_kind)]
        if projections.snapshot is not None:
            body = canonical(projections.snapshot)
            self._snapshots[seq] = (body, body_hash(seq, body))
        if projections.recall is not None:
            number = projections.recall["game_number"]
            self._recall[number] = ev.canonical_record(projections.recall)
            for old in [n for n in self._recall if n <= number - self.recall_limit]:
                del self._recall[old]
        for kind, message in projections.outbox:
            self._outbox_id += 1
            self._outbox.append(
                OutboxRow(self._outbox_id, seq, kind, json.loads(canonical(message)))
            )
        self._audit.extend(json.loads(canonical(record)) for record in projections.audit)
        return seq

    def seal(self, reason: str) -> None:
        """Refuse every further write."""
        self._sealed = reason

    @property
    def sealed(self) -> str | None:
        """Why the store takes no writes, or None."""
        return self._sealed

    def ack_outbox(self, ids: Iterable[int]) -> None:
        """Forget host messages the host acknowledged."""
        gone = set(ids)
        self._outbox = [row for row in self._outbox if row.id not in gone]

    def close(self) -> None:
        """Take no more writes (what is in memory stays readable)."""
        self._closed = True

    # --- reading --------------------------------------------------------------------------------

    def epoch(self) -> int | None:
        """No signer, no epoch."""
        return None

    def created_at(self) -> int:
        """When the genesis snapshot was written (epoch ms; 0 before)."""
        return self._created_at

    def rows(self, after: int = 0) -> Iterator[JournalRow]:
        """Rows after a sequence number, decoded from their journaled text."""
        for row in self._rows[after:]:
            yield JournalRow(row.seq, ev.decode(row.body))

    def latest_snapshot(self) -> tuple[int, dict[str, Any]]:
        """The newest snapshot whose checksum holds: (the row it follows, state)."""
        for seq in sorted(self._snapshots, reverse=True):
            body, checksum = self._snapshots[seq]
            if body_hash(seq, body) == checksum:
                state: dict[str, Any] = json.loads(body)
                return seq, state
        raise IntegrityError("no snapshot passes its checksum")

    def verify_chain(self) -> int:
        """Check every row's chain hash; the number of rows (IntegrityError at the first bad)."""
        try:
            return TERMINAL.count((r.seq, r.kind, r.body, r.hash) for r in self._rows)
        except ChainError as broken:
            raise chain_broken("journal row", broken) from broken

    def event_log(self, kinds: Iterable[str] | None = None, last: int = 100) -> list[JournalRow]:
        """Logged events, newest first, optionally only some kinds."""
        wanted = set(kinds) if kinds else set(self._log)
        seqs = sorted((s for k in wanted for s in self._log.get(k, ())), reverse=True)[:last]
        return [JournalRow(s, ev.decode(self._rows[s - 1].body)) for s in seqs]

    def recall(self, last: int = 10) -> list[dict[str, Any]]:
        """The last games, newest first."""
        numbers = sorted(self._recall, reverse=True)[:last]
        return [json.loads(self._recall[n]) for n in numbers]

    def outbox(self, limit: int = 100) -> list[OutboxRow]:
        """Host messages not yet acknowledged, oldest first."""
        return self._outbox[:limit]

    def audit_records(self) -> list[dict[str, Any]]:
        """The service audit records committed, oldest first."""
        return list(self._audit)
