"""What an attendant goes to: a door opened outside service, a tilt, a handpay (issue 26).

The terminal reports each as a journaled event (``door``, ``tilt``, ``handpay_locked``); the
host records it in ``events`` as any other and, in the same transaction, writes a terminal
alarm (``terminal_alarms``), so the floor dashboard, its live feed and ``turbokiosk host
alarms`` show it:

- ``door_open`` (severity ``alarm``): a cabinet door opened while the terminal's last
  ``service`` event says no one is in the service menu (a technician enters service first);
- ``tilt`` (``exception``): a tilt raised (paper out, a jam, a lost device link...);
- ``handpay`` (``exception``): a jackpot or a cash-out an attendant pays by hand.

The events the floor reads per terminal (doors, tilts, handpays, power, service, enabling) have
a partial index of their own, so finding a terminal's last ``service`` event, or its page of
events, never scans its games.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.host.accounting.reports import Message, Tx

#: the events a terminal's floor page lists (and the partial index covers)
NOTICE_KINDS = (
    "door",
    "tilt",
    "handpay_locked",
    "handpay_reset",
    "power_up",
    "service",
    "enable",
    "ram_cleared",
)
#: the condition of the partial index; a query must repeat it word for word to use it (SQLite)
NOTICES_SQL = "kind IN (" + ", ".join(f"'{k}'" for k in NOTICE_KINDS) + ")"
FLOOR_ALARMS_SCHEMA = f"""
CREATE INDEX IF NOT EXISTS events_notices ON events (terminal_id, journal_seq)
    WHERE {NOTICES_SQL};
"""


def may_raise(m: Message) -> bool:
    """Whether recording ``m`` may raise a floor alarm (a door opened, a tilt raised, a
    handpay): such a report takes the group commit's one-statement path."""
    if m.kind == "door":
        return bool(m.body.get("open"))
    if m.kind == "tilt":
        return bool(m.body.get("raised"))
    return m.kind == "handpay_locked"


def in_service(tx: Tx, terminal_id: str, m: Message) -> bool:
    """Whether the terminal's last ``service`` event before ``m`` entered the service menu."""
    row = tx.execute(
        f"SELECT body FROM events WHERE terminal_id = ? AND {NOTICES_SQL} AND kind = 'service'"
        " AND (at_ms < ? OR (at_ms = ? AND journal_seq < ?))"
        " ORDER BY at_ms DESC, journal_seq DESC LIMIT 1",
        (terminal_id, m.at_ms, m.at_ms, m.journal_seq),
    ).fetchone()
    if row is None:
        return False
    body = json.loads(row[0]) if isinstance(row[0], str | bytes) else row[0]
    return bool(body.get("active"))


def floor_alarm(tx: Tx, terminal_id: str, m: Message) -> tuple[str, dict[str, object]] | None:
    """The alarm a newly recorded event raises (kind, detail), or None."""
    body = m.body
    where = {"message_id": m.message_id, "journal_seq": m.journal_seq, "at_ms": m.at_ms}
    if m.kind == "door":
        if not body.get("open") or in_service(tx, terminal_id, m):
            return None
        return "door_open", {"door": str(body.get("door", "")), **where}
    if m.kind == "tilt":
        if not body.get("raised"):
            return None
        tilt = {"code": str(body.get("code", "")), "reason": str(body.get("reason", ""))}
        return "tilt", {**tilt, **where}
    if m.kind == "handpay_locked":
        money = {"value_cents": int(body.get("value_cents", 0)), "seat": body.get("seat", 0)}
        return "handpay", {"handpay": str(body.get("kind", "")), **money, **where}
    return None
