"""Meters, game recall, the event log and the service audit log: read-only views.

The text is the technicians' own (:mod:`kiosk.terminal.textui.records`, as ``turbokiosk meters``,
``recall`` and ``events`` print it): meter name, lifetime, period.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.terminal.service import audit_log
from kiosk.terminal.service.access import Role
from kiosk.terminal.service.functions.base import (
    Context,
    Outcome,
    ServiceError,
    ServiceFunction,
    arg_int,
)
from kiosk.terminal.store.journal import LOGGED_KINDS, Journal
from kiosk.terminal.store.reader import created_at
from kiosk.terminal.textui.records import (
    events_json,
    events_text,
    in_progress_record,
    meters_json,
    meters_text,
    named,
    period_meters_since,
    recall_text,
)


def journal_seq(journal: Journal) -> int:
    """The last journal row."""
    row = journal.db.execute("SELECT MAX(seq) FROM journal").fetchone()
    return int(row[0] or 0)


def meters(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """Lifetime and period meters."""
    state = ctx.terminal.state()
    with ctx.terminal.reading() as journal:
        seq = journal_seq(journal)
        since = period_meters_since(journal, created_at(journal))
    data = meters_json(state, seq, since)
    return Outcome("Meters", tuple(meters_text(state, seq, since)), data)


def recall(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """The last games, card by card, the game in progress first."""
    last = arg_int(args, "last", 5)
    state = ctx.terminal.state()
    with ctx.terminal.reading() as journal:
        records = journal.recall(last=last)
    current = in_progress_record(state)
    data = {
        "in_progress": None if current is None else named(current),
        "games": [named(r) for r in records],
    }
    return Outcome("Game recall", tuple(recall_text(records, current)), data)


def events(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """The event log, newest first, optionally of some kinds only."""
    last = arg_int(args, "last", 50)
    kinds = list(args.get("kinds") or [])
    unknown = sorted(set(kinds) - LOGGED_KINDS)
    if unknown:
        raise ServiceError(
            f"kinds: no event kind {unknown[0]!r}; kinds: {', '.join(sorted(LOGGED_KINDS))}"
        )
    with ctx.terminal.reading() as journal:
        rows = journal.event_log(kinds=kinds or None, last=last)
    return Outcome("Event log", tuple(events_text(rows)), {"events": events_json(rows)})


def audit_trail(ctx: Context, args: Mapping[str, Any]) -> Outcome:
    """The service audit log, newest first (read only: it cannot be cleared)."""
    last = arg_int(args, "last", 50)
    role, action = args.get("role"), args.get("action")
    if role is not None:
        role = Role.parse(str(role)).label
    with ctx.terminal.reading() as journal:
        found = audit_log.entries(journal, last=last, role=role, action=action)
    lines = [audit_log.entry_line(entry) for entry in found] or ["No service action recorded."]
    data = {"entries": [{"number": x.number, "seq": x.seq, **x.record} for x in found]}
    return Outcome("Service audit log", tuple(lines), data)


def event_kinds() -> list[str]:
    """The kinds the event-log filter offers."""
    return sorted(LOGGED_KINDS)


FUNCTIONS = (
    ServiceFunction("meters", "Meters", Role.ATTENDANT, meters, help="lifetime and period meters"),
    ServiceFunction("recall", "Game recall", Role.ATTENDANT, recall, help="the last games"),
    ServiceFunction(
        "events",
        "Event log",
        Role.TECHNICIAN,
        events,
        help="logged events, newest first",
    ),
    ServiceFunction(
        "audit_log",
        "Service audit log",
        Role.TECHNICIAN,
        audit_trail,
        help="every service entry, exit and action",
    ),
)

__all__ = ["FUNCTIONS", "event_kinds"]
