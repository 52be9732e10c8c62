"""Issue 26 item 2: at a table a wager is what lies on the felt when bets close.  The seat has
no DEAL: the chips placed while bets are open are committed in the terminal's journal and then
reported as the betting window closes (real controller, real gRPC with mutual TLS, the
terminal's SQLite journal)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.table.core.server import TableServer
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.state import Phase
from kiosk.terminal.seat.status import Connection
from tests.helpers.seat_faults import pki_dir, place, seat_on, table, until

__all__ = ["pki_dir", "table"]  # the fixtures (tests/helpers/seat_faults.py), used by name


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = build_terminal(tmp_path / "seat" / "data")
    term.runtime.power_up()
    term.runtime.execute(c.SelectEdition("stadium-3cp"))
    term.simulated.validator.insert(10_000)
    for _ in range(3):
        term.runtime.pump()
    yield term
    term.close()


def test_chips_on_the_felt_play_when_bets_close_without_deal(
    table: Callable[..., TableServer], terminal: Terminal, pki_dir: Path
) -> None:
    server = table()
    seat = seat_on(terminal, server, pki_dir)
    rt = terminal.runtime
    try:
        until(seat, lambda: seat.status().connection is Connection.SEATED)
        server.open_round()
        until(seat, lambda: seat.status().bets_open)
        place(terminal)  # chips on the felt; nobody touches DEAL
        until(seat, lambda: rt.state.phase is not Phase.WAGERING)
        rnd = rt.state.round
        assert rnd is not None and rnd.table_game == 1
        assert dict(rnd.bets[0].bet.wagers) == {"ante": 100, "pairs_plus": 100}
        assert rt.state.credits[0] == 10_000 - 200  # journaled on the terminal first
        until(seat, lambda: rt.state.phase is Phase.DECISION)  # the table took the seat
        table_round = server.controller.state.round
        assert table_round is not None and 1 in table_round.bets
    finally:
        seat.close()


def test_chips_that_make_no_wager_stay_on_the_felt_and_say_why(
    table: Callable[..., TableServer], terminal: Terminal, pki_dir: Path
) -> None:
    server = table()
    seat = seat_on(terminal, server, pki_dir)
    rt = terminal.runtime
    try:
        until(seat, lambda: seat.status().connection is Connection.SEATED)
        server.open_round()
        until(seat, lambda: seat.status().bets_open)
        rt.execute(c.PlaceWager(spot="ante", amount=100))  # no positions chosen
        until(seat, lambda: bool(seat.unplayed))
        assert rt.state.pending_wagers == {0: {"ante": 100}}  # still on the felt
        assert rt.state.credits[0] == 10_000  # nothing committed
    finally:
        seat.close()
