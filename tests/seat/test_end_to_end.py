"""End to end: a table controller process and two real seat terminals (processes, real gRPC
over mutual TLS) play a few rounds of each family; both journals reconcile to the cent and the
seats' recall agrees with the controller's card for card."""

from __future__ import annotations

import dataclasses
import json
import re
import signal
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.table.core.journal import TableJournal
from kiosk.table.core.meters import table_meters
from tests.helpers.seat_table import Table, reconcile

ROUNDS = 2
SUMMARY = re.compile(
    r"seat (\d+): credits (\d+) rounds (\d+) voided (\d+) tilts \[\] mismatch False"
)


def play(tables: list[Table], rounds: int) -> None:
    servers = [t.serve() for t in tables]
    seats = [(t, t.seat(n, rounds=rounds, seed=n)) for t in tables for n in range(t.seats)]
    try:
        for _table, seat in seats:
            out, err = seat.communicate(timeout=120 + 10 * rounds)
            assert seat.returncode == 0 and "Traceback" not in err, err
            assert SUMMARY.search(out), out
    finally:
        for _table, seat in seats:
            if seat.poll() is None:  # a seat that failed to finish: not left behind
                seat.kill()
                seat.wait()
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            _, err = server.communicate(timeout=30)
            assert "Traceback" not in err, err


def test_two_seat_terminals_play_both_families_and_reconcile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = [
        # a betting countdown long enough for a seat on a loaded machine to bet in it
        Table(tmp_path / "stadium", "stadium-3cp", betting=0.7),
        Table(tmp_path / "turbo", "turbo-football", mode="seat-shuffles", betting=0.7),
    ]
    play(tables, ROUNDS)
    capsys.readouterr()
    assert main(["table", "--data-dir", str(tables[0].root / "table"), "meters", "--json"]) == 0
    shown = capsys.readouterr()
    journal = TableJournal(tables[0].journal_path, "T1")
    try:
        assert json.loads(shown.out) == json.loads(
            json.dumps(dataclasses.asdict(table_meters(journal.events())))
        )
    finally:
        journal.close()
    for table in tables:
        books = reconcile(table)
        played = books.settled_seat_rounds + books.voided_seat_rounds + books.returned_not_taken
        assert played >= ROUNDS * table.seats and books.settled_seat_rounds >= table.seats, books


@pytest.mark.table_campaign
@pytest.mark.timeout(4 * 3600)  # the campaign, not the default run's 300 s per test
@pytest.mark.parametrize(
    ("edition", "mode"),
    [
        ("stadium-3cp", "one-deck"),
        ("turbo-football", "one-deck"),
        ("turbo-football", "seat-shuffles"),
    ],
)
def test_hundreds_of_rounds_reconcile(edition: str, mode: str, tmp_path: Path) -> None:
    rounds = int(__import__("os").environ.get("TABLE_CAMPAIGN_ROUNDS", "200"))
    table = Table(tmp_path, edition, mode=mode, seats=4, betting=0.3, decision=0.2)
    play([table], rounds)
    books = reconcile(table)
    played = books.settled_seat_rounds + books.voided_seat_rounds + books.returned_not_taken
    assert played >= rounds * table.seats and books.settled_seat_rounds >= rounds, books
    print(f"{edition} {mode}: {books}")
