"""The set-wise group path (:mod:`kiosk.host.accounting.group_record`) records exactly what one
statement at a time would: the same groups recorded by ``record_reports`` and report by report by
``record_report`` leave the same rows and give the same answers, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.host.accounting.db import (
    HostDb,
    Message,
    PostgresHostDb,
    Report,
    ReportResult,
    SqliteHostDb,
)
from kiosk.host.accounting.records import LAST_CONTACT, WITH_ANCHORS
from kiosk.terminal.hostlink.anchor import JournalHead

E1, E2 = 1_790_000_000_000, 1_790_000_900_000
AT = 1_800_000_000_000
ODD = {"reason": 'tab\there, back\\slash, "quotes", new\nline, \u00e9\u20ac, \\N'}
UNKNOWN_VOUCHER = {"validation_number": "1" * 18, "value_cents": 500}


def _head(seq: int, epoch: int = E1, fork: int = 0) -> JournalHead:
    return JournalHead(epoch, seq, bytes([(seq + fork) % 256]) * 32)


def _game(terminal: str, seq: int, epoch: int = E1) -> Message:
    return Message(f"{terminal}:{epoch}:{seq}:0", seq, AT + seq, "game_played", {"g": seq})


def _meters(terminal: str, seq: int, epoch: int = E1, **values: int) -> Message:
    body = {"reason": "periodic", "meters": values}
    return Message(f"{terminal}:{epoch}:{seq}:m", seq, AT + seq, "meters", body)


def _clear(terminal: str, previous_seq: int) -> Message:
    body = {
        "previous_epoch": E1,
        "previous_seq": previous_seq,
        "previous_hash": _head(previous_seq).hash.hex(),
        "by": "operator",
        "reason": "board replaced",
        "cleared_ms": E2,
    }
    return Message(f"{terminal}:{E2}:1:0", 1, AT, "ram_cleared", body)


def _rounds() -> list[list[Report]]:
    """Groups that walk every rule: first contact, snapshots forward, backwards and late,
    duplicates, heads behind, at and beside the anchor, new and old epochs, RAM clears,
    shared message ids, two reports of one terminal, vouchers, no head."""

    def rep(t: str, messages: list[Message], head: JournalHead | None, at: int = AT) -> Report:
        return Report(t, messages, at, head)

    first = [
        rep("T00", [_game("T00", 1), _meters("T00", 1, a=1, b=1)], _head(1)),
        rep("T01", [_game("T01", 1), Message("T01:odd", 1, AT, "tilt", ODD)], _head(1)),
        rep("T02", [_game("T02", 1)], None),  # no head: epoch 0
        rep("T03", [_game("T03", 1), _meters("T03", 1, a=1)], _head(1)),
        rep("T03", [_game("T03", 1), _meters("T03", 1, a=1)], _head(1)),  # resent in the group
        rep("T04", [_game("T04", 1), _game("T04", 2)], _head(2)),
        rep("T05", [_game("T05", 1), _game("T05", 2), _game("T05", 3)], _head(3)),
        rep("T06", [_game("T06", 1)], _head(1)),
        rep("T07", [_game("T07", 1)], _head(1)),
        rep("T08", [_game("T08", 1), _meters("T08", 1, a=5)], _head(1)),
        rep("T09", [_game("T09", 1), _meters("T09", 1, a=1), _meters("T09", 2, a=0)], _head(2)),
        rep("T10", [_game("T10", 1), Message("SHARED", 2, AT, "game_played", {})], _head(2)),
        rep("T11", [_game("T11", 1), Message("SHARED", 2, AT, "game_played", {})], _head(2)),
        rep("T12", [_game("T12", 1), _game("T12", 1)], _head(1)),  # one id twice in a report
    ]
    second = [
        rep("T00", [_game("T00", 2), _meters("T00", 2, a=2, b=0)], _head(2), AT + 1),  # backwards
        rep("T01", [_meters("T01", 5, a=5)], _head(5), AT + 1),
        rep("T02", [_game("T02", 2)], _head(2), AT + 1),  # now with a head: an upgrade
        rep("T03", [_game("T03", 2), _game("T03", 1)], _head(2), AT + 1),  # one resent
        rep("T04", [_game("T04", 3)], _head(1), AT + 1),  # head behind the anchor
        rep("T05", [_game("T05", 3)], _head(3, fork=7), AT + 1),  # forked
        rep("T06", [_game("T06", 1, E2)], _head(1, E2), AT + 1),  # new epoch, no RAM clear
        rep("T07", [_clear("T07", 1)], _head(1, E2), AT + 1),  # a RAM clear
        rep("T08", [_game("T08", 2), _meters("T08", 2, a=6)], _head(2), AT + 1),
        rep("T12", [_game("T12", 2)], _head(2), AT + 1),
        rep("T13", [_game("T13", 1, E2)], _head(1, E2), AT + 1),
    ]
    third = [
        rep("T00", [_meters("T00", 3, a=3, b=3)], _head(3), AT + 2),
        rep("T01", [_meters("T01", 3, a=9)], _head(6), AT + 2),  # late, higher than the newest
        rep("T06", [_game("T06", 4)], _head(4), AT + 2),  # its old epoch come back
        rep("T07", [_game("T07", 2, E2), _meters("T07", 2, E2, a=1)], _head(2, E2), AT + 2),
        rep("T08", [_game("T08", 2), _meters("T08", 2, a=6)], _head(2), AT + 2),  # all resent
        rep("T13", [_game("T13", 2, E2), _meters("T13", 2, E2, a=4)], _head(2, E2), AT + 2),
        rep(
            "T14",
            [Message("T14:1:1:0", 1, AT, "voucher_printed", UNKNOWN_VOUCHER)],
            _head(1),
            AT + 2,
        ),
    ]
    return [first, second, third]


def _dump(db: HostDb) -> dict[str, list[tuple[Any, ...]]]:
    """Every row that matters, without the auto-increment ids, in a stable order."""
    queries = {
        "terminals": f"SELECT t.terminal_id, {LAST_CONTACT}, enabled FROM {WITH_ANCHORS}",
        "events": "SELECT * FROM events",
        "meter_snapshots": "SELECT * FROM meter_snapshots",
        "meter_epochs": "SELECT * FROM meter_epochs",
        "journal_anchors": "SELECT * FROM journal_anchors",
        "terminal_alarms": "SELECT terminal_id, kind, severity, at_ms, detail FROM terminal_alarms",
        "vouchers": "SELECT * FROM vouchers",
        "voucher_audit": "SELECT validation_number, kind, terminal_id, detail FROM voucher_audit",
    }
    with db.transaction() as tx:
        return {
            name: sorted(tuple(row) for row in tx.execute(sql).fetchall())
            for name, sql in queries.items()
        }


@pytest.fixture(params=["sqlite", "postgresql"])
def two_dbs(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[HostDb, HostDb]]:
    if request.param == "sqlite":
        dbs: tuple[HostDb, HostDb] = (
            SqliteHostDb(tmp_path / "group.sqlite3"),
            SqliteHostDb(tmp_path / "one.sqlite3"),
        )
    else:
        server = request.getfixturevalue("postgres_server")
        dbs = (PostgresHostDb(server.new_database()), PostgresHostDb(server.new_database()))
    yield dbs
    for db in dbs:
        db.close()


def test_a_group_records_exactly_what_one_report_at_a_time_records(
    two_dbs: tuple[HostDb, HostDb],
) -> None:
    grouped, single = two_dbs
    slow: list[str] = []
    real = grouped._record_in

    def spy(tx: Any, terminal_id: str, *args: Any) -> Any:
        slow.append(terminal_id)
        return real(tx, terminal_id, *args)

    grouped._record_in = spy  # type: ignore[method-assign, assignment]
    for db in two_dbs:
        for i in range(15):
            db.hello(f"T{i:02d}", "1", "sig", AT - 1)
    for number, group in enumerate(_rounds()):
        slow.clear()
        results = grouped.record_reports(group)
        expected = [
            single.record_report(r.terminal_id, r.messages, r.at, r.head)
            for r in sorted(group, key=lambda r: r.terminal_id)
        ]
        got = [
            (x.accepted, x.duplicates, x.acknowledged)
            for _, x in sorted(zip(group, results, strict=True), key=lambda p: p[0].terminal_id)
        ]
        assert got == expected, number
        assert _dump(grouped) == _dump(single), number
        setwise = {r.terminal_id for r in group} - set(slow)
        assert setwise == [{"T00", "T01", "T04", "T05", "T06", "T07", "T08"},
                           {"T00", "T01", "T02", "T03", "T08", "T12", "T13"},
                           {"T00", "T01", "T07", "T13"}][number], number  # fmt: skip
    kinds = {(row[0], row[1]) for row in _dump(grouped)["terminal_alarms"]}
    assert {("T00", "meters_backwards"), ("T01", "meters_backwards")} <= kinds
    assert {("T04", "head_behind"), ("T05", "head_forked"), ("T06", "old_epoch")} <= kinds


def test_an_anchor_moved_by_another_host_meanwhile_is_decided_one_statement_at_a_time(
    postgres_server: Any,
) -> None:
    """Another connection moves the anchor while the group waits for its row lock: the group
    rolls back and the report is recorded by the one-at-a-time rules (head behind: an alarm,
    the other host's anchor kept)."""
    import psycopg

    dsn = postgres_server.new_database()
    db = PostgresHostDb(dsn)
    try:
        db.hello("T00", "1", "sig", AT)
        db.record_reports([Report("T00", [_game("T00", 1)], AT, _head(1))])
        other = psycopg.connect(dsn)
        other.execute("UPDATE journal_anchors SET seq = 9, hash = %s", (_head(9).hash.hex(),))
        out: list[Any] = []
        group = [Report("T00", [_game("T00", 2)], AT + 1, _head(2))]
        _record_while_another_holds_a_lock(
            db, group, other, out, "the group never waited for the anchor's row lock"
        )
        (result,) = out[0]
        assert (result.accepted, result.duplicates) == (1, 0)
        assert result.acknowledged == _head(9)
        assert [a.kind for a in db.terminal_alarms("T00")] == ["head_behind"]
        assert len(db.events("T00")) == 2
    finally:
        db.close()


def test_a_first_anchor_inserted_by_another_host_meanwhile_is_decided_one_statement_at_a_time(
    postgres_server: Any,
) -> None:
    """The terminal has no anchor when the group reads its plan; another connection inserts
    one before the group's insert (the group waits on it): the group sees its own insert
    refused (``ON CONFLICT DO NOTHING`` returned nothing), rolls back and records the report
    one statement at a time (head behind the other host's: an alarm, that anchor kept)."""
    import psycopg

    dsn = postgres_server.new_database()
    db = PostgresHostDb(dsn)
    try:
        db.hello("T01", "1", "sig", AT)
        other = psycopg.connect(dsn)
        other.execute(
            "INSERT INTO journal_anchors (terminal_id, epoch, seq, hash, acked_ms) "
            "VALUES ('T01', %s, 9, %s, %s)",
            (E1, _head(9).hash.hex(), AT),
        )
        out: list[Any] = []
        group = [Report("T01", [_game("T01", 2)], AT + 1, _head(2))]
        _record_while_another_holds_a_lock(
            db, group, other, out, "the group never waited for the other host's anchor"
        )
        (result,) = out[0]
        assert (result.accepted, result.duplicates) == (1, 0)
        assert result.acknowledged == _head(9)
        assert [a.kind for a in db.terminal_alarms("T01")] == ["head_behind"]
        assert len(db.events("T01")) == 1
    finally:
        db.close()


def _record_while_another_holds_a_lock(
    db: PostgresHostDb, group: list[Report], other: Any, out: list[Any], why: str
) -> None:
    """Record ``group`` on a thread (its result into ``out``), see it wait for a lock that
    ``other`` (a psycopg connection in a transaction) holds, then let ``other`` commit."""
    worker = threading.Thread(target=lambda: out.append(db.record_reports(group)))
    worker.start()

    def waiting() -> int:
        row = other.execute("SELECT COUNT(*) FROM pg_locks WHERE NOT granted").fetchone()
        assert row is not None
        return int(row[0])

    deadline = time.monotonic() + 10
    while not waiting() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert waiting(), why
    other.commit()
    other.close()
    worker.join(10)


def _traced(db: SqliteHostDb, reports: list[Report]) -> tuple[list[ReportResult], int]:
    """``record_reports`` on SQLite, and how many statements it ran."""
    traced: list[str] = []
    db._conn.set_trace_callback(traced.append)
    try:
        return db.record_reports(reports), len(traced)
    finally:
        db._conn.set_trace_callback(None)


def test_a_sqlite_group_s_statements_do_not_grow_with_its_reports(tmp_path: Path) -> None:
    """``sqlite3`` hands the interpreter lock over at every statement step, and a busy event
    loop keeps it up to the switch interval (decision 0074): a group's statements do not grow
    with its reports (a few more a 500 rows), every row is recorded, and a resent message is a
    duplicate in every chunk."""
    db = SqliteHostDb(tmp_path / "host.sqlite3")
    names = [f"T{i:04d}" for i in range(1_100)]

    def group(terminals: list[str], seq: int) -> list[Report]:
        return [
            Report(t, [_game(t, seq), _meters(t, seq, a=seq)], AT + seq, _head(seq))
            for t in terminals
        ]

    try:
        for t in names:
            db.hello(t, "1", "sig", AT - 1)
        db.record_reports(group(names, 1))  # first contact: epochs and anchors opened
        statements: dict[int, int] = {}
        for terminals, seq in ((names[:3], 2), (names, 3)):
            results, statements[len(terminals)] = _traced(db, group(terminals, seq))
            assert {(r.accepted, r.duplicates, r.acknowledged) for r in results} == {
                (2, 0, _head(seq))
            }
        # each terminal's last game again, with a new one: one accepted, one duplicate each
        again = [Report(t, [_game(t, 3), _game(t, 4)], AT + 4, _head(4)) for t in names]
        results, count = _traced(db, again)
        assert count <= statements[1_100], "not set-wise"
        assert {(r.accepted, r.duplicates, r.acknowledged) for r in results} == {(1, 1, _head(4))}
        rows = _dump(db)
        assert len(rows["events"]) == 1_100 * 3 + 3
        assert len(rows["meter_snapshots"]) == 1_100 * 2 + 3
        assert {row[1:3] for row in rows["journal_anchors"]} == {(E1, 4)}
        assert {row[4] for row in rows["meter_epochs"]} == {3}  # snapshot_seq: the newest kept
    finally:
        db.close()
    # six statements take their rows in chunks of 500, and the reads of the ids already
    # recorded go with the inserts' chunks: two more each for 1,100 reports (one statement a
    # row, as executemany steps, would be thousands)
    assert statements[1_100] <= statements[3] + 16, statements
    assert statements[3] <= 16, statements
