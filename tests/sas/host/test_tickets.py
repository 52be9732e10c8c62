"""The host's ticket database: issued, printed, redeemed exactly once, across processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.host.sas.tickets import TicketDb, TicketDbError, TicketState


def _db(path: Path) -> TicketDb:
    clock = iter(range(1_000, 10**9, 7))
    return TicketDb(path, lambda: next(clock))


def test_issue_print_redeem_once(tmp_path: Path) -> None:
    db = _db(tmp_path / "t.sqlite3")
    number = db.issue("A", 2_500, 42)
    assert len(number) == 18 and number.startswith("42")
    assert db.reserve(number, "B").reason == "ticket not printed"
    assert db.printed(number, "A", 2_500).state is TicketState.PRINTED
    verdict = db.reserve(number, "B")
    assert verdict.accepted and verdict.amount_cents == 2_500
    assert db.reserve(number, "B").accepted  # the same insertion asked again
    assert db.reserve(number, "C").reason == "ticket in use at another machine"
    assert db.redeemed(number, "B", 2_500)
    assert not db.redeemed(number, "B", 2_500)  # a second report changes nothing
    assert db.reserve(number, "A").reason == "ticket already redeemed"
    assert [a for _m, a, _c in db.log(number)] == [
        "issued",
        "refused-issued",
        "printed",
        "reserved",
        "refused-pending",
        "redeemed",
        "redeem-report-ignored",
        "refused-redeemed",
    ]


def test_returned_ticket_is_redeemable_again_and_wrong_reports_change_nothing(
    tmp_path: Path,
) -> None:
    db = _db(tmp_path / "t.sqlite3")
    number = db.issue("A", 100, 10)
    db.printed(number, "A", 100)
    assert db.reserve(number, "B").accepted
    assert not db.returned(number, "C")
    assert not db.redeemed(number, "B", 99)  # another amount
    assert db.returned(number, "B")
    assert db.get(number) is not None and db.get(number).state is TicketState.PRINTED  # type: ignore[union-attr]
    assert db.reserve(number, "C").accepted
    assert db.pending_at("C")[0].validation_number == number


def test_conflicting_print_report_and_unknown_ticket(tmp_path: Path) -> None:
    db = _db(tmp_path / "t.sqlite3")
    number = db.issue("A", 100, 10)
    assert db.printed(number, "B", 100).state is TicketState.ISSUED
    assert db.printed(number, "A", 999).state is TicketState.ISSUED
    assert db.reserve("999999999999999999", "A").reason == "unknown ticket"
    assert db.reserve("12", "A").reason == "not a validation number"
    with pytest.raises(ValueError, match="a ticket amount"):
        db.issue("A", 0, 10)


def test_two_processes_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    first, second = _db(path), _db(path)
    number = first.issue("A", 700, 10)
    first.printed(number, "A", 700)
    assert second.reserve(number, "B").accepted
    assert not first.reserve(number, "C").accepted
    assert second.redeemed(number, "B", 700)
    assert first.get(number).state is TicketState.REDEEMED  # type: ignore[union-attr]


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "junk"
    path.write_bytes(b"not sqlite" * 100)
    with pytest.raises(TicketDbError):
        _db(path)
