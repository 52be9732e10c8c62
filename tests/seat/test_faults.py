"""The seat's fault rules on a real controller (real gRPC, mutual TLS on loopback) and a real
terminal (its SQLite journal): a seat that drops mid-round settles from the controller's result
before it takes a new bet; a voided round comes back, journaled; a result that differs from the
controller's tilts; a lost controller disables new bets and says why."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.table.core import commands as tc
from kiosk.table.core.server import TableServer
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.state import Phase
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.seat.runtime import SeatNotReadyError, SeatRuntime
from kiosk.terminal.seat.status import Connection
from tests.helpers.seat_faults import ARRAY, pki_dir, place, seat_on, table, until

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


def seated_at_an_open_round(term: Terminal, server: TableServer, pki_dir: Path) -> SeatRuntime:
    """``term`` seated at ``server``, with a round open for bets."""
    seat = seat_on(term, server, pki_dir)
    until(seat, lambda: seat.status().connection is Connection.SEATED)
    server.open_round()
    until(seat, lambda: seat.status().bets_open)
    return seat


def test_a_seat_that_drops_mid_round_settles_from_the_controller_before_a_new_bet(
    table: Callable[..., TableServer], terminal: Terminal, pki_dir: Path
) -> None:
    server = table()
    seat = seated_at_an_open_round(terminal, server, pki_dir)
    place(terminal)
    seat.bet()
    rt = terminal.runtime
    assert rt.state.credits[0] == 10_000 - 200  # committed on the terminal before the report
    until(seat, lambda: rt.state.phase is Phase.DECISION)  # cards from the controller
    assert rt.state.round is not None and rt.state.round.first == list(ARRAY)
    seat.close()  # the seat drops before it decides
    end = time.monotonic() + 5
    while server.controller.state.round is not None and time.monotonic() < end:
        if server.controller.state.phase.value == "settled":
            server.close_round()
        time.sleep(0.01)
    server.open_round()  # the table plays on
    record = server.controller.recall(1)
    assert record is not None and record.outcomes[0].choice == "fold"  # the default
    back = seat_on(terminal, server, pki_dir)
    until(back, lambda: rt.state.phase is Phase.RESULT)
    rnd = rt.state.round
    assert rnd is not None and rnd.table_game == 1 and rnd.choices == {0: "fold"}
    assert rnd.settlement[0].paid == record.outcomes[0].paid == 500  # the flush pays 4 to 1
    assert rt.state.credits[0] == 10_000 - 200 + 500
    if server.controller.state.round is None:  # game 2 closed unplayed while it was away
        server.open_round()
    until(back, lambda: back.status().bets_open)
    place(terminal)
    back.bet()  # settled first, now it bets again
    assert rt.state.round is not None and rt.state.round.table_game >= 2
    back.close()


def test_a_voided_round_returns_the_seats_wagers_journaled(
    table: Callable[..., TableServer], terminal: Terminal, pki_dir: Path
) -> None:
    server = table()
    seat = seated_at_an_open_round(terminal, server, pki_dir)
    place(terminal)
    seat.bet()
    until(
        seat,
        lambda: (
            server.controller.state.round is not None and bool(server.controller.state.round.bets)
        ),
    )
    server.execute(tc.VoidRound("the dealer voided the round"))
    rt = terminal.runtime
    until(seat, lambda: rt.state.phase is Phase.RESULT)
    assert rt.state.round is not None and rt.state.round.voided == "the dealer voided the round"
    assert rt.state.credits[0] == 10_000
    assert rt.meters["voided_returns"] == 200 and rt.meters["games_voided"] == 1
    assert rt.core.audit_credits() is None
    seat.close()


def test_a_result_that_differs_from_the_controllers_tilts_the_seat(
    table: Callable[..., TableServer], terminal: Terminal, pki_dir: Path
) -> None:
    server = table(paytables=(("pairs_plus", "1-3-6-30-40"),))  # not the terminal's
    seat = seated_at_an_open_round(terminal, server, pki_dir)
    place(terminal)
    seat.bet()
    rt = terminal.runtime
    until(seat, lambda: TiltCode.TABLE_RESULT_MISMATCH in rt.state.tilts, seconds=8)
    assert rt.state.credits[0] == 10_000 - 200 + 500  # the terminal keeps its own figure
    assert "the controller [('ante', 100, 0), ('pairs_plus', 100, 400)]" in str(
        rt.state.tilts[TiltCode.TABLE_RESULT_MISMATCH].reason
    )
    seat.close()


def test_a_seat_that_loses_the_controller_disables_new_bets_and_says_why(
    table: Callable[..., TableServer], terminal: Terminal, pki_dir: Path
) -> None:
    server = table()
    seat = seated_at_an_open_round(terminal, server, pki_dir)
    server.stop(0)
    until(seat, lambda: seat.status().connection is not Connection.SEATED)
    until(seat, lambda: seat.status().connection is Connection.LOST)
    place(terminal)
    with pytest.raises(SeatNotReadyError, match="new bets are disabled: the table controller"):
        seat.bet()
    assert terminal.runtime.state.credits[0] == 10_000 and terminal.runtime.state.round is None
    seat.close()


def test_the_players_screen_session_bets_and_decides_through_the_seat(
    table: Callable[..., TableServer], terminal: Terminal, pki_dir: Path
) -> None:
    from kiosk.terminal.presentation.session import PlayerSession

    server = table()
    seat = seat_on(terminal, server, pki_dir)
    session = PlayerSession(terminal.runtime)
    session.seat = seat
    until(seat, lambda: seat.status().connection is Connection.SEATED)
    place(terminal)
    assert not session.deal()  # no round open: refused with a notice, nothing committed
    assert terminal.runtime.state.round is None
    server.open_round()
    until(seat, lambda: seat.status().bets_open)
    rt = terminal.runtime
    # the text UI's DEAL still commits; the seat also commits the felt itself as the (here
    # 0.4 s) window closes, and may already have (decision 0054)
    assert session.deal() or (rt.state.round is not None and rt.state.round.table_game == 1)
    until(seat, lambda: rt.state.phase is Phase.DECISION)
    assert session.decide(take=True)
    assert rt.state.phase is Phase.DECISION  # reported; journaled when the table has it
    until(seat, lambda: rt.state.phase is Phase.RESULT)
    record = server.controller.state.round
    assert record is not None and record.decisions == {1: "play"}
    assert rt.state.round is not None and rt.state.round.choices == {0: "play"}
    seat.close()
