"""Group commit: many terminals' reports in one transaction, each answered once it committed."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from kiosk.host.accounting.db import HostDb, Message, Report
from kiosk.host.accounting.group_commit import GroupCommitter
from kiosk.terminal.hostlink.anchor import JournalHead


def _report(terminal: str, first: int, n: int) -> Report:
    messages = [
        Message(f"{terminal}:1:{seq}:0", seq, 1_000 + seq, "bill_stacked", {"value_cents": 500})
        for seq in range(first, first + n)
    ]
    head = JournalHead(epoch=1, seq=first + n - 1, hash=b"\xab" * 32)
    return Report(terminal, messages, 5_000, head)


def test_one_transaction_records_many_terminals_and_each_resend_once(host_db: HostDb) -> None:
    reports = [_report(f"TK-{i}", 1, 3) for i in range(20)]
    reports.append(_report("TK-3", 1, 3))  # a resend in the same group: duplicates
    results = host_db.record_reports(reports)
    assert [(r.accepted, r.duplicates) for r in results[:20]] == [(3, 0)] * 20
    assert (results[20].accepted, results[20].duplicates) == (0, 3)
    assert all(r.acknowledged is not None and r.acknowledged.seq == 3 for r in results)
    assert len(host_db.events(last=1_000)) == 60


def test_a_failing_report_fails_alone_and_the_rest_of_its_group_is_recorded(
    host_db: HostDb,
) -> None:
    committer = GroupCommitter(host_db, writers=1)
    gate = threading.Lock()
    gate.acquire()
    real = host_db.record_reports
    calls: list[int] = []
    inside = threading.Event()

    def held(reports: list[Report]) -> object:  # the first group waits until all are queued
        calls.append(len(reports))
        if len(calls) == 1:
            inside.set()
            gate.acquire()
        return real(reports)

    host_db.record_reports = held  # type: ignore[method-assign, assignment]
    committer.start()
    try:
        first = committer.submit(_report("TK-0", 1, 1))
        assert inside.wait(10)
        bad = Report("TK-BAD", [Message("TK-BAD:1:1:0", 1, 1, "voucher_printed", {})], 5_000)
        queued = [committer.submit(_report(f"TK-{i}", 1, 2)) for i in range(1, 6)]
        failing = committer.submit(bad)  # no validation number: the voucher CHECK refuses it
        gate.release()
        assert first.result(10).accepted == 1
        assert [f.result(10).accepted for f in queued] == [2] * 5
        with pytest.raises(Exception, match=r"(?i)check constraint"):  # either back end
            failing.result(10)
    finally:
        committer.stop()
    assert calls[:2] == [1, 6]  # the five good reports and the bad one were one group...
    assert len(host_db.events(last=1_000)) == 11  # ...and the good ones were recorded after all
    assert committer.stats().reports == 6


FORBIDDEN = (
    "UPDATE vouchers SET state = 'issued' WHERE validation_number = '{n}'",  # out of redeemed
    "UPDATE vouchers SET state = 'pending' WHERE validation_number = '{n}'",
    "UPDATE vouchers SET holder = 'TK-OTHER' WHERE validation_number = '{n}'",
    "UPDATE events SET body = '{{}}'",
    "DELETE FROM events",
    "DELETE FROM voucher_audit",
)


def test_the_database_itself_refuses_what_the_rules_forbid(host_db: HostDb) -> None:
    number = host_db.issue_validation_number("TK-1", 500, 1_000)
    printed = {"validation_number": number, "value_cents": 500}
    unknown = {"validation_number": "9" * 18, "value_cents": 100}  # quarantined, audited
    host_db.record_report(
        "TK-1",
        [
            Message("TK-1:1:1:0", 1, 1, "voucher_printed", printed),
            Message("TK-1:1:2:0", 2, 2, "voucher_printed", unknown),
        ],
        2_000,
    )
    assert host_db.validate_ticket("TK-1", number, 3_000).accepted
    host_db.finish_ticket("TK-1", number, True, 4_000)
    for sql in FORBIDDEN:
        refused = pytest.raises(Exception, match=r"refused by the database|append-only")
        with refused, host_db.transaction() as tx:
            tx.execute(sql.format(n=number))
    record = host_db.voucher(number)
    assert record is not None and record.state == "redeemed"
    assert len(host_db.events(last=10)) == 2
    assert len(host_db.voucher_audit()) == 1


def test_coroutines_get_their_answers_once_committed_and_a_cancelled_report_is_dropped(
    host_db: HostDb,
) -> None:
    committer = GroupCommitter(host_db, writers=1)

    async def play() -> list[int]:
        futures = [committer.submit_async(_report(f"TK-{i}", 1, 2)) for i in range(4)]
        futures[2].cancel()  # its call's deadline passed before a writer took it
        committer.start()
        kept = [f for i, f in enumerate(futures) if i != 2]
        return [(await f).accepted for f in kept]

    try:
        assert asyncio.run(play()) == [2, 2, 2]
    finally:
        committer.stop()
    assert {e.terminal_id for e in host_db.events(last=100)} == {"TK-0", "TK-1", "TK-3"}
    assert committer.stats().groups == 1


def _recorded_groups(host_db: HostDb) -> list[int]:
    """Wrap ``record_reports`` so each group's size is kept (in commit order)."""
    real = host_db.record_reports
    sizes: list[int] = []

    def counted(reports: list[Report]) -> object:
        sizes.append(len(reports))
        return real(reports)

    host_db.record_reports = counted  # type: ignore[method-assign, assignment]
    return sizes


def test_a_gathering_window_holds_a_group_until_it_passed_then_commits_all_queued(
    host_db: HostDb,
) -> None:
    sizes = _recorded_groups(host_db)
    committer = GroupCommitter(host_db, gather_ms=400).start()
    try:
        first = committer.submit(_report("TK-0", 1, 1))
        assert first.result(10).accepted == 1  # the first group opens at once
        opened = time.monotonic()
        later = [committer.submit(_report(f"TK-{i}", 1, 1)) for i in range(1, 6)]
        assert all(f.result(10).accepted == 1 for f in later)
        waited = time.monotonic() - opened
    finally:
        committer.stop()
    assert sizes == [1, 5]  # the five queued during the window: one group, not five
    assert 0.2 < waited < 5


def test_a_full_group_and_a_stop_do_not_wait_for_the_window(host_db: HostDb) -> None:
    sizes = _recorded_groups(host_db)
    committer = GroupCommitter(host_db, gather_ms=60_000, max_reports=4).start()
    first = committer.submit(_report("TK-0", 1, 1))
    assert first.result(10).accepted == 1
    full = [committer.submit(_report(f"TK-{i}", 1, 1)) for i in range(1, 5)]
    assert all(f.result(10).accepted == 1 for f in full)  # four: a full group goes at once
    rest = committer.submit(_report("TK-9", 1, 1))
    started = time.monotonic()
    committer.stop()  # what is queued is recorded now, not after the minute
    assert rest.result(0).accepted == 1
    assert time.monotonic() - started < 10
    assert sizes == [1, 4, 1]


def test_a_negative_window_is_refused(host_db: HostDb) -> None:
    with pytest.raises(ValueError, match="at least 0"):
        GroupCommitter(host_db, gather_ms=-1)
