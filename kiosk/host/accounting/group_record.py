"""A group's ordinary reports recorded set-wise: a few statements for the whole group.

:meth:`HostDb.record_reports` records many terminals' reports in one transaction.  Recording
them one statement at a time (:meth:`HostDb._record_in`) costs 6-10 statements per report;
on PostgreSQL each is a network round trip, so a floor's start-up burst (every terminal's first
report: first contact, a meter snapshot, no anchor yet) and its meter snapshots every minute
queued for seconds.  Here the reports whose outcome is ordinary are recorded with one
statement (or one pipelined batch) per step for the whole group, with exactly the effects
:meth:`HostDb._record_in` would have:

1. read every candidate terminal's anchor and meter epochs (two statements);
2. classify each report (:func:`_plan`): its epoch is the terminal's current one, or opens the
   terminal's first one (no RAM clear needed, no alarm); its head moves the anchor forward in
   that epoch or is the terminal's first; it holds stored events and at most one meter
   snapshot, each message id once in the whole group; it is its terminal's only report in the
   group.  Every other report (vouchers, ``enable``, RAM clears, a new or old epoch, a head
   behind or at the anchor, resends in one group) goes through :meth:`HostDb._record_in`;
3. note the contacts, open the first epochs, insert the events and meter snapshots once
   (``ON CONFLICT DO NOTHING RETURNING``: the rows returned are the accepted ones);
4. compare each accepted snapshot with its epoch's newest (rows locked first, in terminal
   order, as :func:`kiosk.host.accounting.stores.compare_meters` does), writing ``meters_backwards``
   alarms one by one (rare) and keeping the newer snapshot by a conditional update;
5. insert the first anchors (``ON CONFLICT DO NOTHING``) and move the others forward by a
   conditional update, then read them back.  An anchor that is not the report's head was
   moved by another host's transaction in between: :class:`ContendedError` is raised, the group
   rolls back and is recorded again with those terminals one statement at a time (where the
   ``head_behind``/``head_forked`` rules decide).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
    plans = _plan(tx, reports, slow)
    if not plans:
        return {}
    with tx.pipeline():  # one round trip for both
        tx.executemany(
            "UPDATE terminals SET last_seen_ms = ? WHERE terminal_id = ? AND last_seen_ms < ?",
            [(p.report.at, p.report.terminal_id, p.report.at) for p in plans],
        )
        tx.executemany(
            "INSERT INTO meter_epochs VALUES (?, ?, ?, '', 0, '{}')",
            [(p.report.terminal_id, p.head.epoch, p.report.at) for p in plans if p.opens_epoch],
        )
    accepted = _insert_messages(tx, plans)
    _compare_snapshots(tx, [p for p in plans if p.snapshot and p.snapshot.message_id in accepted])
    with tx.pipeline():  # one round trip for the three
        tx.executemany(
            "INSERT INTO journal_anchors (epoch, seq, hash, acked_ms, terminal_id) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (terminal_id) DO NOTHING",
            [_anchor_row(p) for p in plans if p.first_anchor],
        )
        tx.executemany(  # conditional: a concurrent report never moves the anchor back
            "UPDATE journal_anchors SET epoch = ?, seq = ?, hash = ?, acked_ms = ? "
            "WHERE terminal_id = ? AND epoch = ? AND seq < ?",
            [(*_anchor_row(p), p.head.epoch, p.head.seq) for p in plans if not p.first_anchor],
        )
        anchors = _anchors(tx, [p.report.terminal_id for p in plans])
    contended = {p.report.terminal_id for p in plans if anchors.get(p.report.terminal_id) != p.head}
    if contended:
        raise ContendedError(contended)
    results: dict[int, Result] = {}
    for p in plans:
        count = sum(1 for m in p.report.messages if m.message_id in accepted)
        results[p.index] = (count, len(p.report.messages) - count, p.head)
    return results


def _plan(tx: _Tx, reports: Sequence[tuple[int, Report]], slow: set[str]) -> list[_Plan]:
    """The reports whose every step is the ordinary one (see the module docstring)."""
    candidates = _candidates(reports, slow)
    if not candidates:
        return []
    anchors, epochs = _anchors_and_epochs(tx, [r.terminal_id for _, r in candidates])
    plans = []
    for i, r in candidates:
        plan = _plan_one(i, r, anchors.get(r.terminal_id), epochs.get(r.terminal_id, []))
        if plan is not None:
            plans.append(plan)
    return plans


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
    tx: _Tx, terminals: Sequence[str]
) -> tuple[dict[str, JournalHead], dict[str, list[tuple[int, int]]]]:
    """The terminals' journal anchors and meter epochs (terminal -> [(started_ms, epoch)]), in
    one round trip."""
    marks = _marks(terminals)
    anchors: dict[str, JournalHead] = {}
    epochs: dict[str, list[tuple[int, int]]] = {}
    for source, terminal_id, epoch, seq, digest, started in tx.execute(
        f"SELECT 'anchor', terminal_id, epoch, seq, hash, 0 FROM journal_anchors "
        f"WHERE terminal_id IN ({marks}) UNION ALL SELECT 'epoch', terminal_id, epoch, 0, '', "
        f"started_ms FROM meter_epochs WHERE terminal_id IN ({marks})",
        [*terminals, *terminals],
    ).fetchall():
        if source == "anchor":
            anchors[terminal_id] = JournalHead(int(epoch), int(seq), bytes.fromhex(digest))
        else:
            epochs.setdefault(terminal_id, []).append((int(started), int(epoch)))
    return anchors, epochs


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


def _insert_messages(tx: _Tx, plans: Sequence[_Plan]) -> set[str]:
    """Insert every message once; the ids of those newly recorded."""
    events = []
    snapshots = []
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
    return tx.insert_once("events", events) | tx.insert_once("meter_snapshots", snapshots)


def _compare_snapshots(tx: _Tx, plans: Sequence[_Plan]) -> None:
    """:func:`kiosk.host.accounting.stores.compare_meters` for each plan's accepted snapshot,
    set-wise."""
    if not plans:
        return
    keys = [(p.report.terminal_id, p.head.epoch) for p in plans]
    tx.executemany(  # no-op updates take the rows' locks on PostgreSQL, in terminal order
        "UPDATE meter_epochs SET meters = meters WHERE terminal_id = ? AND epoch = ?", keys
    )
    terminals = [terminal for terminal, _ in keys]
    newest = {
        (row[0], int(row[1])): (int(row[2]), row[3])
        for row in tx.execute(
            "SELECT terminal_id, epoch, snapshot_seq, meters FROM meter_epochs "
            f"WHERE terminal_id IN ({_marks(terminals)})",
            terminals,
        ).fetchall()
    }
    keep = []
    for p in plans:
        m = p.snapshot
        assert m is not None
        terminal_id, epoch = p.report.terminal_id, p.head.epoch
        old_seq, old_text = newest[(terminal_id, epoch)]
        new: dict[str, int] = dict(m.body.get("meters", {}))
        detail, newer = stores.meter_change(epoch, old_seq, dict(json.loads(old_text)), m, new)
        if detail is not None:
            stores.terminal_alarm(tx, terminal_id, "meters_backwards", p.report.at, detail)
        if newer:
            keep.append(
                (m.journal_seq, json.dumps(new, sort_keys=True), terminal_id, epoch, m.journal_seq)
            )
    tx.executemany(
        "UPDATE meter_epochs SET snapshot_seq = ?, meters = ? "
        "WHERE terminal_id = ? AND epoch = ? AND snapshot_seq <= ?",
        keep,
    )


def _anchor_row(p: _Plan) -> tuple[int, int, str, int, str]:
    return (p.head.epoch, p.head.seq, p.head.hash.hex(), p.report.at, p.report.terminal_id)


def _anchors(tx: _Tx, terminals: Sequence[str]) -> dict[str, JournalHead]:
    return {
        row[0]: JournalHead(int(row[1]), int(row[2]), bytes.fromhex(row[3]))
        for row in tx.execute(
            "SELECT terminal_id, epoch, seq, hash FROM journal_anchors "
            f"WHERE terminal_id IN ({_marks(terminals)})",
            terminals,
        ).fetchall()
    }


def _marks(items: Sequence[object]) -> str:
    return ", ".join("?" for _ in items)
