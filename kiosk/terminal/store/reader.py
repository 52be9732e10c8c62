"""Reading a terminal's store from another process, without disturbing the terminal.

The journal is opened read-only; every read happens inside one SQLite read transaction, so a
terminal that commits meanwhile is neither blocked nor seen half-way (WAL readers see the
database as it was when their transaction began).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.store.journal import Journal


@dataclass(frozen=True)
class StoreView:
    """The terminal's state as recovery would rebuild it, and the journal row it reflects."""

    state: TerminalState
    seq: int
    replayed: int = 0  # journal rows applied on top of the snapshot


@contextmanager
def read_transaction(journal: Journal) -> Iterator[Journal]:
    """Hold one read transaction: every query inside sees the same committed database."""
    journal.db.execute("BEGIN")
    try:
        yield journal
    finally:
        journal.db.execute("ROLLBACK")


@contextmanager
def open_readonly(data_dir: Path) -> Iterator[Journal]:
    """The data directory's journal, read-only, inside one read transaction.

    Raises :class:`~kiosk.terminal.store.journal.StoreError` when there is no terminal data there.
    """
    journal = Journal(data_dir, readonly=True)
    try:
        with read_transaction(journal):
            yield journal
    finally:
        journal.close()


def current_state(journal: Journal) -> StoreView:
    """The newest snapshot that passes its checksum, with the journal rows after it replayed.

    Raises :class:`~kiosk.terminal.store.journal.IntegrityError` when no snapshot passes, and the
    event decoder's error for a journal row that is not an event.
    """
    seq, snapshot = journal.latest_snapshot()
    core = TerminalCore(TerminalState.from_snapshot(snapshot))
    replayed = 0
    for row in journal.rows(after=seq):
        core.apply([row.event])
        seq = row.seq
        replayed += 1
    return StoreView(core.state, seq, replayed)


def created_at(journal: Journal) -> int:
    """Epoch ms when the store was created (0 when the meta record is missing)."""
    row = journal.db.execute("SELECT value FROM meta WHERE key = 'created_at'").fetchone()
    return int(row[0]) if row is not None else 0
