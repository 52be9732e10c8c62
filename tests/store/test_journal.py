"""The journal's own guarantees: chain, checksums, bounds, atomic commits, durability settings."""

import sqlite3

import pytest

from kiosk.terminal.core import events as e
from kiosk.terminal.store.journal import IntegrityError, Journal, Projections, StoreError


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path, recall_limit=10, log_limit_per_kind=3)
    j.create({"genesis": True}, 0)
    yield j
    j.close()


def test_durability_settings(journal):
    assert journal.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_recall_keeps_the_last_games_and_drops_the_oldest(journal):
    for n in range(1, 16):
        journal.commit(
            [e.PoweredUp(n, software_version="", recovered="")],
            Projections(recall={"game_number": n, "settled_at": n}),
        )
    assert [r["game_number"] for r in journal.recall(last=100)] == list(range(15, 5, -1))


def test_event_log_is_bounded_per_kind(journal):
    for n in range(10):
        journal.commit(
            [
                e.DoorChanged(n, door="main", open=n % 2 == 0),
                e.PoweredUp(n, software_version="", recovered=""),
            ]
        )
    doors = journal.event_log(kinds=["DoorChanged"], last=100)
    assert [row.event.at for row in doors] == [9, 8, 7]
    assert len(journal.event_log(last=100)) == 6


def test_a_failed_commit_writes_nothing(journal):
    journal.commit([e.PoweredUp(1, software_version="", recovered="")])
    journal.db.execute(
        "CREATE TRIGGER boom BEFORE INSERT ON recall BEGIN SELECT RAISE(ABORT, 'x'); END"
    )
    with pytest.raises(StoreError):
        journal.commit(
            [e.PoweredUp(2, software_version="", recovered="")],
            Projections(recall={"game_number": 1}),
        )
    assert journal.head()[0] == 1
    assert journal.verify_chain() == 1


def test_chain_detects_reordered_rows(journal):
    journal.commit(
        [
            e.PoweredUp(1, software_version="", recovered=""),
            e.DoorChanged(2, door="main", open=True),
        ]
    )
    a, b = journal.db.execute("SELECT body FROM journal ORDER BY seq").fetchall()
    journal.db.execute("UPDATE journal SET body = ? WHERE seq = 1", b)
    journal.db.execute("UPDATE journal SET body = ? WHERE seq = 2", a)
    with pytest.raises(IntegrityError, match="row 1"):
        journal.verify_chain()


def test_checksums_detect_a_changed_recall_record(journal):
    journal.commit(
        [e.PoweredUp(1, software_version="", recovered="")],
        Projections(recall={"game_number": 1, "won": 5}),
    )
    journal.db.execute("UPDATE recall SET body = replace(body, '5', '6')")
    with pytest.raises(IntegrityError, match="recall row 1"):
        journal.verify_tables()


def test_readers_see_a_consistent_store_while_the_writer_works(tmp_path, journal):
    journal.commit([e.PoweredUp(1, software_version="", recovered="")])
    reader = Journal(tmp_path, readonly=True)
    try:
        assert reader.head()[0] == 1
        with pytest.raises(sqlite3.OperationalError):
            reader.db.execute("DELETE FROM journal")
    finally:
        reader.close()


def test_reading_a_missing_store_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="no terminal data"):
        Journal(tmp_path / "nowhere", readonly=True)
