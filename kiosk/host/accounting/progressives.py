"""The progressives' meters as the terminals report them (issue 28, decision 0067).

A terminal sends a ``progressive`` reading of each progressive it knows (its own standalone
meter, or its table's as the table last told the seat) with every periodic or requested meter
snapshot, outside its outbox.  A meter is named by its progressive and where it is kept (its
``source``: the terminal's id when standalone, the seat's table id at a table).  The host keeps
each terminal's newest reading of each meter (``progressive_meters``, one row per name, source
and terminal) with the terminal's time
(``reported_ms``) and its own (``received_ms``); an older reading arriving late (a resend after
a reconnection) changes nothing.  When a reading's hit count is above the one kept, the hit
happened between the two readings: the host keeps the new reading's time as the last hit's
(``last_hit_ms``; 0 when the first reading already counted it).

A reading is display data, never money: the progressive's journal (its controller) is the
truth of contributions and hits (decision 0060).  :func:`progressives` gives the floor one line
per meter, from the terminal that reported it last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.host.accounting.reports import Message, Tx

PROGRESSIVES_SCHEMA = """
CREATE TABLE IF NOT EXISTS progressive_meters (
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    terminal_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    meter_cents BIGINT NOT NULL CHECK (meter_cents >= 0),
    reset_cents BIGINT NOT NULL CHECK (reset_cents >= 0),
    hits BIGINT NOT NULL CHECK (hits >= 0),
    hits_known INTEGER NOT NULL,
    last_hit_cents BIGINT NOT NULL CHECK (last_hit_cents >= 0),
    last_hit_ms BIGINT NOT NULL,
    reported_ms BIGINT NOT NULL,
    received_ms BIGINT NOT NULL,
    message_id TEXT NOT NULL,
    PRIMARY KEY (name, source, terminal_id));
"""

#: the message kind of a reading (the ``TerminalMessage.body`` field)
KIND = "progressive"


@dataclass(frozen=True)
class ProgressiveReading:
    """One progressive meter as the floor shows it: the newest reading of any terminal."""

    name: str
    source: str  # where the meter is kept: a terminal id (standalone) or a table id
    mode: str  # "standalone" or "table"
    meter_cents: int
    reset_cents: int  # 0: the reporter does not know it
    hits: int
    hits_known: bool
    last_hit_cents: int
    last_hit_ms: int  # when the host first saw the last hit counted (0: unknown)
    reported_ms: int  # the reporting terminal's time
    received_ms: int  # the host's time
    terminal_id: str  # the terminal that reported it last
    reporters: int  # terminals that report this progressive

    def stale(self, now_ms: int, stale_after_ms: int) -> bool:
        """Whether no terminal has reported it for ``stale_after_ms``."""
        return now_ms - self.received_ms > stale_after_ms


def record_reading(tx: Tx, terminal_id: str, m: Message, at: int) -> bool:
    """Keep ``m`` as ``terminal_id``'s reading of its progressive if it is the newest; whether
    it was kept (False: a reading already kept, or an older one)."""
    body: dict[str, Any] = m.body
    key = (str(body["name"]), str(body.get("source", "")), terminal_id)
    kept = tx.execute(
        "SELECT reported_ms, hits, last_hit_ms, message_id FROM progressive_meters"
        " WHERE name = ? AND source = ? AND terminal_id = ?",
        key,
    ).fetchone()
    if kept is not None and (
        m.at_ms < int(kept[0]) or (m.at_ms == int(kept[0]) and m.message_id == kept[3])
    ):
        return False
    hits, known = int(body.get("hits", 0)), bool(body.get("hits_known", False))
    last_hit_ms = int(kept[2]) if kept is not None else 0
    if known and kept is not None and hits > int(kept[1]):
        last_hit_ms = m.at_ms  # hit between the kept reading and this one
    row = (
        str(body.get("mode", "")),
        int(body.get("meter_cents", 0)),
        int(body.get("reset_cents", 0)),
        hits,
        int(known),
        int(body.get("last_hit_cents", 0)),
        last_hit_ms,
        m.at_ms,
        at,
        m.message_id,
    )
    if kept is None:
        tx.execute(
            "INSERT INTO progressive_meters VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*key, *row),
        )
    else:
        tx.execute(
            "UPDATE progressive_meters SET mode = ?, meter_cents = ?, reset_cents = ?, hits = ?,"
            " hits_known = ?, last_hit_cents = ?, last_hit_ms = ?, reported_ms = ?,"
            " received_ms = ?, message_id = ? WHERE name = ? AND source = ? AND terminal_id = ?",
            (*row, *key),
        )
    return True


#: the readings as :func:`readings` takes them (the host's records and the dashboard's read-only
#: connection run it alike)
READINGS_SQL = (
    "SELECT name, source, mode, meter_cents, reset_cents, hits, hits_known, last_hit_cents,"
    " last_hit_ms, reported_ms, received_ms, terminal_id FROM progressive_meters"
    " ORDER BY name, source, received_ms, reported_ms, terminal_id"
)


def progressives(tx: Tx) -> list[ProgressiveReading]:
    """Each meter once (:func:`readings`), in a transaction of the host's records."""
    return readings([tuple(row) for row in tx.execute(READINGS_SQL).fetchall()])


def readings(rows: Sequence[Sequence[Any]]) -> list[ProgressiveReading]:
    """Each meter once, by name and source, from :data:`READINGS_SQL`'s rows: the reading
    received last, with how many terminals report it."""
    newest: dict[tuple[str, str], Sequence[Any]] = {}
    reporters: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (str(row[0]), str(row[1]))
        newest[key] = row[2:]  # ordered by received_ms: the last is the newest
        reporters[key] = reporters.get(key, 0) + 1
    return [
        ProgressiveReading(
            name=name,
            source=source,
            mode=str(r[0]),
            meter_cents=int(r[1]),
            reset_cents=int(r[2]),
            hits=int(r[3]),
            hits_known=bool(r[4]),
            last_hit_cents=int(r[5]),
            last_hit_ms=int(r[6]),
            reported_ms=int(r[7]),
            received_ms=int(r[8]),
            terminal_id=str(r[9]),
            reporters=reporters[(name, source)],
        )
        for (name, source), r in newest.items()
    ]
