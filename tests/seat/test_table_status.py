"""The table's status record for the screen: the countdown on the seat's monotonic clock."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.terminal.presentation.table_status import table_status
from kiosk.terminal.seat.status import Connection, SeatStatus, TablePhase
from kiosk.terminal.textui.table_lines import table_line


@dataclass
class _Seat:
    seat_status: SeatStatus

    def status(self) -> SeatStatus:
        return self.seat_status


def test_the_countdown_runs_on_the_seats_monotonic_clock_from_the_controllers_figure() -> None:
    status = SeatStatus(
        "T1",
        3,
        Connection.SEATED,
        phase=TablePhase.BETTING,
        game_number=7,
        deadline_ms=1_000_000_015_000,  # the controller's epoch clock: never compared with ours
        remaining_ms=15_000,
        received_at_ms=500,
        dealer_step="New Game",
        seats_in=4,
    )
    shown = table_status(_Seat(status), monotonic_ms=4_500)
    assert (shown.remaining_ms, shown.phase, shown.seats_in, shown.game_number) == (
        11_000,
        "betting",
        4,
        7,
    )
    assert shown.bets_open and not shown.link_lost
    assert table_status(_Seat(status), monotonic_ms=99_000).remaining_ms == 0


def test_a_lost_link_disables_bets_and_says_why() -> None:
    status = SeatStatus(
        "T1", 0, Connection.LOST, "the table controller does not answer", TablePhase.BETTING
    )
    shown = table_status(_Seat(status), monotonic_ms=0)
    assert shown.link_lost and not shown.bets_open
    assert shown.reason == "the table controller does not answer"
    assert shown.deadline_ms == 0 or shown.remaining_ms >= 0


def test_a_paused_table_holds_the_time_left_in_the_text_line() -> None:
    status = SeatStatus(
        "T1", 3, Connection.SEATED, phase=TablePhase.BETTING, game_number=7,
        deadline_ms=1_000_000_015_000, remaining_ms=9_000, received_at_ms=500,
        dealer_step="New Game", paused=True, pause_reason="cards changed",
    )  # fmt: skip
    shown = table_status(_Seat(status), monotonic_ms=60_000)
    assert (shown.remaining_ms, shown.paused, shown.bets_open) == (9_000, True, False)
    assert table_line(shown) == (
        "Table T1 seat 3 game 7: betting (paused: cards changed); 9.0 s left; dealer: New Game"
    )
