"""Issue 26: a door opened outside service, a tilt and a handpay are alarms in the host's records
(on SQLite and PostgreSQL, one report at a time and in a group commit)."""

from __future__ import annotations

import pytest

from kiosk.host.accounting.db import HostDb
from kiosk.host.accounting.reports import Message, Report
from kiosk.terminal.hostlink.anchor import JournalHead

AT = 1_790_000_000_000


def door(seq: int, open_: bool, name: str = "main") -> Message:
    return Message(f"TK-A:1:{seq}:0", seq, AT + seq, "door", {"door": name, "open": open_})


def service(seq: int, active: bool) -> Message:
    body = {"active": active, "role": "technician" if active else ""}
    return Message(f"TK-A:1:{seq}:0", seq, AT + seq, "service", body)


def kinds(db: HostDb) -> list[tuple[str, str]]:
    return [(a.kind, str(a.severity)) for a in reversed(db.terminal_alarms("TK-A"))]


def test_a_door_opened_outside_service_is_an_alarm_and_inside_is_not(host_db: HostDb) -> None:
    db = host_db
    db.hello("TK-A", "1", "sig", AT)
    db.record("TK-A", [door(1, True)], AT)  # nobody in the service menu
    db.record("TK-A", [door(2, False), service(3, True), door(4, True, "logic")], AT)
    db.record("TK-A", [door(5, False), service(6, False)], AT)
    db.record("TK-A", [door(7, True, "cash")], AT)  # after the technician left
    alarms = db.terminal_alarms("TK-A")
    assert [(a.kind, a.detail["door"]) for a in reversed(alarms)] == [
        ("door_open", "main"),
        ("door_open", "cash"),
    ]
    assert alarms[-1].at_ms == AT + 1  # when the door opened, not when the host heard of it
    assert db.record("TK-A", [door(1, True)], AT) == (0, 1)  # a resend: no second alarm
    assert len(db.terminal_alarms("TK-A")) == 2


def test_tilts_and_handpays_are_floor_alarms(host_db: HostDb) -> None:
    db = host_db
    db.hello("TK-A", "1", "sig", AT)
    raised = {"code": "paper_out", "raised": True, "reason": "printer out of paper"}
    cleared = {"code": "paper_out", "raised": False, "reason": ""}
    handpay = {"seat": 0, "value_cents": 250_000, "kind": "jackpot"}
    db.record(
        "TK-A",
        [
            Message("TK-A:1:1:0", 1, AT, "tilt", {**raised, "needs_attendant": False, "by": ""}),
            Message("TK-A:1:2:0", 2, AT, "tilt", {**cleared, "needs_attendant": False, "by": ""}),
            Message("TK-A:1:3:0", 3, AT, "handpay_locked", handpay),
        ],
        AT,
    )
    assert kinds(db) == [("tilt", "exception"), ("handpay", "exception")]
    tilt, pay = reversed(db.terminal_alarms("TK-A"))
    assert (tilt.detail["code"], tilt.detail["reason"]) == ("paper_out", "printer out of paper")
    assert (pay.detail["value_cents"], pay.detail["handpay"]) == (250_000, "jackpot")


@pytest.mark.parametrize("grouped", [False, True])
def test_the_group_commit_raises_them_too(host_db: HostDb, grouped: bool) -> None:
    db = host_db
    db.hello("TK-A", "1", "sig", AT)
    db.hello("TK-B", "1", "sig", AT)
    head = JournalHead(1, 1, bytes(32))
    reports = [
        Report("TK-A", [door(1, True)], AT, head),
        Report("TK-B", [Message("TK-B:1:1:0", 1, AT, "door", {"door": "main", "open": True})], AT),
    ]
    if grouped:
        db.record_reports(reports)
    else:
        for r in reports:
            db.record_report(r.terminal_id, r.messages, r.at, r.head)
    assert [a.kind for a in db.terminal_alarms("TK-A")] == ["door_open"]
    assert [a.kind for a in db.terminal_alarms("TK-B")] == ["door_open"]
