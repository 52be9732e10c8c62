"""The seat's sans-IO state machine: the link's table, the steps folded, the one next action."""

from __future__ import annotations

import pytest

from kiosk.terminal.seat.machine import (
    PutCards,
    RecordDecision,
    ResultMismatch,
    ReturnWagers,
    SeatMachine,
    SeatProtocolError,
    SendWager,
    TerminalRound,
    WrongTableError,
)
from kiosk.terminal.seat.status import Connection, TablePhase
from proto.turbokiosk.v1 import table_pb2 as pb

GAME = 7
BET = TerminalRound(GAME, "dealing", (("ante", 100),), (0, 4, 8))


def step(game: int = GAME, seat: int = 1, table: str = "T1", **body: object) -> pb.SeatResponse:
    return pb.SeatResponse(table_id=table, game_number=game, seat=seat, **body)  # type: ignore[arg-type]


def opened(machine: SeatMachine, game: int = GAME) -> None:
    machine.receive(
        step(game, round_opened=pb.RoundOpened(betting_deadline_ms=10_000, now_ms=4_000)), 100
    )


def seated() -> SeatMachine:
    machine = SeatMachine("T1", 1)
    machine.link("connecting")
    opened(machine)
    return machine


def settled(stake: int = 200, paid: int = 400) -> pb.SeatSettled:
    return pb.SeatSettled(
        results=[
            pb.WagerResult(spot="ante", stake_cents=100, paid_cents=paid // 2),
            pb.WagerResult(spot="play", stake_cents=100, paid_cents=paid // 2),
        ],
        stake_cents=stake,
        paid_cents=paid,
    )


def test_the_link_table_refuses_what_it_does_not_list_and_changes_nothing() -> None:
    machine = SeatMachine("T1", 1)
    assert machine.status.connection is Connection.CONNECTING
    machine.link("lost", "the table controller does not answer (UNAVAILABLE)")
    assert machine.status.connection is Connection.LOST and not machine.status.bets_open
    with pytest.raises(SeatProtocolError):
        machine.link("connected")  # a lost link is seated again only through a new stream
    assert machine.status.connection is Connection.LOST
    machine.link("close")
    with pytest.raises(SeatProtocolError):
        machine.link("connecting")


def test_a_step_of_another_table_or_seat_is_refused() -> None:
    machine = seated()
    for wrong in (step(table="T2", round_closed=pb.RoundClosed()), step(seat=2)):
        with pytest.raises(WrongTableError):
            machine.receive(wrong, 0)
    with pytest.raises(SeatProtocolError):
        machine.receive(step(), 0)  # an empty step


def test_the_countdown_and_bets_open_come_from_the_controllers_step() -> None:
    machine = seated()
    status = machine.status
    assert status.connection is Connection.SEATED and status.bets_open
    assert (status.phase, status.remaining_ms, status.received_at_ms) == (
        TablePhase.BETTING,
        6_000,
        100,
    )
    machine.link("lost", "gone")
    assert not machine.status.bets_open and machine.status.reason == "gone"


def test_a_committed_wager_is_reported_once_a_stream_and_again_after_a_reconnect() -> None:
    machine = seated()
    assert machine.next_action(TerminalRound()) is None  # nothing committed: nothing to say
    action = machine.next_action(BET)
    assert isinstance(action, SendWager)
    assert action.report.wager.game_number == GAME and list(action.report.wager.positions) == [
        0,
        4,
        8,
    ]
    assert machine.next_action(BET) is None
    machine.link("lost", "x")
    machine.link("connecting")
    opened(machine)  # the controller re-sends the round in progress
    assert isinstance(machine.next_action(BET), SendWager)
    machine.receive(step(wager_accepted=pb.WagerAccepted()), 0)
    machine.link("lost", "x")
    machine.link("connecting")
    opened(machine)
    assert machine.next_action(BET) is None  # accepted: never reported twice


def test_a_wager_bets_closed_left_out_is_returned() -> None:
    machine = seated()
    machine.next_action(BET)
    machine.receive(step(bets_closed=pb.BetsClosed(seats=[0, 2])), 0)
    action = machine.next_action(BET)
    assert isinstance(action, ReturnWagers) and "did not take" in action.reason


def test_the_round_follows_the_controllers_cards_decision_and_result() -> None:
    machine = seated()
    machine.receive(step(wager_accepted=pb.WagerAccepted()), 0)
    machine.receive(step(bets_closed=pb.BetsClosed(seats=[1])), 0)
    assert machine.next_action(BET) is None  # waiting for the cards
    offer = pb.Offer(choices=["play", "fold"], default_choice="fold", take="play")
    machine.receive(
        step(first_dealt=pb.FirstDealt(cards=list(range(9)), offer=offer, decision_deadline_ms=9)),
        0,
    )
    assert machine.next_action(BET) == PutCards(tuple(range(9)))
    deciding = TerminalRound(GAME, "decision")
    assert machine.next_action(deciding) is None  # the player has not decided
    machine.receive(step(decisions_closed=pb.DecisionsClosed(choice="fold", defaulted=True)), 0)
    assert machine.next_action(deciding) == RecordDecision("fold", automatic=True)
    machine.receive(step(second_dealt=pb.SecondDealt(shared_cards=[20, 21, 22])), 0)
    settling = TerminalRound(GAME, "settling")
    assert machine.next_action(settling) is None  # the cards go in with the result at hand
    machine.receive(step(seat_settled=settled()), 0)
    assert machine.next_action(settling) == PutCards((20, 21, 22))
    mine = TerminalRound(
        GAME, "result", settled=True, results=(("ante", 100, 200), ("play", 100, 200))
    )
    assert machine.next_action(mine) is None
    assert machine.status.phase is TablePhase.SETTLED


def test_a_result_that_differs_from_the_controllers_is_a_mismatch_once() -> None:
    machine = seated()
    machine.receive(step(seat_settled=settled()), 0)
    mine = TerminalRound(
        GAME, "result", settled=True, results=(("ante", 100, 200), ("play", 100, 0))
    )
    action = machine.next_action(mine)
    assert isinstance(action, ResultMismatch) and "('play', 100, 200)" in action.reason
    assert machine.next_action(mine) is None


def test_a_voided_round_is_returned() -> None:
    machine = seated()
    machine.receive(step(wager_accepted=pb.WagerAccepted()), 0)
    machine.receive(step(round_voided=pb.RoundVoided(reason="cards cannot be drawn")), 0)
    assert machine.next_action(TerminalRound(GAME, "decision")) == ReturnWagers(
        "cards cannot be drawn"
    )
    assert machine.status.phase is TablePhase.VOIDED


def test_a_seat_that_comes_back_settles_from_the_finished_round() -> None:
    machine = SeatMachine("T1", 1)
    assert machine.join(GAME, 0).join.pending_game == GAME
    done = pb.FinishedRound(
        played=True,
        first_cards=list(range(9)),
        choice="play",
        shared_cards=[30, 31, 32],
        settled=settled(),
    )
    machine.receive(step(finished_round=done), 0)
    assert machine.next_action(BET) == PutCards(tuple(range(9)))
    assert machine.next_action(TerminalRound(GAME, "decision")) == RecordDecision("play", False)
    assert machine.next_action(TerminalRound(GAME, "settling")) == PutCards((30, 31, 32))
    gone = SeatMachine("T1", 1)
    gone.receive(step(finished_round=pb.FinishedRound(played=False)), 0)
    assert isinstance(gone.next_action(BET), ReturnWagers)


def paused(machine: SeatMachine, time_left: int, at: int, reason: str = "shuffler jam") -> None:
    body = pb.TablePaused(reason=reason, time_left_ms=time_left)
    machine.receive(step(table_paused=body), at)


def test_a_pause_holds_the_countdown_and_closes_bets_until_the_resume() -> None:
    machine = seated()  # betting: 6 s left at the seat's 100 ms
    assert machine.status.remaining_at(1_100) == 5_000
    paused(machine, 5_000, 1_100)
    status = machine.status
    assert status.paused and status.pause_reason == "shuffler jam"
    assert status.phase is TablePhase.BETTING and not status.bets_open
    assert status.remaining_at(1_100) == status.remaining_at(600_000) == 5_000  # held
    assert machine.next_action(BET) is None  # the report waits for the resume
    resumed = pb.TableResumed(betting_deadline_ms=95_000, decision_deadline_ms=0, now_ms=90_000)
    machine.receive(step(table_resumed=resumed), 700_000)
    status = machine.status
    assert not status.paused and status.pause_reason == "" and status.bets_open
    assert (status.deadline_ms, status.remaining_ms, status.received_at_ms) == (
        95_000,
        5_000,
        700_000,
    )
    assert status.remaining_at(702_000) == 3_000  # counting down again, on the seat's clock
    assert isinstance(machine.next_action(BET), SendWager)


def test_a_resume_in_the_decision_window_takes_the_decision_deadline() -> None:
    machine = seated()
    machine.receive(step(bets_closed=pb.BetsClosed(seats=[1])), 0)
    offer = pb.Offer(choices=["play", "fold"], default_choice="fold", take="play")
    first = pb.FirstDealt(cards=[1], offer=offer, decision_deadline_ms=20_000, now_ms=12_000)
    machine.receive(step(first_dealt=first), 200)
    paused(machine, 7_000, 1_200, "supervisor called")
    assert machine.status.remaining_at(90_000) == 7_000
    resumed = pb.TableResumed(
        betting_deadline_ms=10_000, decision_deadline_ms=50_000, now_ms=43_000
    )
    machine.receive(step(table_resumed=resumed), 90_000)
    status = machine.status
    assert (status.phase, status.deadline_ms, status.remaining_at(90_500)) == (
        TablePhase.DECIDING,
        50_000,
        6_500,
    )


def test_a_pause_without_a_window_shows_no_countdown() -> None:
    machine = seated()
    machine.receive(step(bets_closed=pb.BetsClosed(seats=[1])), 0)
    paused(machine, 0, 500)
    assert machine.status.paused and machine.status.remaining_at(500) == 0
    machine.receive(step(table_resumed=pb.TableResumed(now_ms=9_000)), 900)
    status = machine.status
    assert (status.paused, status.phase, status.deadline_ms) == (False, TablePhase.BETS_CLOSED, 0)


def test_a_laid_pack_is_the_dealers_step_and_changes_no_phase() -> None:
    machine = seated()
    machine.receive(step(bets_closed=pb.BetsClosed(seats=[1])), 0)
    laid = pb.PackLaid(pack=2, location="array 4-6", cards=[3, 4, 5])
    machine.receive(step(pack_laid=laid), 0)
    assert (machine.status.dealer_step, machine.status.phase) == (
        "Pack 2 laid: array 4-6",
        TablePhase.BETS_CLOSED,
    )
    assert machine.next_action(BET) is None  # the cards come with FirstDealt, not the pack
    machine.receive(step(pack_laid=pb.PackLaid(pack=5, location="dealer", cards=[7])), 0)
    assert machine.status.dealer_step == "Dealer's hand"
    assert (machine.status.pack, machine.status.pack_location) == (5, "dealer")
    machine.receive(step(seat_settled=settled()), 0)
    assert (machine.status.dealer_step, machine.status.pack) == ("Results", 0)  # moved on


def test_a_replayed_round_whose_first_deadline_passed_takes_the_moved_one() -> None:
    """A seat that joins after a pause: the round's RoundOpened carries the deadline it opened
    with (past), the controller's TableResumed the one the pause moved (ahead)."""
    machine = SeatMachine("T1", 1)
    opening = pb.RoundOpened(betting_deadline_ms=10_000, now_ms=30_000)
    machine.receive(step(round_opened=opening), 100)
    assert machine.status.phase is TablePhase.BETS_CLOSED and not machine.status.bets_open
    moved = pb.TableResumed(betting_deadline_ms=34_000, now_ms=30_000)
    machine.receive(step(table_resumed=moved), 100)
    status = machine.status
    assert (status.phase, status.bets_open, status.remaining_at(1_100)) == (
        TablePhase.BETTING,
        True,
        3_000,
    )
    assert isinstance(machine.next_action(BET), SendWager)
    machine.receive(step(bets_closed=pb.BetsClosed(seats=[1])), 200)
    machine.receive(step(table_resumed=moved), 300)  # bets closed: a resume reopens nothing
    assert machine.status.phase is TablePhase.BETS_CLOSED and machine.status.deadline_ms == 0
