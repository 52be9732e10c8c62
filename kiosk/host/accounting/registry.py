"""The host's terminal registry: which terminal identities it serves (decision 0035).

A certificate of the casino's CA with the terminal role is not enough: the terminal must also be
enrolled here (``turbokiosk host terminals enroll TK-0001``).  A retired terminal
(``... retire TK-0001``) or one never enrolled is refused, and the refusal is an
``identity_refused`` floor alarm in ``terminal_alarms`` (once per identity and reason).  Each
terminal's row keeps its state, when it last changed and the operator's note.

Upgrade: the first time a database that predates the registry is opened, every terminal it
already knows is enrolled (``host_upgrades`` remembers that this happened, so it happens once).

The server reads the registry through :class:`Registry`: one snapshot of every state, read again
when it is older than ``refresh_seconds`` (an enrolment or a retirement by another process takes
effect within that), so a call costs no query.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.host.accounting.reports import Tx

REGISTRY_SCHEMA = """
CREATE TABLE IF NOT EXISTS terminal_registry (
    terminal_id TEXT PRIMARY KEY,
    state TEXT NOT NULL CHECK (state IN ('enrolled', 'retired')),
    changed_ms BIGINT NOT NULL,
    note TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS host_upgrades (
    name TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL);
"""

ENROLLED, RETIRED = "enrolled", "retired"
UPGRADE = "terminal_registry"
UPGRADE_NOTE = "enrolled on upgrade: known to the host before the registry"


def migrate(tx: Tx, at: int) -> int:
    """Enrol the terminals a database already knows, once (the first open with the registry);
    how many were enrolled."""
    first = tx.execute(
        "INSERT INTO host_upgrades VALUES (?, ?) ON CONFLICT (name) DO NOTHING RETURNING name",
        (UPGRADE, at),
    ).fetchall()
    if not first:
        return 0
    known = [row[0] for row in tx.execute("SELECT terminal_id FROM terminals").fetchall()]
    for terminal_id in known:
        set_state(tx, terminal_id, ENROLLED, at, UPGRADE_NOTE)
    return len(known)


def set_state(tx: Tx, terminal_id: str, state: str, at: int, note: str) -> str | None:
    """Enrol or retire a terminal (when and why kept on its row); its previous state."""
    row = tx.execute(
        "SELECT state FROM terminal_registry WHERE terminal_id = ?", (terminal_id,)
    ).fetchone()
    previous = None if row is None else str(row[0])
    if previous == state:
        return previous
    tx.execute(
        "INSERT INTO terminal_registry VALUES (?, ?, ?, ?) ON CONFLICT (terminal_id) DO UPDATE"
        " SET state = excluded.state, changed_ms = excluded.changed_ms, note = excluded.note",
        (terminal_id, state, at, note),
    )
    return previous


def states(tx: Tx) -> dict[str, str]:
    """Every registered terminal's state."""
    rows = tx.execute("SELECT terminal_id, state FROM terminal_registry").fetchall()
    return {str(r[0]): str(r[1]) for r in rows}


class Registry:
    """The server's view of the registry: a snapshot, read again once it is stale."""

    def __init__(
        self,
        read: Callable[[], dict[str, str]],
        refresh_seconds: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._read = read
        self.refresh_seconds = refresh_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._states: dict[str, str] = {}
        self._at: float | None = None

    def stale(self) -> bool:
        """True when the snapshot should be read again before it is used."""
        return self._at is None or self._clock() - self._at >= self.refresh_seconds

    def refresh(self) -> dict[str, str]:
        """Read the registry now (a database call: run it off the event loop)."""
        read = self._read()
        with self._lock:
            self._states, self._at = read, self._clock()
        return read

    def state(self, terminal_id: str) -> str | None:
        """``enrolled``, ``retired`` or None (never enrolled), from the snapshot."""
        with self._lock:
            return self._states.get(terminal_id)
