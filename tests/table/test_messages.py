"""The table protocol's messages to and from the core: each seat is told its own business."""

from __future__ import annotations

import pytest

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.core import TableCore
from kiosk.table.core.messages import command_of, step_for_seat
from proto.turbokiosk.v1 import table_pb2 as pb
from tests.helpers.table import TURBO, config, stadium_bet, turbo_bet


def play_turbo_round() -> list[e.Event]:
    core = TableCore(config(TURBO))
    out: list[e.Event] = []

    def step(cmd: c.Command, now: int) -> None:
        events = core.handle(cmd, now)
        core.apply(events)
        out.extend(events)

    for seat in range(3):
        step(c.Join(seat), 0)
    step(c.OpenRound(), 0)
    for seat in range(3):
        step(c.ReportWager("T1", 1, seat, turbo_bet(100 + seat)), 1)
    step(c.Tick(), 1000)
    step(c.CardsDrawn(((0, 1, 2),)), 1000)
    if core.state.round is not None and core.state.round.offers:
        step(c.ReportDecision("T1", 1, 0, "raise"), 1001)
        step(c.Tick(), 2000)
    step(c.CardsDrawn(tuple(tuple(range(3 + 6 * i, 9 + 6 * i)) for i in range(3))), 2000)
    step(c.CloseRound(), 2001)
    return out


def test_each_seat_sees_only_its_wager_its_cards_and_its_result() -> None:
    events = play_turbo_round()
    settled = next(ev for ev in events if isinstance(ev, e.RoundSettled))
    for seat in range(3):
        steps = [step_for_seat(ev, n, "T1", seat) for n, ev in enumerate(events, 1)]
        told = [s for s in steps if s is not None]
        assert all((s.table_id, s.game_number, s.seat) == ("T1", 1, seat) for s in told)
        kinds = [s.WhichOneof("body") for s in told]
        assert kinds.count("wager_accepted") == 1
        ack = next(s for s in told if s.WhichOneof("body") == "wager_accepted")
        assert ack.wager_accepted.wagers[0].cents == 100 + seat
        (second,) = [s.second_dealt for s in told if s.WhichOneof("body") == "second_dealt"]
        assert list(second.seat_cards) == list(range(3 + 6 * seat, 9 + 6 * seat))
        (result,) = [s.seat_settled for s in told if s.WhichOneof("body") == "seat_settled"]
        mine = settled.outcomes[seat]
        assert (result.stake_cents, result.paid_cents) == (mine.stake, mine.paid)
        assert [w.spot for w in result.results] == [w.spot for w in mine.wagers]
        assert kinds[-1] == "round_closed"


def test_a_void_tells_each_seat_what_it_gets_back() -> None:
    void = e.RoundVoided(5, 3, "cards cannot be drawn", ((0, 150), (2, 40)))
    told = [step_for_seat(void, 9, "T1", seat) for seat in range(3)]
    assert [s.round_voided.returned_cents for s in told if s] == [150, 0, 40]
    assert step_for_seat(e.SeatJoined(0, 1), 1, "T1", 1) is None


def test_a_defaulted_seat_is_told_its_default() -> None:
    shut = e.DecisionsClosed(2000, 1, ((1, "fold"),))
    one, two = (step_for_seat(shut, 4, "T1", seat) for seat in (1, 2))
    assert one is not None and two is not None
    assert (one.decisions_closed.choice, one.decisions_closed.defaulted) == ("fold", True)
    assert two.decisions_closed.defaulted is False


def test_a_wager_report_becomes_the_core_command() -> None:
    request = pb.SeatRequest(
        wager=pb.ReportWager(
            table_id="T1",
            game_number=1,
            seat=2,
            wagers=[pb.Wager(spot="pairs_plus", cents=5), pb.Wager(spot="ante", cents=100)],
            positions=[0, 4, 8],
        )
    )
    assert command_of(request, "T1") == c.ReportWager("T1", 1, 2, stadium_bet(100, pairs=5))


@pytest.mark.parametrize(
    "request_",
    [
        pb.SeatRequest(),
        pb.SeatRequest(join=pb.JoinTable(table_id="T2", seat=1)),
        pb.SeatRequest(
            wager=pb.ReportWager(
                table_id="T1", wagers=[pb.Wager(spot="ante", cents=1)] * 2, positions=[0, 1, 2]
            )
        ),
        pb.SeatRequest(wager=pb.ReportWager(table_id="T1", wagers=[pb.Wager(spot="a", cents=0)])),
        pb.SeatRequest(wager=pb.ReportWager(table_id="T1", wagers=[pb.Wager(spot="a", cents=-5)])),
    ],
)
def test_a_malformed_seat_message_is_refused(request_: pb.SeatRequest) -> None:
    with pytest.raises(c.InvalidArgumentError):
        command_of(request_, "T1")


def test_joins_leaves_and_decisions_become_commands() -> None:
    assert command_of(pb.SeatRequest(join=pb.JoinTable(table_id="T1", seat=4)), "T1") == c.Join(4)
    assert command_of(pb.SeatRequest(leave=pb.LeaveTable(table_id="T1", seat=4)), "T1") == c.Leave(
        4
    )
    decision = pb.ReportDecision(table_id="T1", game_number=3, seat=4, choice="play")
    assert command_of(pb.SeatRequest(decision=decision), "T1") == c.ReportDecision(
        "T1", 3, 4, "play"
    )
