"""PostgreSQL transactions of the host (:meth:`PostgresHostDb.transaction`): ``BEGIN`` goes with
the first statement (one round trip), ``COMMIT`` at the end; anything raised inside rolls all of
it back, including the first statement's effect, and leaves the connection usable; a transaction
inside another on one thread is refused, not silently committed early."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from kiosk.host.accounting.db import HostDbError, PostgresHostDb


@pytest.fixture
def pg_db(postgres_server: Any) -> Iterator[PostgresHostDb]:
    db = PostgresHostDb(postgres_server.new_database())
    with db.transaction() as tx:
        tx.execute("CREATE TABLE probe (k TEXT PRIMARY KEY)")
    yield db
    db.close()


def _keys(db: PostgresHostDb) -> list[str]:
    with db.transaction() as tx:
        return [row[0] for row in tx.execute("SELECT k FROM probe ORDER BY k").fetchall()]


def _insert(tx: Any, key: str) -> None:
    tx.execute("INSERT INTO probe VALUES (?)", (key,))


def _twice(db: PostgresHostDb, key: str) -> None:
    with db.transaction() as tx:
        _insert(tx, key)
        _insert(tx, key)


def _missing_table(db: PostgresHostDb) -> None:
    with db.transaction() as tx:
        tx.execute("SELECT * FROM no_such_table")


def _changed_mind(db: PostgresHostDb, key: str) -> None:
    with db.transaction() as tx:
        _insert(tx, key)
        raise RuntimeError("the caller changed its mind")


def _nested(db: PostgresHostDb, key: str) -> None:
    with db.transaction() as outer:
        _insert(outer, key)
        with db.transaction() as inner:
            _insert(inner, key + "-inner")


def test_the_first_statement_is_inside_the_transaction(pg_db: PostgresHostDb) -> None:
    """An error after the first statement undoes the first statement's insert too."""
    with pytest.raises(psycopg.errors.UniqueViolation):
        _twice(pg_db, "T1")
    assert _keys(pg_db) == []
    with pg_db.transaction() as tx:  # the connection is usable after the rollback
        _insert(tx, "T2")
    assert _keys(pg_db) == ["T2"]


def test_a_failing_first_statement_rolls_back_and_leaves_the_connection_usable(
    pg_db: PostgresHostDb,
) -> None:
    with pytest.raises(psycopg.errors.UndefinedTable):
        _missing_table(pg_db)
    with pg_db.transaction() as tx:
        _insert(tx, "T3")
    assert _keys(pg_db) == ["T3"]


def test_an_exception_of_the_caller_rolls_back(pg_db: PostgresHostDb) -> None:
    with pytest.raises(RuntimeError, match="changed its mind"):
        _changed_mind(pg_db, "T4")
    assert _keys(pg_db) == []


def test_a_transaction_inside_another_is_refused(pg_db: PostgresHostDb) -> None:
    with pytest.raises(HostDbError, match="inside another"):
        _nested(pg_db, "T5")
    assert _keys(pg_db) == []  # the outer one rolled back, nothing committed early


def test_a_transaction_without_statements_sends_nothing(pg_db: PostgresHostDb) -> None:
    with pg_db.transaction() as tx:
        assert not tx.begun
    with pg_db.transaction() as tx:
        _insert(tx, "T6")
        assert tx.begun
    assert _keys(pg_db) == ["T6"]
