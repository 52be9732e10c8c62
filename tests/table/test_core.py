"""The table core's phase rules, one by one (sans-IO: no journal, no clock)."""

from __future__ import annotations

import pytest

from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.registry import load_game
from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.core import COMMAND_PHASES, DealMode, Phase, TableConfigError, TableCore
from tests.helpers.table import STADIUM, TURBO, config, stadium_bet, turbo_bet

ARRAY = (0, 1, 2, 3, 4, 5, 6, 7, 8)
DEALER = (20, 21, 22)


def step(core: TableCore, cmd: c.Command, now: int = 0) -> list[e.Event]:
    events = core.handle(cmd, now)
    core.apply(events)
    return events


def betting(core: TableCore, seats: int = 2) -> None:
    for seat in range(seats):
        step(core, c.Join(seat))
    step(core, c.OpenRound())


def wager(core: TableCore, seat: int, bet: e.Bet, game: int = 1) -> list[e.Event]:
    return step(core, c.ReportWager("T1", game, seat, bet), 10)


def test_a_round_runs_through_every_phase() -> None:
    core = TableCore(config())
    betting(core)
    assert core.state.phase is Phase.BETTING
    wager(core, 0, stadium_bet())
    wager(core, 1, stadium_bet(positions=(1, 2, 3)))
    assert step(core, c.Tick(), 999) == []
    (closed,) = step(core, c.Tick(), 1000)
    assert closed == e.BetsClosed(1000, 1, (0, 1))
    assert core.draws_needed()[0].count == 9
    step(core, c.CardsDrawn((ARRAY,)), 1000)
    assert core.state.phase is Phase.DECIDING
    step(core, c.ReportDecision("T1", 1, 0, "play"), 1500)
    assert core.state.phase is Phase.DECIDING
    (shut,) = step(core, c.Tick(), 2000)
    assert shut == e.DecisionsClosed(2000, 1, ((1, "fold"),))
    assert [p.count for p in core.draws_needed()] == [3]
    events = step(core, c.CardsDrawn((DEALER,)), 2000)
    assert core.state.phase is Phase.SETTLED
    settled = events[-1]
    assert isinstance(settled, e.RoundSettled)
    game = load_game(STADIUM)
    for outcome, (positions, choice) in zip(
        settled.outcomes, [((0, 4, 8), "play"), ((1, 2, 3), "fold")], strict=True
    ):
        pure = game.settle(SeatBet({"ante": 100}, positions), ARRAY, choice, (), DEALER)
        assert outcome.paid == pure.total_paid and outcome.stake == pure.total_stake
    step(core, c.CloseRound(), 3000)
    assert core.state.phase is Phase.IDLE and core.state.round is None
    assert core.state.meters.rounds_played == 1 and core.state.meters.seat_rounds == 2
    assert core.state.recall[0].game_number == 1


def test_every_command_outside_its_phases_is_refused_and_changes_nothing() -> None:
    core = TableCore(config())
    commands: list[c.Command] = [
        c.OpenRound(),
        c.CardsDrawn((ARRAY,)),
        c.CloseRound(),
        c.VoidRound("x"),
    ]
    for cmd in commands:
        if Phase.IDLE not in COMMAND_PHASES[type(cmd)]:
            before = repr(core.state)
            with pytest.raises(c.IllegalCommandError):
                core.handle(cmd, 0)
            assert repr(core.state) == before


def test_a_wager_retry_is_a_duplicate_and_a_different_one_a_mismatch() -> None:
    core = TableCore(config())
    betting(core)
    wager(core, 0, stadium_bet())
    with pytest.raises(c.DuplicateReportError):
        wager(core, 0, stadium_bet())
    with pytest.raises(c.ReportMismatchError):
        wager(core, 0, stadium_bet(ante=200))
    step(core, c.Tick(), 1000)
    with pytest.raises(c.DuplicateReportError):  # a retry after bets closed: still in, once
        wager(core, 0, stadium_bet())
    with pytest.raises(c.StaleReportError):
        wager(core, 0, stadium_bet(), game=2)
    with pytest.raises(c.InvalidArgumentError):
        core.handle(c.ReportWager("T2", 1, 0, stadium_bet()), 0)
    assert core.state.round is not None and len(core.state.round.bets) == 1


def test_a_decision_retry_is_a_duplicate_and_a_late_different_one_a_mismatch() -> None:
    core = TableCore(config())
    betting(core)
    wager(core, 0, stadium_bet())
    wager(core, 1, stadium_bet())
    step(core, c.Tick(), 1000)
    step(core, c.CardsDrawn((ARRAY,)), 1000)
    step(core, c.ReportDecision("T1", 1, 0, "play"), 1100)
    with pytest.raises(c.DuplicateReportError):
        step(core, c.ReportDecision("T1", 1, 0, "play"), 1200)
    with pytest.raises(c.ReportMismatchError):
        step(core, c.ReportDecision("T1", 1, 0, "fold"), 1200)
    with pytest.raises(c.InvalidArgumentError):
        step(core, c.ReportDecision("T1", 1, 1, "raise"), 1200)
    with pytest.raises(c.IllegalCommandError):
        step(core, c.ReportDecision("T1", 1, 1, "play"), 2000)  # the window ran out
    step(core, c.Tick(), 2000)
    with pytest.raises(c.ReportMismatchError):  # the seat was defaulted to fold
        step(core, c.ReportDecision("T1", 1, 1, "play"), 2000)


def test_the_last_decision_closes_the_window_early() -> None:
    core = TableCore(config())
    betting(core, 1)
    wager(core, 0, stadium_bet())
    step(core, c.Tick(), 1000)
    step(core, c.CardsDrawn((ARRAY,)), 1000)
    events = step(core, c.ReportDecision("T1", 1, 0, "fold"), 1001)
    assert isinstance(events[-1], e.DecisionsClosed) and core.state.phase is Phase.DEALING


def test_a_seat_that_leaves_keeps_its_wager_and_gets_the_default() -> None:
    core = TableCore(config())
    betting(core)
    wager(core, 0, stadium_bet())
    wager(core, 1, stadium_bet())
    step(core, c.Leave(1), 20)
    with pytest.raises(c.DuplicateReportError):  # its wager stays in the round
        core.handle(c.ReportWager("T1", 1, 1, stadium_bet()), 30)
    with pytest.raises(c.InvalidArgumentError):  # a seat that is not seated cannot wager
        core.handle(c.ReportWager("T1", 1, 7, stadium_bet()), 30)
    step(core, c.Tick(), 1000)
    step(core, c.CardsDrawn((ARRAY,)), 1000)
    step(core, c.ReportDecision("T1", 1, 0, "play"), 1001)
    (closed,) = step(core, c.Tick(), 2000)
    assert closed == e.DecisionsClosed(2000, 1, ((1, "fold"),))
    settled = step(core, c.CardsDrawn((DEALER,)), 2000)[-1]
    assert isinstance(settled, e.RoundSettled)
    assert [o.seat for o in settled.outcomes] == [0, 1]


def test_nobody_wagers_the_round_closes_without_cards() -> None:
    core = TableCore(config())
    betting(core)
    assert [type(x) for x in step(core, c.Tick(), 1000)] == [e.BetsClosed, e.RoundClosed]
    assert core.state.phase is Phase.IDLE and core.draws_needed() == ()
    assert core.state.meters.rounds_played == 0 and core.state.recall == []


def test_bets_close_at_the_deadline_even_for_a_late_report() -> None:
    core = TableCore(config())
    betting(core)
    with pytest.raises(c.IllegalCommandError):
        core.handle(c.ReportWager("T1", 1, 0, stadium_bet()), 1000)


def test_void_returns_every_wager_including_a_taken_decision() -> None:
    core = TableCore(config())
    betting(core)
    wager(core, 0, stadium_bet(ante=100, pairs=25))
    wager(core, 1, stadium_bet(ante=50))
    step(core, c.Tick(), 1000)
    step(core, c.CardsDrawn((ARRAY,)), 1000)
    step(core, c.ReportDecision("T1", 1, 0, "play"), 1001)
    (void,) = step(core, c.VoidRound("controller fault"), 1002)
    assert void == e.RoundVoided(1002, 1, "controller fault", ((0, 225), (1, 50)))
    assert core.state.meters.returned == 275 and core.state.meters.rounds_voided == 1
    assert core.state.recall[-1].voided == "controller fault"


def test_turbo_shared_deck_deals_six_per_seat_and_seats_at_most_eight() -> None:
    core = TableCore(config(TURBO))
    assert core.deck_capacity() == 8
    betting(core, 9)
    for seat in range(8):
        wager(core, seat, turbo_bet())
    with pytest.raises(c.InvalidArgumentError, match="8 seats"):
        wager(core, 8, turbo_bet())
    step(core, c.Tick(), 1000)
    step(core, c.CardsDrawn(((0, 1, 2),)), 1000)
    step(core, c.Tick(), 2000)
    parts = core.draws_needed()
    assert [(p.count, p.own_shuffle) for p in parts] == [(6, False)] * 8
    cards = tuple(tuple(range(3 + 6 * i, 9 + 6 * i)) for i in range(8))
    repeat = (cards[0], *cards[:7])
    with pytest.raises(c.InvalidArgumentError):
        core.handle(c.CardsDrawn(repeat), 2000)
    settled = step(core, c.CardsDrawn(cards), 2000)[-1]
    assert isinstance(settled, e.RoundSettled) and len(settled.outcomes) == 8


def test_turbo_stadium_mode_gives_each_seat_its_own_shuffle_of_the_49() -> None:
    core = TableCore(config(TURBO, DealMode.STADIUM))
    assert core.deck_capacity() is None
    betting(core, 12)
    for seat in range(12):
        wager(core, seat, turbo_bet())
    step(core, c.Tick(), 1000)
    step(core, c.CardsDrawn(((0, 1, 2),)), 1000)
    step(core, c.Tick(), 2000)
    parts = core.draws_needed()
    assert all(p.own_shuffle and p.excluded == {0, 1, 2} and p.count == 6 for p in parts)
    with pytest.raises(c.InvalidArgumentError):
        core.handle(c.CardsDrawn(((2, 4, 5, 6, 7, 8),) * 12), 2000)
    same = ((3, 4, 5, 6, 7, 8),) * 12  # every seat may hold the same cards: own shuffles
    settled = step(core, c.CardsDrawn(same), 2000)[-1]
    assert isinstance(settled, e.RoundSettled)
    assert len({o.paid for o in settled.outcomes}) == 1


def test_stadium_mode_needs_cards_per_seat() -> None:
    with pytest.raises(TableConfigError):
        TableCore(config(STADIUM, DealMode.STADIUM))


def test_seats_join_once_and_up_to_the_maximum() -> None:
    core = TableCore(config(max_seats=2))
    assert len(step(core, c.Join(0))) == 1
    assert step(core, c.Join(0)) == []
    step(core, c.Join(1))
    with pytest.raises(c.InvalidArgumentError):
        core.handle(c.Join(2), 0)
    assert step(core, c.Leave(5)) == []


def test_events_round_trip_through_the_journal_encoding() -> None:
    core = TableCore(config())
    betting(core, 1)
    wager(core, 0, stadium_bet(pairs=5))
    step(core, c.Tick(), 1000)
    events = step(core, c.CardsDrawn((ARRAY,)), 1000) + step(core, c.Tick(), 2000)
    events += step(core, c.CardsDrawn((DEALER,)), 2000)
    for event in events:
        assert e.decode(*e.encode(event)) == event
    with pytest.raises(e.EventDecodeError):
        e.decode("RoundClosed", '{"at": 1}')
    with pytest.raises(e.EventDecodeError):
        e.decode("Nope", "{}")


def test_an_event_out_of_its_phase_cannot_be_folded() -> None:
    core = TableCore(config())
    with pytest.raises(ValueError, match="cannot happen"):
        core.apply([e.FirstDealt(0, 1, ARRAY, (), 0)])
