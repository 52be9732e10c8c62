"""Cutting a terminal store's last signed commit, as someone with the SD card would (issue 23).

The commit's journal rows go with everything written with them: their signatures, snapshot,
event-log and outbox rows and the recall of a round they settled.  The store then ends at the
head the signer signed before its last one, which is what a power cut between signing and
committing leaves: power-up withdraws the signer's last head.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kiosk.terminal.core import events as ev
from kiosk.terminal.store.journal import DB_NAME


def cut_last_commit(data_dir: Path) -> int:
    """Remove the store's last commit whole; the head it then ends at."""
    conn = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    try:
        heads = [s for (s,) in conn.execute("SELECT seq FROM heads ORDER BY seq DESC LIMIT 2")]
        back = heads[1]
        for (body,) in conn.execute(
            "SELECT body FROM journal WHERE seq > ? AND kind = 'RoundSettled'", (back,)
        ).fetchall():
            settled = ev.decode(body)
            assert isinstance(settled, ev.RoundSettled)
            conn.execute("DELETE FROM recall WHERE game_number = ?", (settled.game_number,))
        for table in (
            "journal",
            "heads",
            "event_log",
            "snapshots",
            "snapshot_signatures",
            "outbox",
        ):
            conn.execute(f"DELETE FROM {table} WHERE seq > ?", (back,))
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return int(back)
