"""The host's records, on SQLite and on a real PostgreSQL server: the same tests for both."""

from __future__ import annotations

import threading

import pytest

from kiosk.host.accounting.db import HostDb, HostDbError, Message

T0 = 1_800_000_000_000


def _bill(seq: int, index: int = 0, terminal: str = "TK-A") -> Message:
    return Message(
        f"{terminal}:1:{seq}:{index}",
        seq,
        T0 + seq,
        "bill_stacked",
        {"seat": 0, "value_cents": 2000},
    )


def _printed(db: HostDb, terminal: str, value: int, seq: int) -> str:
    number = db.issue_validation_number(terminal, value, T0)
    body = {"validation_number": number, "value_cents": value, "seat": 0}
    db.record(terminal, [Message(f"{terminal}:1:{seq}:0", seq, T0, "voucher_printed", body)], T0)
    return number


def test_hello_registers_and_refreshes(host_db: HostDb) -> None:
    host_db.hello("TK-A", "0.1.0", "ab" * 32, T0)
    host_db.hello("TK-A", "0.1.1", "cd" * 32, T0 + 5)
    (row,) = host_db.terminals()
    assert (row.software_version, row.hellos, row.last_seen_ms) == ("0.1.1", 2, T0 + 5)
    assert row.first_seen_ms == T0 and row.enabled == 1


def test_resent_messages_are_recorded_once(host_db: HostDb) -> None:
    host_db.hello("TK-A", "v", "s", T0)
    batch = [_bill(1), _bill(2), _bill(2, 1)]
    assert host_db.record("TK-A", batch, T0) == (3, 0)
    assert host_db.record("TK-A", [*batch, _bill(3)], T0) == (1, 3)
    events = host_db.events("TK-A", last=100)
    assert sorted(e.message_id for e in events) == sorted(m.message_id for m in [*batch, _bill(3)])
    assert events[0].body == {"seat": 0, "value_cents": 2000}


def test_meter_snapshots_newest_by_journal_order(host_db: HostDb) -> None:
    host_db.hello("TK-A", "v", "s", T0)
    snaps = [
        Message("TK-A:1:9:1", 9, T0, "meters", {"reason": "event", "meters": {"coin_in": 900}}),
        Message("TK-A:1:4:0", 4, T0, "meters", {"reason": "event", "meters": {"coin_in": 400}}),
    ]
    assert host_db.record("TK-A", snaps, T0) == (2, 0)
    assert host_db.latest_meters("TK-A") == {"coin_in": 900}
    assert [s.journal_seq for s in host_db.meter_history("TK-A")] == [9, 4]


def test_voucher_life_cycle(host_db: HostDb) -> None:
    number = host_db.issue_validation_number("TK-A", 1500, T0)
    assert len(number) == 18 and number.isdigit()
    assert host_db.validate_ticket("TK-B", number, T0).reason == "not yet confirmed printed"
    body = {"validation_number": number, "value_cents": 1500, "seat": 0}
    host_db.record("TK-A", [Message("TK-A:1:5:0", 5, T0, "voucher_printed", body)], T0)
    answer = host_db.validate_ticket("TK-B", number, T0)
    assert (answer.accepted, answer.value) == (True, 1500)
    assert host_db.validate_ticket("TK-C", number, T0).reason == "in use at another terminal"
    assert host_db.validate_ticket("TK-B", number, T0).accepted  # re-inserted after a power cut
    host_db.finish_ticket("TK-B", number, stacked=False, at=T0)
    assert host_db.voucher(number).state == "issued"  # type: ignore[union-attr]
    assert host_db.validate_ticket("TK-C", number, T0).accepted
    host_db.finish_ticket("TK-C", number, stacked=True, at=T0)
    host_db.finish_ticket("TK-C", number, stacked=True, at=T0)  # a repeated call is harmless
    record = host_db.voucher(number)
    assert record is not None and (record.state, record.holder) == ("redeemed", "TK-C")
    assert host_db.validate_ticket("TK-B", number, T0).reason == "already redeemed"
    with pytest.raises(HostDbError, match="not reserved at TK-B"):
        host_db.finish_ticket("TK-B", number, stacked=True, at=T0)


def test_voided_unknown_and_expired_vouchers(host_db: HostDb) -> None:
    number = host_db.issue_validation_number("TK-A", 700, T0)
    body = {"validation_number": number, "value_cents": 700, "seat": 0}
    host_db.record("TK-A", [Message("TK-A:1:5:0", 5, T0, "voucher_voided", body)], T0)
    assert host_db.validate_ticket("TK-B", number, T0).reason == "voided"
    assert host_db.validate_ticket("TK-B", "123456789012345678", T0).reason == "unknown voucher"
    old = _printed(host_db, "TK-A", 900, 6)
    later = T0 + host_db.voucher_expiry_ms + 1
    assert host_db.validate_ticket("TK-B", old, later).reason == "expired"
    with pytest.raises(HostDbError):
        host_db.issue_validation_number("TK-A", 0, T0)


def test_redeemed_event_completes_a_redemption_whose_stacked_call_was_lost(
    host_db: HostDb,
) -> None:
    number = _printed(host_db, "TK-A", 2500, 3)
    assert host_db.validate_ticket("TK-B", number, T0).accepted
    body = {"validation_number": number, "value_cents": 2500, "seat": 0}
    host_db.record("TK-B", [Message("TK-B:1:8:0", 8, T0, "voucher_redeemed", body)], T0)
    record = host_db.voucher(number)
    assert record is not None and (record.state, record.holder) == ("redeemed", "TK-B")


def test_two_terminals_racing_for_one_voucher_redeem_it_once(host_db: HostDb) -> None:
    numbers = [_printed(host_db, "TK-A", 1000 + i, 10 + i) for i in range(20)]
    terminals = [f"TK-R{i}" for i in range(4)]
    wins: dict[str, list[str]] = {n: [] for n in numbers}
    lock = threading.Lock()
    for number in numbers:
        barrier = threading.Barrier(len(terminals))

        def race(terminal: str, number: str = number, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            if host_db.validate_ticket(terminal, number, T0).accepted:
                host_db.finish_ticket(terminal, number, stacked=True, at=T0)
                with lock:
                    wins[number].append(terminal)

        threads = [threading.Thread(target=race, args=(t,)) for t in terminals]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert all(len(w) == 1 for w in wins.values()), wins
    for number, (winner,) in wins.items():
        record = host_db.voucher(number)
        assert record is not None and (record.state, record.holder) == ("redeemed", winner)


def test_commands_queue(host_db: HostDb) -> None:
    first = host_db.queue_command("TK-A", "set_enabled", {"enabled": False}, T0)
    second = host_db.queue_command("TK-B", "request_meters", {}, T0)
    assert [c[0] for c in host_db.pending_commands()] == [first, second]
    host_db.command_state(first, "sent", "", T0)
    assert [c[0] for c in host_db.pending_commands()] == [second]
    host_db.command_state(first, "done", "ok", T0 + 1)
    record = host_db.command(first)
    assert record is not None and (record.state, record.result) == ("done", "ok")


def test_enable_events_update_the_terminal(host_db: HostDb) -> None:
    host_db.hello("TK-A", "v", "s", T0)
    off = Message("TK-A:1:2:0", 2, T0, "enable", {"enabled": False, "reason": "host link lost"})
    host_db.record("TK-A", [off], T0)
    (row,) = host_db.terminals()
    assert (row.enabled, row.disable_reason, row.events) == (0, "host link lost", 1)
