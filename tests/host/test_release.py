"""An operator's release of a stuck ticket-in reservation, and the reports that contradict it.

The same tests on SQLite and on a real PostgreSQL server (the ``host_db`` fixture).
"""

from __future__ import annotations

import getpass
import json
import logging
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.cli import main
from kiosk.host.accounting.db import (
    HostDb,
    HostDbError,
    Message,
    PostgresHostDb,
    SqliteHostDb,
    now_ms,
)
from kiosk.host.accounting.records import VoucherAuditEntry
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Phase
from kiosk.terminal.hostlink.client import HostClient
from kiosk.terminal.hostlink.ports import HostUnavailableError
from tests.helpers.host_checks import disagreements
from tests.helpers.host_rig import HostRig, Pki, TerminalRig

T0 = 1_800_000_000_000
MINUTE = 60_000
LATER = T0 + 11 * MINUTE  # past the ten quiet minutes


def _reserved(db: HostDb, value: int = 2500, at: str = "TK-A") -> str:
    """A voucher printed by TK-P and reserved at ``at`` (last seen at T0) at T0."""
    db.hello(at, "v", "s", T0)
    number = db.issue_validation_number("TK-P", value, T0)
    body = {"validation_number": number, "value_cents": value, "seat": 0}
    seq = int(number) % 10**9  # a message id of its own
    db.record("TK-P", [Message(f"TK-P:1:{seq}:0", seq, T0, "voucher_printed", body)], T0)
    assert db.validate_ticket(at, number, T0).accepted
    return number


def _voucher(db: HostDb, number: str) -> tuple[str, str]:
    record = db.voucher(number)
    assert record is not None
    return record.state, record.holder


def _kinds(db: HostDb, number: str) -> list[tuple[str, str, str]]:
    """(kind, severity, terminal) of the voucher's audit entries, oldest first."""
    return [(r.kind, r.severity, r.terminal_id) for r in db.voucher_audit(number)[::-1]]


def _json(entry: VoucherAuditEntry) -> str:
    return json.dumps(entry.detail, sort_keys=True)


def _redeemed_event(terminal: str, seq: int, number: str, value: int = 2500) -> Message:
    body = {"validation_number": number, "value_cents": value, "seat": 0}
    return Message(f"{terminal}:1:{seq}:0", seq, T0 + 1, "voucher_redeemed", body)


def test_a_release_reissues_the_voucher_and_is_audited(host_db: HostDb) -> None:
    number = _reserved(host_db)
    assert host_db.release_voucher(number, "alice", "terminal replaced", LATER) == "TK-A"
    assert _voucher(host_db, number) == ("issued", "")
    (entry,) = host_db.voucher_audit(number)
    assert (entry.kind, entry.severity, entry.terminal_id) == (
        "released",
        "operator",
        "TK-A",
    )
    assert (entry.operator, entry.reason, entry.at_ms) == (
        "alice",
        "terminal replaced",
        LATER,
    )
    assert entry.detail == {"value_cents": 2500, "reserved_ms": T0, "last_seen_ms": T0}
    # the patron cashes it at another terminal, the ordinary way
    answer = host_db.validate_ticket("TK-B", number, LATER)
    assert (answer.accepted, answer.value) == (True, 2500)
    host_db.finish_ticket("TK-B", number, stacked=True, at=LATER)
    assert _voucher(host_db, number) == ("redeemed", "TK-B")
    assert _kinds(host_db, number) == [("released", "operator", "TK-A")]


def _refused(db: HostDb, number: str, match: str, at: int = LATER, **kw: str) -> None:
    before: Any = (db.voucher(number), db.voucher_audit())
    with pytest.raises(HostDbError, match=match):
        db.release_voucher(number, kw.get("operator", "alice"), kw.get("reason", "dead"), at)
    assert (db.voucher(number), db.voucher_audit()) == before  # nothing changed


def test_releases_that_are_refused_change_nothing(host_db: HostDb) -> None:
    number = _reserved(host_db)
    _refused(host_db, "123456789012345678", "no voucher")
    _refused(
        host_db, number, "reserved at TK-A 5 min 0 s ago; a release needs 10 min", T0 + 5 * MINUTE
    )
    _refused(host_db, number, "needs a reason", reason="  ")
    _refused(host_db, number, "operator's name", operator="")
    # the terminal is alive: a heartbeat eight minutes after the reservation
    host_db.record("TK-A", [], T0 + 8 * MINUTE)
    _refused(host_db, number, "TK-A was in contact 3 min 0 s ago", LATER)
    # ticket calls are contact too
    fresh = _reserved(host_db, 900, at="TK-C")
    host_db.validate_ticket("TK-C", fresh, T0 + 9 * MINUTE)
    _refused(host_db, fresh, "reserved at TK-C 2 min 0 s ago", LATER)
    # only a reservation can be released
    host_db.finish_ticket("TK-A", number, stacked=True, at=LATER)
    _refused(host_db, number, "is redeemed, not reserved", LATER + 20 * MINUTE)
    issued = host_db.issue_validation_number("TK-P", 100, T0)
    _refused(host_db, issued, "is pending, not reserved")
    assert host_db.voucher_audit() == []


def test_a_late_stacked_call_redeems_at_the_terminal_as_an_exception(host_db: HostDb) -> None:
    number = _reserved(host_db)
    host_db.release_voucher(number, "alice", "terminal dead", LATER)
    host_db.finish_ticket("TK-A", number, stacked=True, at=LATER + MINUTE)  # it was not dead
    assert _voucher(host_db, number) == ("redeemed", "TK-A")
    host_db.record("TK-A", [_redeemed_event("TK-A", 7, number)], LATER + MINUTE)  # the outbox
    assert _kinds(host_db, number) == [
        ("released", "operator", "TK-A"),
        ("late_stacked", "exception", "TK-A"),
    ]
    entry = host_db.voucher_audit(number)[0]
    assert entry.detail["release"]["operator"] == "alice"
    assert entry.detail["state"] == "issued"
    assert host_db.validate_ticket("TK-B", number, LATER).reason == "already redeemed"


def test_a_late_journal_report_alone_redeems_as_an_exception(host_db: HostDb) -> None:
    number = _reserved(host_db)
    host_db.release_voucher(number, "alice", "terminal dead", LATER)
    host_db.record("TK-A", [_redeemed_event("TK-A", 7, number)], LATER + MINUTE)
    assert _voucher(host_db, number) == ("redeemed", "TK-A")
    entry = host_db.voucher_audit(number)[0]
    assert (entry.kind, entry.severity) == ("late_stacked", "exception")
    assert entry.detail["journaled_ms"] == T0 + 1


def test_a_late_report_after_a_redemption_elsewhere_is_a_double_redemption_alarm(
    host_db: HostDb, caplog: pytest.LogCaptureFixture
) -> None:
    number = _reserved(host_db)
    host_db.release_voucher(number, "alice", "terminal dead", LATER)
    assert host_db.validate_ticket("TK-B", number, LATER).accepted
    host_db.finish_ticket("TK-B", number, stacked=True, at=LATER)
    with caplog.at_level(logging.ERROR, logger="kiosk.host.accounting.db"):
        with pytest.raises(HostDbError, match="already redeemed at TK-B; recorded as a double"):
            host_db.finish_ticket("TK-A", number, stacked=True, at=LATER + MINUTE)
        host_db.record("TK-A", [_redeemed_event("TK-A", 7, number)], LATER + MINUTE)
    assert _voucher(host_db, number) == ("redeemed", "TK-B")  # the first redemption stays
    assert _kinds(host_db, number) == [
        ("released", "operator", "TK-A"),
        ("double_redemption", "alarm", "TK-A"),  # once, though reported twice
    ]
    (alarm,) = host_db.voucher_audit(severity="alarm")
    assert alarm.detail["holder"] == "TK-B" and alarm.detail["value_cents"] == 2500
    assert alarm.detail["release"]["reason"] == "terminal dead"
    alarms = [r.getMessage() for r in caplog.records if r.getMessage().startswith("ALARM")]
    assert alarms == [f"ALARM voucher {number}: double_redemption reported by TK-A: {_json(alarm)}"]


def test_a_late_report_while_another_terminal_holds_it_is_an_alarm(host_db: HostDb) -> None:
    number = _reserved(host_db)
    host_db.release_voucher(number, "alice", "terminal dead", LATER)
    assert host_db.validate_ticket("TK-B", number, LATER).accepted
    host_db.finish_ticket("TK-A", number, stacked=True, at=LATER + MINUTE)
    assert _voucher(host_db, number) == ("redeemed", "TK-A")  # it is in TK-A's cash box
    with pytest.raises(HostDbError, match="double redemption"):
        host_db.finish_ticket("TK-B", number, stacked=True, at=LATER + 2 * MINUTE)
    host_db.finish_ticket("TK-A", number, stacked=True, at=LATER + 3 * MINUTE)  # repeated: no entry
    assert _kinds(host_db, number) == [
        ("released", "operator", "TK-A"),
        ("late_stacked", "alarm", "TK-A"),
        ("double_redemption", "alarm", "TK-B"),
    ]


def test_a_late_returned_report_is_an_exception_and_changes_nothing(host_db: HostDb) -> None:
    number = _reserved(host_db)
    host_db.release_voucher(number, "alice", "terminal dead", LATER)
    host_db.finish_ticket("TK-A", number, stacked=False, at=LATER + MINUTE)
    host_db.finish_ticket("TK-A", number, stacked=False, at=LATER + MINUTE)  # repeated
    assert _voucher(host_db, number) == ("issued", "")
    assert _kinds(host_db, number) == [
        ("released", "operator", "TK-A"),
        ("late_returned", "exception", "TK-A"),
    ]
    # reserved again at the repaired terminal and stacked: an ordinary redemption
    assert host_db.validate_ticket("TK-A", number, LATER + 2 * MINUTE).accepted
    host_db.finish_ticket("TK-A", number, stacked=True, at=LATER + 2 * MINUTE)
    assert _voucher(host_db, number) == ("redeemed", "TK-A")
    assert len(host_db.voucher_audit(number)) == 2


def test_a_second_release_needs_a_second_stuck_reservation(host_db: HostDb) -> None:
    number = _reserved(host_db)
    host_db.release_voucher(number, "alice", "terminal dead", LATER)
    assert host_db.validate_ticket("TK-B", number, LATER).accepted
    with pytest.raises(HostDbError, match="reserved at TK-B 0 s ago"):
        host_db.release_voucher(number, "bob", "again", LATER)
    host_db.release_voucher(number, "bob", "TK-B dead too", LATER + 11 * MINUTE)
    assert [(r.kind, r.terminal_id, r.operator) for r in host_db.voucher_audit(number)] == [
        ("released", "TK-B", "bob"),
        ("released", "TK-A", "alice"),
    ]


def test_a_release_racing_the_terminal_s_stacked_call_stays_consistent(host_db: HostDb) -> None:
    outcomes = set()
    for _ in range(15):
        number = _reserved(host_db)
        barrier = threading.Barrier(2)
        refused: list[str] = []

        def release(
            number: str = number, barrier: threading.Barrier = barrier, refused: list[str] = refused
        ) -> None:
            barrier.wait()
            try:
                host_db.release_voucher(number, "alice", "terminal dead", LATER)
            except HostDbError as exc:
                refused.append(str(exc))

        def stack(number: str = number, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            host_db.finish_ticket("TK-A", number, stacked=True, at=LATER)

        threads = [threading.Thread(target=release), threading.Thread(target=stack)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert _voucher(host_db, number) == ("redeemed", "TK-A")
        kinds = _kinds(host_db, number)
        if refused:  # the stacked call came first
            assert kinds == []
            assert "redeemed, not reserved" in refused[0] or "changed while" in refused[0]
        else:  # the release came first: the stacked call is a late report
            assert kinds == [
                ("released", "operator", "TK-A"),
                ("late_stacked", "exception", "TK-A"),
            ]
        outcomes.add(bool(refused))
    assert outcomes  # at least one race ran; either order is consistent


def test_the_call_and_the_journal_racing_with_a_late_report_audit_it_once(host_db: HostDb) -> None:
    for seq in range(10, 22):
        number = _reserved(host_db)
        host_db.release_voucher(number, "alice", "terminal dead", LATER)
        barrier = threading.Barrier(2)

        def call(number: str = number, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            host_db.finish_ticket("TK-A", number, stacked=True, at=LATER + MINUTE)

        def journal(number: str = number, barrier: threading.Barrier = barrier, seq: int = seq):
            barrier.wait()
            host_db.record("TK-A", [_redeemed_event("TK-A", seq, number)], LATER + MINUTE)

        threads = [threading.Thread(target=call), threading.Thread(target=journal)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert _voucher(host_db, number) == ("redeemed", "TK-A")
        assert _kinds(host_db, number) == [
            ("released", "operator", "TK-A"),
            ("late_stacked", "exception", "TK-A"),
        ]


# --- the command line, on both back ends ---------------------------------------------------------


def _target(db: HostDb) -> str:
    return str(db.dsn if isinstance(db, PostgresHostDb) else db.path)  # type: ignore[attr-defined]


def test_release_and_audit_commands(host_db: HostDb, capsys: pytest.CaptureFixture[str]) -> None:
    t = now_ms() - 30 * MINUTE
    host_db.hello("TK-A", "v", "s", t)
    numbers = []
    for seq in (1, 2):
        number = host_db.issue_validation_number("TK-A", 1234, t)
        body = {"validation_number": number, "value_cents": 1234, "seat": 0}
        host_db.record("TK-A", [Message(f"TK-A:1:{seq}:0", seq, t, "voucher_printed", body)], t)
        assert host_db.validate_ticket("TK-A", number, t).accepted
        numbers.append(number)
    db = ["--db", _target(host_db)]
    with pytest.raises(SystemExit):  # no reason given
        main(["host", "vouchers", "release", numbers[0], *db])
    capsys.readouterr()
    code = main(["host", "vouchers", *db, "release", numbers[0], "--reason", "replaced",
                 "--operator", "alice", "--json"])  # fmt: skip
    entry = json.loads(capsys.readouterr().out)
    assert code == 0 and (entry["kind"], entry["operator"], entry["reason"]) == (
        "released",
        "alice",
        "replaced",
    )
    assert _voucher(host_db, numbers[0]) == ("issued", "")
    assert main(["host", "vouchers", "release", numbers[0], "--reason", "again", *db]) == 2
    assert "is issued, not reserved" in capsys.readouterr().err
    assert main(["host", "vouchers", "release", numbers[1], "--reason", "dead", *db]) == 0
    out = capsys.readouterr().out
    assert f"voucher {numbers[1]} released from TK-A by " in out
    operator = os.environ.get("SUDO_USER") or getpass.getuser()
    assert host_db.voucher_audit(numbers[1])[0].operator == operator
    assert main(["host", "vouchers", "audit", *db, "--json"]) == 0
    assert [e["validation_number"] for e in json.loads(capsys.readouterr().out)] == numbers[::-1]
    assert main(["host", "vouchers", "audit", numbers[0], *db]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert "OPERATOR" in line and "released" in line and "by alice: replaced" in line
    host_db.finish_ticket("TK-A", numbers[1], stacked=True, at=now_ms())
    assert main(["host", "vouchers", "audit", "--alarms", *db]) == 0
    assert capsys.readouterr().out == ""
    assert main(["host", "vouchers", "--state", "redeemed", *db]) == 0
    assert numbers[1] in capsys.readouterr().out


# --- through the real link: a terminal that was not dead after all ------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def host_rig(request: pytest.FixtureRequest, tmp_path: Path, pki_set: Pki) -> Iterator[HostRig]:
    dsn = ""
    if request.param == "postgresql":
        dsn = request.getfixturevalue("postgres_server").new_database()

    def factory() -> HostDb:
        return PostgresHostDb(dsn) if dsn else SqliteHostDb(tmp_path / "host.sqlite3")

    rig = HostRig(pki_set, factory)
    yield rig
    rig.stop()


def _printed_voucher(rig: TerminalRig, dollars: int) -> str:
    rt = rig.runtime
    rig.validator.insert(dollars * 100)
    rig.pump_until(lambda: rt.state.credits[0] == dollars * 100)
    rt.cash_out()
    rig.pump_until(lambda: rt.state.phase is not Phase.CASHOUT and rig.outbox_empty())
    printed = [r.event for r in rt.journal.rows() if isinstance(r.event, e.VoucherPrinted)]
    return printed[-1].validation_number


def test_late_reports_through_the_link(
    host_rig: HostRig, pki_set: Pki, make_terminal: Callable[..., TerminalRig]
) -> None:
    db, server = host_rig.db, host_rig.server
    assert db is not None and server is not None
    rig = make_terminal(host_rig.endpoint("TK-A")).start()
    client = rig.wiring.client
    first, second = _printed_voucher(rig, 20), _printed_voucher(rig, 50)
    # TK-A reserves the first voucher, then goes quiet; eleven minutes on, an operator releases it
    assert client.validate_ticket(first).accepted
    with pytest.raises(HostDbError, match="reserved at TK-A 0 s ago"):  # the terminal is busy
        server.release_voucher(first, "alice", "terminal replaced")
    soon = now_ms() + 11 * MINUTE
    assert db.release_voucher(first, "alice", "terminal replaced", soon) == "TK-A"
    # ...but TK-A was not dead: it stacks the voucher and credits the patron
    # the escrow path a voucher takes: the host's answer, then stacked
    rig.runtime.execute(c.InsertTicket(validation_number=first, value=2000))
    rig.runtime.execute(c.TicketStackedReport(validation_number=first))
    client.ticket_stacked(first)  # accepted: the voucher is in TK-A's cash box
    assert _voucher(db, first) == ("redeemed", "TK-A")
    # the second voucher is released too, and meanwhile cashed at TK-B: then TK-A stacks it
    assert client.validate_ticket(second).accepted
    db.release_voucher(second, "alice", "terminal replaced", soon)
    other = HostClient(host_rig.address, pki_set.terminal("TK-B"), "TK-B", timeout=5)
    try:
        assert other.validate_ticket(second).accepted
        other.ticket_stacked(second)
    finally:
        other.close()
    # the escrow path a voucher takes: the host's answer, then stacked
    rig.runtime.execute(c.InsertTicket(validation_number=second, value=5000))
    rig.runtime.execute(c.TicketStackedReport(validation_number=second))
    with pytest.raises(HostUnavailableError, match=r"FAILED_PRECONDITION.*double redemption"):
        client.ticket_stacked(second)
    rig.pump_until(lambda: rig.outbox_empty() and rig.link.connected)  # the journal's reports too
    assert _kinds(db, first) == [
        ("released", "operator", "TK-A"),
        ("late_stacked", "exception", "TK-A"),
    ]
    assert _kinds(db, second) == [
        ("released", "operator", "TK-A"),
        ("double_redemption", "alarm", "TK-A"),
    ]
    assert _voucher(db, second) == ("redeemed", "TK-B")
    problems = disagreements(rig.data_dir, db, "TK-A", rig.runtime.state.lifetime.as_dict())
    assert problems == [f"ticket {second} credited but host has {db.voucher(second)}"]
