"""The bridge's journal: its device-side memory in SQLite, each change one durable commit.

The memory is the same record a simulated device keeps (:class:`~kiosk.terminal.devices.sim.memory.
DeviceMemory`: the next event id, the item in escrow and how far it got, the unacknowledged
events, the cash box or printed record, the baseline), written as one row in one transaction
with ``synchronous=FULL``: a bridge killed at any instant finds the last committed state, never
half of one.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from kiosk.terminal.devices.sim.memory import DeviceMemory


class BridgeJournal(DeviceMemory):
    """:class:`DeviceMemory` kept in a SQLite database (``path``), fsynced at every save."""

    def __init__(self, path: Path, default: dict[str, Any]) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("CREATE TABLE IF NOT EXISTS memory (id INTEGER PRIMARY KEY, body TEXT)")
        row = self._db.execute("SELECT body FROM memory WHERE id = 1").fetchone()
        loaded: dict[str, Any] = json.loads(row[0]) if row else {}
        self.data = {**default, **loaded}
        self.saves = 0

    def save(self) -> None:
        """Commit the whole memory (one row, one transaction, fsynced)."""
        body = json.dumps(self.data, sort_keys=True)
        self._db.execute("INSERT OR REPLACE INTO memory (id, body) VALUES (1, ?)", (body,))
        self.saves += 1

    def close(self) -> None:
        """Close the database."""
        self._db.close()
