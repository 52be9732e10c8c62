"""A terminal's last contact, where a group's ordinary reports note it in the anchor
(decision 0076): every reader sees the later of ``terminals.last_seen_ms`` and the anchor's
``acked_ms``, on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.host.accounting.db import HostDb, HostDbError, Message, PostgresHostDb, SqliteHostDb
from kiosk.host.accounting.reports import Report
from kiosk.host.web.floor import Floor
from kiosk.host.web.sql import Connection
from kiosk.terminal.hostlink.anchor import JournalHead

T0 = 1_800_000_000_000
MINUTE = 60_000


@pytest.fixture(params=["sqlite", "postgresql"])
def records(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[HostDb, str]]:
    """The host's records and the target a reader opens them by."""
    if request.param == "sqlite":
        target = str(tmp_path / "host.sqlite3")
        db: HostDb = SqliteHostDb(Path(target))
    else:
        target = request.getfixturevalue("postgres_server").new_database()
        db = PostgresHostDb(target)
    yield db, target
    db.close()


def _game(terminal: str, seq: int, at: int) -> Report:
    body = {"game_number": seq, "edition": "turbo-football", "seats": []}
    message = Message(f"{terminal}:1:{seq}:0", seq, at, "game_played", body)
    return Report(terminal, [message], at, JournalHead(1, seq, bytes([seq]) * 32))


def _raw_last_seen(db: HostDb, terminal: str) -> int:
    with db.transaction() as tx:
        row = tx.execute(
            "SELECT last_seen_ms FROM terminals WHERE terminal_id = ?", (terminal,)
        ).fetchone()
    return int(row[0])


def test_a_group_s_report_is_contact_through_its_anchor(records: tuple[HostDb, str]) -> None:
    db, target = records
    db.hello("TK-A", "v", "s", T0)
    db.hello("TK-B", "v", "s", T0)
    results = db.record_reports([_game("TK-A", 1, T0 + 8 * MINUTE)])
    assert results[0].accepted == 1
    assert _raw_last_seen(db, "TK-A") == T0  # the set-wise path wrote only the anchor
    seen = {t.terminal_id: t.last_seen_ms for t in db.terminals()}
    assert seen == {"TK-A": T0 + 8 * MINUTE, "TK-B": T0}
    floor = Floor(Connection(target, read_only=True), offline_after_seconds=5 * 60)
    at = T0 + 10 * MINUTE
    assert {s.terminal_id: s.online for s in floor.terminals(at)} == {"TK-A": True, "TK-B": False}
    assert [a.terminal_id for a in floor.communication_loss(at)] == ["TK-B"]
    # a contact written later by the hello is the later one again
    db.hello("TK-A", "v", "s", T0 + 9 * MINUTE)
    assert {t.terminal_id: t.last_seen_ms for t in db.terminals()}["TK-A"] == T0 + 9 * MINUTE


def test_a_release_waits_for_quiet_after_a_group_s_report(records: tuple[HostDb, str]) -> None:
    db, _ = records
    db.hello("TK-A", "v", "s", T0)
    number = db.issue_validation_number("TK-P", 2500, T0)
    body = {"validation_number": number, "value_cents": 2500, "seat": 0}
    db.record("TK-P", [Message("TK-P:1:1:0", 1, T0, "voucher_printed", body)], T0)
    assert db.validate_ticket("TK-A", number, T0).accepted
    db.record_reports([_game("TK-A", 1, T0 + 8 * MINUTE)])  # alive, after the reservation
    with pytest.raises(HostDbError, match="TK-A was in contact 3 min 0 s ago"):
        db.release_voucher(number, "alice", "dead terminal", T0 + 11 * MINUTE)
    voucher = db.voucher(number)
    assert voucher is not None and voucher.state == "reserved"
    assert db.release_voucher(number, "alice", "dead terminal", T0 + 19 * MINUTE) == "TK-A"
