"""`turbokiosk run --table`: the options of a seat, checked before any window opens; a table
whose game this terminal does not offer is one line, not a traceback."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from kiosk.app.seated import SeatingError, TableSeat, sit
from kiosk.app.tour import tour_terminal
from kiosk.cli import run as cli_run
from kiosk.hostlink import pki
from kiosk.terminal.config import EditionConfig, TerminalConfig


def parse(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli_run.add_arguments(parser)
    return parser.parse_args(list(words))


def test_a_seat_needs_its_table_its_game_and_its_certificate(tmp_path: Path) -> None:
    assert cli_run.table_seat(parse()) is None
    pki.ensure_pki(tmp_path, ("seat-2",))
    seat = cli_run.table_seat(
        parse(
            *["--table", "127.0.0.1:50071", "--seat", "2", "--table-pki", str(tmp_path)],
            "--edition",
            "stadium-3cp",
        )
    )
    assert seat == TableSeat("127.0.0.1:50071", "T1", 2, tmp_path, "stadium-3cp")
    refusals = {
        ("--table", "127.0.0.1:50071"): "needs --edition",
        ("--edition", "stadium-3cp"): "goes with --table",
        ("--table", "nowhere", "--edition", "stadium-3cp"): "--table: 'nowhere'",
        ("--table", "127.0.0.1:1", "--table-id", "no such id!", "--edition", "x"): "--table",
        (
            "--table",
            "127.0.0.1:1",
            "--seat",
            "3",
            "--table-pki",
            str(tmp_path),
            "--edition",
            "x",
        ): "--table-pki",
    }
    for words, message in refusals.items():
        with pytest.raises(ValueError, match=message):
            cli_run.table_seat(parse(*words))


def test_a_table_whose_game_is_not_offered_here_is_refused(tmp_path: Path) -> None:
    pki.ensure_pki(tmp_path / "pki", ("seat-0",))
    tour = tour_terminal(
        tmp_path / "t", TerminalConfig(editions=(EditionConfig("turbo-football"),))
    )
    try:
        where = TableSeat("127.0.0.1:1", "T1", 0, tmp_path / "pki", "stadium-3cp")
        with pytest.raises(SeatingError, match="the table's game stadium-3cp"):
            sit(tour.terminal.runtime, where)
        assert tour.terminal.runtime.state.selected_edition == "turbo-football"
    finally:
        tour.terminal.runtime.close()
