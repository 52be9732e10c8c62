"""A group's ordinary reports recorded set-wise: a few statements for the whole group.

:meth:`HostDb.record_reports` records many terminals' reports in one transaction.  Recording
them one statement at a time (:meth:`HostDb._record_in`) costs 6-10 statements per report;
on PostgreSQL each is a network round trip, so a floor's start-up burst (every terminal's first
report: first contact, a meter snapshot, no anchor yet) and its meter snapshots every minute
queued for seconds.  Here the reports whose outcome is ordinary are recorded with one
statement per step for the whole group, with the effects :meth:`HostDb._record_in` would
have but one: the contact is not written to ``terminals.last_seen_ms``, since the anchor each
of these reports moves holds the time it was received (``journal_anchors.acked_ms``), and a
terminal's last contact is the later of the two
(:data:`~kiosk.host.accounting.records.LAST_CONTACT`, decision 0076): a page a report less to
write.  On PostgreSQL a step's rows go as one JSON array parameter: psycopg's ``executemany``
sends a statement a row, and the writer thread gives up the interpreter lock at each reply and
waits for the event loop to hand it back (decision 0068).  The steps:

1. read every candidate terminal's anchor and meter epochs (one statement; on PostgreSQL it
   first locks the terminals' ``terminals`` rows, then their ``journal_anchors`` rows, then
   the ``meter_epochs`` rows of the terminals that sent a snapshot, in terminal order, and
   returns those epochs' newest snapshots: the later many-row writes visit rows in the
   server's order);
2. classify each report (:func:`_plan`): its epoch is the terminal's current one, or opens the
   terminal's first one (no RAM clear needed, no alarm); its head moves the anchor forward in
   that epoch or is the terminal's first; it holds stored events and at most one meter
   snapshot, each message id once in the whole group; it is its terminal's only report in the
   group.  Every other report (vouchers, ``enable``, RAM clears, a new or old epoch, a head
   behind or at the anchor, resends in one group) goes through :meth:`HostDb._record_in`;
3. open the first epochs, insert the events and meter snapshots once
   (``ON CONFLICT DO NOTHING``; on PostgreSQL ``RETURNING`` gives the accepted ones, on SQLite
   the ids already recorded are read first);
4. compare each accepted snapshot with its epoch's newest (as
   :func:`kiosk.host.accounting.stores.compare_meters` does), writing ``meters_backwards``
   alarms one by one (rare);
5. keep the newer snapshots by a conditional update, insert the first anchors (``ON CONFLICT
   DO NOTHING``) and move the others forward by a conditional update; the anchors written are
   returned (PostgreSQL) or read back (SQLite).  A planned anchor not written as the report's
   head was moved by another host's transaction in between: :class:`ContendedError` is
   raised, the group rolls back and is recorded again with those terminals one statement at a
   time (where the ``head_behind``/``head_forked`` rules decide).

On PostgreSQL step 1 also returns the newest snapshot of the epochs compared in step 4 (read
and locked with the plan), and ``BEGIN`` goes with it: a plain group is four round trips,
``BEGIN`` + plan, the writes (:data:`WRITE_PG`), the anchors (:data:`ANCHOR_PG`), ``COMMIT``,
where it was six (decision 0073).  On SQLite each step is one statement step too (bound
``VALUES`` lists in, a ``json_group_array`` out): ``sqlite3`` hands the interpreter lock over
at every step, once a row for ``executemany`` and ``RETURNING`` (decision 0074).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kiosk.host.accounting import stores
from kiosk.host.accounting.floor_alarms import may_raise
from kiosk.terminal.hostlink.anchor import JournalHead

if TYPE_CHECKING:
    from kiosk.host.accounting.reports import Message, Report
    from kiosk.host.accounting.reports import Tx as _Tx

#: message kinds that take a report out of the set-wise path (they move vouchers, the
#: terminal's enabled state, open an epoch, or raise an alarm); a note with a device count
#: does too (:meth:`HostDb._record_group`)
SLOW_KINDS = frozenset(
    {"voucher_printed", "voucher_voided", "voucher_redeemed", "enable", "ram_cleared", "refused"}
    | {"head_withdrawn"}  # an alarm on the floor
    | {"progressive"}  # a progressive's reading, kept in progressive_meters (not an event)
)


class ContendedError(Exception):
    """Another transaction moved these terminals' anchors during the group's; record them one
    statement at a time."""

    def __init__(self, terminals: set[str]) -> None:
        super().__init__(f"anchors moved concurrently: {', '.join(sorted(terminals))}")
        self.terminals = terminals


@dataclass(frozen=True)
class _Plan:
    """One report the set-wise path records."""

    index: int
    report: Report
    head: JournalHead
    opens_epoch: bool  # the terminal's first epoch: a meter_epochs row to insert
    first_anchor: bool  # no anchor yet: inserted, else moved forward
    snapshot: Message | None  # its meter snapshot, if any


Result = tuple[int, int, JournalHead | None]


def record_setwise(
    tx: _Tx, reports: Sequence[tuple[int, Report]], slow: set[str]
) -> dict[int, Result]:
    """Record the ordinary reports of ``reports`` (index, report; in terminal order) set-wise;
    (accepted, duplicates, acknowledged head) by index.  Terminals in ``slow`` are left out."""
    plans, newest = _plan(tx, reports, slow)
    if not plans:
        return {}
    events, snapshots = _message_rows(plans)
    opened = [(p.report.terminal_id, p.head.epoch, p.report.at) for p in plans if p.opens_epoch]
    if tx.postgres:
        accepted = _write_pg(tx, opened, events, snapshots)
    else:
        accepted = _write_sqlite(tx, opened, events, snapshots)
    keep = _compare_snapshots(
        tx, [p for p in plans if p.snapshot and p.snapshot.message_id in accepted], newest
    )
    first = [_anchor_row(p) for p in plans if p.first_anchor]
    moved = [(*_anchor_row(p), p.head.epoch, p.head.seq) for p in plans if not p.first_anchor]
    if tx.postgres:
        anchors = _anchor_pg(tx, keep, first, moved)
    else:
        anchors = _anchor_sqlite(tx, keep, first, moved, [p.report.terminal_id for p in plans])
    contended = {p.report.terminal_id for p in plans if anchors.get(p.report.terminal_id) != p.head}
    if contended:
        raise ContendedError(contended)
    results: dict[int, Result] = {}
    for p in plans:
        count = sum(1 for m in p.report.messages if m.message_id in accepted)
        results[p.index] = (count, len(p.report.messages) - count, p.head)
    return results


Row = tuple[object, ...]

#: PostgreSQL: ``terminal_id`` among a JSON array's (psycopg dumps a list item by item)
_AMONG = "terminal_id IN (SELECT json_array_elements_text(?::json))"
#: PostgreSQL: the rows of a JSON array parameter (each row an array)
_ROWS = "json_array_elements(?::json) AS r"
#: PostgreSQL: ``events`` or ``meter_snapshots`` rows (the same column types) from JSON
_MESSAGES = (
    "SELECT r->>0, r->>1, (r->>2)::bigint, (r->>3)::bigint, r->>4, r->>5, (r->>6)::bigint "
    f"FROM {_ROWS}"
)
#: PostgreSQL: the group's writes before the snapshots' comparison, one statement: first
#: epochs, events and snapshots once (the message ids recorded returned).  The
#: statement's parts touch different tables, so none needs another's effect.
WRITE_PG = (
    "WITH opened AS (INSERT INTO meter_epochs SELECT r->>0, (r->>1)::bigint, (r->>2)::bigint, "
    f"'', 0, '{{}}' FROM {_ROWS}), "
    f"e AS (INSERT INTO events {_MESSAGES} ON CONFLICT (message_id) DO NOTHING "
    "RETURNING message_id), "
    f"s AS (INSERT INTO meter_snapshots {_MESSAGES} ON CONFLICT (message_id) DO NOTHING "
    "RETURNING message_id) "
    "SELECT message_id FROM e UNION ALL SELECT message_id FROM s"
)
#: PostgreSQL: the newer snapshots kept, the first anchors inserted and the others moved
#: forward (conditionally: a concurrent report never moves one back), one statement; the
#: anchors it wrote returned (a planned one not returned was moved by another host)
ANCHOR_PG = (
    "WITH kept AS (UPDATE meter_epochs m SET snapshot_seq = (r->>0)::bigint, meters = r->>1 "
    f"FROM {_ROWS} WHERE m.terminal_id = r->>2 AND m.epoch = (r->>3)::bigint "
    "AND m.snapshot_seq <= (r->>4)::bigint), "
    "first AS (INSERT INTO journal_anchors (epoch, seq, hash, acked_ms, terminal_id) "
    "SELECT (r->>0)::bigint, (r->>1)::bigint, r->>2, (r->>3)::bigint, r->>4 "
    f"FROM {_ROWS} ON CONFLICT (terminal_id) DO NOTHING "
    "RETURNING terminal_id, epoch, seq, hash), "
    "moved AS (UPDATE journal_anchors a SET epoch = (r->>0)::bigint, seq = (r->>1)::bigint, "
    f"hash = r->>2, acked_ms = (r->>3)::bigint FROM {_ROWS} "
    "WHERE a.terminal_id = r->>4 AND a.epoch = (r->>5)::bigint AND a.seq < (r->>6)::bigint "
    "RETURNING a.terminal_id, a.epoch, a.seq, a.hash) "
    "SELECT * FROM first UNION ALL SELECT * FROM moved"
)
#: SQLite: rows per statement of :func:`_each`
INSERT_CHUNK = 500


def _json_rows(tx: _Tx, sql: str, params: Sequence[object]) -> list[Any]:
    """The items of a SQLite query whose one row is a ``json_group_array`` (of values, or of
    rows as arrays): one statement step for the whole group (decision 0074)."""
    (text,) = tx.execute(sql, params).fetchone()
    rows: list[Any] = json.loads(text)
    return rows


def _each(tx: _Tx, sql: str, rows: Sequence[Row]) -> None:
    """A SQLite write over ``rows`` as a ``VALUES`` list (``v.column1``, ...) put in for
    ``{v}``: one statement step for up to :data:`INSERT_CHUNK` rows, where ``executemany``
    steps once a row, and each step hands the interpreter lock over and waits to get it back
    from a busy event loop (decision 0074)."""
    for start in range(0, len(rows), INSERT_CHUNK):
        part = rows[start : start + INSERT_CHUNK]
        row = "(" + ", ".join("?" for _ in part[0]) + ")"
        values = "(VALUES " + ", ".join(row for _ in part) + ") AS v"
        tx.execute(sql.format(v=values), [value for r in part for value in r])


def _message_rows(plans: Sequence[_Plan]) -> tuple[list[Row], list[Row]]:
    """The ``events`` and ``meter_snapshots`` rows of the plans' messages."""
    events: list[Row] = []
    snapshots: list[Row] = []
    for p in plans:
        r = p.report
        for m in r.messages:
            if m.kind == "meters":
                meters = json.dumps(m.body.get("meters", {}), sort_keys=True)
                reason = m.body.get("reason", "")
                snapshots.append(
                    (m.message_id, r.terminal_id, m.journal_seq, m.at_ms, reason, meters, r.at)
                )
            else:
                body = json.dumps(m.body, sort_keys=True)
                events.append(
                    (m.message_id, r.terminal_id, m.journal_seq, m.at_ms, m.kind, body, r.at)
                )
    return events, snapshots


def _write_pg(
    tx: _Tx,
    opened: Sequence[Row],
    events: Sequence[Row],
    snapshots: Sequence[Row],
) -> set[str]:
    """:data:`WRITE_PG`; the message ids newly recorded.  The rows go as JSON (one parameter
    each, encoded in C: psycopg parses and binds each placeholder, some microseconds each)."""
    params = [json.dumps(rows) for rows in (opened, events, snapshots)]
    return {row[0] for row in tx.execute(WRITE_PG, params).fetchall()}


def _write_sqlite(
    tx: _Tx,
    opened: Sequence[Row],
    events: Sequence[Row],
    snapshots: Sequence[Row],
) -> set[str]:
    """The same on SQLite, one step a statement: the ids already recorded are read first (a
    group's ids are distinct), so the ones accepted are the others."""
    _each(
        tx,
        "INSERT INTO meter_epochs SELECT v.column1, v.column2, v.column3, '', 0, '{{}}' "
        "FROM {v} WHERE true",
        opened,
    )
    accepted: set[str] = set()
    for table, rows in (("events", events), ("meter_snapshots", snapshots)):
        for start in range(0, len(rows), INSERT_CHUNK):  # within SQLite's bound parameters
            part = rows[start : start + INSERT_CHUNK]
            ids = [row[0] for row in part]
            recorded = set(
                _json_rows(
                    tx,
                    f"SELECT json_group_array(message_id) FROM {table} "
                    f"WHERE message_id IN ({_marks(ids)})",
                    ids,
                )
            )
            _each(
                tx,
                f"INSERT INTO {table} SELECT * FROM {{v}} WHERE true "
                "ON CONFLICT (message_id) DO NOTHING",
                part,
            )
            accepted.update(str(row[0]) for row in part if row[0] not in recorded)
    return accepted


def _anchor_pg(
    tx: _Tx, keep: Sequence[Row], first: Sequence[Row], moved: Sequence[Row]
) -> dict[str, JournalHead]:
    """:data:`ANCHOR_PG`; the anchors written, by terminal."""
    params = [json.dumps(rows) for rows in (keep, first, moved)]
    return {
        row[0]: JournalHead(int(row[1]), int(row[2]), bytes.fromhex(row[3]))
        for row in tx.execute(ANCHOR_PG, params).fetchall()
    }


def _anchor_sqlite(
    tx: _Tx,
    keep: Sequence[Row],
    first: Sequence[Row],
    moved: Sequence[Row],
    terminals: Sequence[str],
) -> dict[str, JournalHead]:
    """The same on SQLite, one step a statement; the terminals' anchors read back."""
    _each(
        tx,
        "UPDATE meter_epochs AS m SET snapshot_seq = v.column1, meters = v.column2 FROM {v} "
        "WHERE m.terminal_id = v.column3 AND m.epoch = v.column4 "
        "AND m.snapshot_seq <= v.column5",
        keep,
    )
    _each(
        tx,
        "INSERT INTO journal_anchors (epoch, seq, hash, acked_ms, terminal_id) "
        "SELECT * FROM {v} WHERE true ON CONFLICT (terminal_id) DO NOTHING",
        first,
    )
    _each(  # conditional: a concurrent report never moves the anchor back
        tx,
        "UPDATE journal_anchors AS a SET epoch = v.column1, seq = v.column2, "
        "hash = v.column3, acked_ms = v.column4 FROM {v} "
        "WHERE a.terminal_id = v.column5 AND a.epoch = v.column6 AND a.seq < v.column7",
        moved,
    )
    rows = _json_rows(
        tx,
        "SELECT json_group_array(json_array(terminal_id, epoch, seq, hash)) FROM journal_anchors "
        f"WHERE terminal_id IN ({_marks(terminals)})",
        list(terminals),
    )
    return {t: JournalHead(int(e), int(q), bytes.fromhex(h)) for t, e, q, h in rows}


def _plan(
    tx: _Tx, reports: Sequence[tuple[int, Report]], slow: set[str]
) -> tuple[list[_Plan], Snapshots]:
    """The reports whose every step is the ordinary one (see the module docstring), and on
    PostgreSQL the newest snapshot of each epoch of the terminals that sent one (read, and
    locked, with the plan)."""
    candidates = _candidates(reports, slow)
    if not candidates:
        return [], {}
    with_snapshot = [
        r.terminal_id for _, r in candidates if any(m.kind == "meters" for m in r.messages)
    ]
    anchors, epochs, newest = _anchors_and_epochs(
        tx, [r.terminal_id for _, r in candidates], with_snapshot
    )
    plans = []
    for i, r in candidates:
        plan = _plan_one(i, r, anchors.get(r.terminal_id), epochs.get(r.terminal_id, []))
        if plan is not None:
            plans.append(plan)
    return plans, newest


def _candidates(reports: Sequence[tuple[int, Report]], slow: set[str]) -> list[tuple[int, Report]]:
    """The reports that may take the ordinary path: a head, the terminal's only report in the
    group and not a slow one, each message id once in the group, no slow kind, at most one
    meter snapshot."""
    per_terminal = Counter(r.terminal_id for _, r in reports)
    ids = Counter(m.message_id for _, r in reports for m in r.messages)

    def ordinary(r: Report) -> bool:
        return (
            r.head is not None
            and r.terminal_id not in slow
            and per_terminal[r.terminal_id] == 1
            and all(
                ids[m.message_id] == 1 and m.kind not in SLOW_KINDS and not may_raise(m)
                for m in r.messages
            )
            and sum(1 for m in r.messages if m.kind == "meters") <= 1
        )

    return [(i, r) for i, r in reports if ordinary(r)]


def _anchors_and_epochs(
    tx: _Tx, terminals: Sequence[str], with_snapshot: Sequence[str]
) -> tuple[dict[str, JournalHead], dict[str, list[tuple[int, int]]], Snapshots]:
    """The terminals' journal anchors and meter epochs (terminal -> [(started_ms, epoch)]), in
    one statement; on PostgreSQL also the newest snapshot of each epoch of ``with_snapshot``.

    On PostgreSQL it locks the terminals' ``terminals`` rows, then their ``journal_anchors``
    rows, then the snapshot epochs' ``meter_epochs`` rows, each in terminal order
    (:data:`PLAN_PG`): the group's later statement updates many rows, in whatever order the
    server's plan visits them, so the locks are taken here in one order (the terminal's row
    first, as a report recorded one statement at a time takes them)."""
    if tx.postgres:
        among, snapshots = json.dumps(terminals), json.dumps(with_snapshot)
        rows = tx.execute(PLAN_PG, [among, among, snapshots, among]).fetchall()
    else:
        marks = _marks(terminals)
        rows = _json_rows(
            tx,
            "SELECT json_group_array(json_array(s, t, e, q, h, m)) FROM ("
            "SELECT 'anchor' AS s, terminal_id AS t, epoch AS e, seq AS q, hash AS h, 0 AS m "
            f"FROM journal_anchors WHERE terminal_id IN ({marks}) UNION ALL SELECT 'epoch', "
            "terminal_id, epoch, 0, '', started_ms FROM meter_epochs "
            f"WHERE terminal_id IN ({marks}))",
            [*terminals, *terminals],
        )
    anchors: dict[str, JournalHead] = {}
    epochs: dict[str, list[tuple[int, int]]] = {}
    newest: Snapshots = {}
    for source, terminal_id, epoch, seq, text, started in rows:
        if source == "anchor":
            anchors[terminal_id] = JournalHead(int(epoch), int(seq), bytes.fromhex(text))
        elif source == "epoch":
            epochs.setdefault(terminal_id, []).append((int(started), int(epoch)))
        elif source == "snapshot":
            newest[(terminal_id, int(epoch))] = (int(seq), text)
    return anchors, epochs, newest


#: PostgreSQL: the plan's read (:func:`_anchors_and_epochs`); the branches of a UNION ALL run
#: in order, so the ``terminals`` rows are locked before the ``journal_anchors`` rows
PLAN_PG = (
    f"WITH t AS MATERIALIZED (SELECT terminal_id FROM terminals WHERE {_AMONG} "
    "ORDER BY terminal_id FOR NO KEY UPDATE), "
    "a AS MATERIALIZED (SELECT terminal_id, epoch, seq, hash FROM journal_anchors "
    f"WHERE {_AMONG} ORDER BY terminal_id FOR NO KEY UPDATE), "
    "s AS MATERIALIZED (SELECT terminal_id, epoch, snapshot_seq, meters FROM meter_epochs "
    f"WHERE {_AMONG} ORDER BY terminal_id, epoch FOR NO KEY UPDATE) "
    "SELECT 'locked', '', count(*), 0, '', 0 FROM t "
    "UNION ALL SELECT 'anchor', terminal_id, epoch, seq, hash, 0 FROM a "
    "UNION ALL SELECT 'epoch', terminal_id, epoch, 0, '', started_ms FROM meter_epochs "
    f"WHERE {_AMONG} "
    "UNION ALL SELECT 'snapshot', terminal_id, epoch, snapshot_seq, meters, 0 FROM s"
)


def _plan_one(
    i: int, r: Report, anchor: JournalHead | None, known: list[tuple[int, int]]
) -> _Plan | None:
    """The report's ordinary plan, or None when a step must be decided one by one."""
    head = r.head
    assert head is not None
    opens = _opens_epoch(head, known)
    if opens is None:
        return None  # a new store without (or with) a RAM clear, or an old one back
    first = _first_anchor(head, anchor, opens)
    if first is None:
        return None  # behind, at or beside the anchor: its alarms are decided one by one
    snapshot = next((m for m in r.messages if m.kind == "meters"), None)
    return _Plan(i, r, head, opens, first, snapshot)


def _opens_epoch(head: JournalHead, known: list[tuple[int, int]]) -> bool | None:
    """False: the head is in the current epoch; True: it opens the terminal's first store (or
    first with a head, no alarm); None: anything else."""
    current = max(known)[1] if known else None  # as stores.enter_epoch orders them
    if current == head.epoch:
        return False
    if not current and all(epoch != head.epoch for _, epoch in known):
        return True
    return None


def _first_anchor(head: JournalHead, anchor: JournalHead | None, opens: bool) -> bool | None:
    """True: the terminal's first anchor; False: the head moves the anchor on; None: anything
    else."""
    if anchor is None:
        return True
    if not opens and anchor.epoch == head.epoch and head.seq > anchor.seq:
        return False
    return None


def _compare_snapshots(tx: _Tx, plans: Sequence[_Plan], newest: Snapshots) -> list[Row]:
    """:func:`kiosk.host.accounting.stores.compare_meters` for each plan's accepted snapshot,
    set-wise: ``meters_backwards`` alarms written (rare, one by one); the ``meter_epochs``
    updates that keep the newer snapshots returned (written with the anchors).  PostgreSQL read
    and locked the epochs' rows with the plan (``newest``, :data:`PLAN_PG`); SQLite reads them
    here."""
    if not plans:
        return []
    if not tx.postgres:
        keys = [(p.report.terminal_id, p.head.epoch) for p in plans]
        terminals = [terminal for terminal, _ in keys]
        # SQLite holds the whole database's lock: the no-op update is for the form's sake
        _each(
            tx,
            "UPDATE meter_epochs SET meters = meters WHERE (terminal_id, epoch) IN "
            "(SELECT * FROM {v})",
            keys,
        )
        rows = _json_rows(
            tx,
            "SELECT json_group_array(json_array(terminal_id, epoch, snapshot_seq, meters)) "
            f"FROM meter_epochs WHERE terminal_id IN ({_marks(terminals)})",
            terminals,
        )
        newest = {(row[0], int(row[1])): (int(row[2]), row[3]) for row in rows}
    keep: list[Row] = []
    for p in plans:
        m = p.snapshot
        assert m is not None
        terminal_id, epoch = p.report.terminal_id, p.head.epoch
        # an epoch the group opens has no snapshot yet (PostgreSQL read before it was inserted)
        old_seq, old_text = (0, "{}") if p.opens_epoch else newest[(terminal_id, epoch)]
        new: dict[str, int] = dict(m.body.get("meters", {}))
        detail, newer = stores.meter_change(epoch, old_seq, dict(json.loads(old_text)), m, new)
        if detail is not None:
            stores.terminal_alarm(tx, terminal_id, "meters_backwards", p.report.at, detail)
        if newer:
            keep.append(
                (m.journal_seq, json.dumps(new, sort_keys=True), terminal_id, epoch, m.journal_seq)
            )
    return keep


#: each epoch's newest snapshot: (terminal, epoch) -> (snapshot_seq, meters as JSON)
Snapshots = dict[tuple[str, int], tuple[int, str]]


def _anchor_row(p: _Plan) -> tuple[int, int, str, int, str]:
    return (p.head.epoch, p.head.seq, p.head.hash.hex(), p.report.at, p.report.terminal_id)


def _marks(items: Sequence[object]) -> str:
    return ", ".join("?" for _ in items)
