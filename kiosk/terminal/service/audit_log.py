"""The service audit log: reading, filtering, verifying and showing it.

Records are written only by the gate (:mod:`kiosk.terminal.service.session`) into the store's
``service_audit`` table (:mod:`kiosk.terminal.store.journal`): with the events of the action they
record, in the same transaction.  Each row's hash chains it to the row before (SHA-256 over the
previous hash, the row number and the record), and SQLite triggers refuse UPDATE and DELETE, so the
log cannot be cleared from the menu or anywhere else short of rewriting the file, which the chain
reveals.

A record (JSON) holds: ``at`` (epoch ms), ``session``, ``n`` (its number within the session),
``via`` (``touchscreen`` or ``ssh``), ``role``, ``action``, ``args`` (PINs never), ``before``
and ``after`` (the values the action changes), ``outcome`` (``ok`` or ``refused``) and
``detail``.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from kiosk.kernel.time_text import local_time
from kiosk.terminal.store.journal import Journal


@dataclass(frozen=True)
class AuditEntry:
    """One row of the audit log."""

    number: int
    seq: int  # the journal row the terminal had reached
    record: dict[str, Any]


def entries(
    journal: Journal,
    *,
    last: int = 50,
    role: str | None = None,
    action: str | None = None,
) -> list[AuditEntry]:
    """The newest ``last`` records, newest first, optionally of one role or action."""
    out: list[AuditEntry] = []
    try:
        rows = journal.db.execute("SELECT id, seq, body FROM service_audit ORDER BY id DESC")
    except sqlite3.OperationalError:  # a store made before the service menu existed
        return out
    for number, seq, body in rows:
        record = json.loads(body)
        if role is not None and record.get("role") != role:
            continue
        if action is not None and record.get("action") != action:
            continue
        out.append(AuditEntry(number, seq, record))
        if len(out) >= last:
            break
    return out


def contains(journal: Journal, session: str, n: int) -> bool:
    """Whether the record numbered ``n`` of ``session`` was written."""
    try:
        rows = journal.db.execute(
            "SELECT body FROM service_audit ORDER BY id DESC LIMIT 100"
        ).fetchall()
    except sqlite3.OperationalError:
        return False
    for (body,) in rows:
        record = json.loads(body)
        if record.get("session") == session and record.get("n") == n:
            return True
    return False


def verify(journal: Journal) -> int:
    """Check the chain of every record; the number of records (IntegrityError if broken)."""
    try:
        return journal.verify_audit_chain()
    except sqlite3.OperationalError:  # a store written before the audit log existed
        return 0


def _values(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def entry_line(entry: AuditEntry) -> str:
    """``  12  2025-01-01T10:00:00+00:00  technician  bill_test  ok  ...``."""
    r = entry.record
    text = (
        f"{entry.number:>5}  {local_time(r['at'])}  {r['role'] or '-':<10}  {r['action']:<16} "
        f"{r['outcome']:<7}"
    )
    if r.get("args"):
        text += f" args={_values(r['args'])}"
    if r.get("before") is not None or r.get("after") is not None:
        text += f" before={_values(r.get('before'))} after={_values(r.get('after'))}"
    if r.get("detail"):
        text += f"  ({r['detail']})"
    return text


def unjournaled_failures(journal: Journal, role: str, since: int) -> tuple[int, int]:
    """Wrong PINs of ``role`` recorded only here, after ``since`` (epoch ms): (count, last at).

    A service session that cannot write the journal (another process is the terminal) records
    a wrong PIN in this append-only log with ``args.unjournaled_failure``; they count toward the
    role's lock-out until the role's next journaled PIN event (``since`` is its time).  A later
    good entry of the role ends the run of wrong PINs, as a good PIN does.
    """
    count, last_at = 0, 0
    try:
        rows = journal.db.execute(
            "SELECT body FROM service_audit WHERE at > ? ORDER BY id DESC", (since,)
        )
    except sqlite3.OperationalError:  # a store made before the service menu existed
        return 0, 0
    for (body,) in rows:
        record = json.loads(body)
        if record.get("action") != "enter" or record.get("role") != role:
            continue
        if record.get("outcome") == "ok":
            break
        args = record.get("args")
        if isinstance(args, dict) and args.get("unjournaled_failure") is True:
            count += 1
            last_at = max(last_at, int(record.get("at", 0)))
    return count, last_at
