"""The table protocol: every report and every step carries its idempotency key, and every step
of a round the controller journals has a message a seat can receive."""

from __future__ import annotations

from kiosk.table.core import events as e
from proto.turbokiosk.v1 import table_pb2

KEY = ("table_id", "game_number", "seat")

#: table event -> the SeatResponse body that tells a seat about it
STEP_MESSAGES = {
    e.RoundOpened: "round_opened",
    e.WagerAccepted: "wager_accepted",
    e.BetsClosing: "bets_closing",
    e.BetsClosed: "bets_closed",
    e.FirstDealt: "first_dealt",
    e.DecisionMade: "decision_accepted",
    e.DecisionsClosed: "decisions_closed",
    e.SecondDealt: "second_dealt",
    e.RoundSettled: "seat_settled",
    e.RoundClosed: "round_closed",
    e.RoundVoided: "round_voided",
    e.PackLaid: "pack_laid",
    e.TablePaused: "table_paused",
    e.TableResumed: "table_resumed",
}
#: seat comings and goings are answered by the stream itself, not by a step message; the card
#: checks, tilts and the dealer's PINs and audit are the Dealer Terminal's (dealer.proto)
SEAT_EVENTS = {
    e.SeatJoined,
    e.SeatLeft,
    e.DeckChecked,
    e.CardTilted,
    e.TiltCleared,
    e.DealerPinSet,
    e.DealerPinRefused,
    e.DealerAudited,
}


def test_reports_and_steps_carry_table_game_and_seat() -> None:
    for message in (table_pb2.ReportWager, table_pb2.ReportDecision, table_pb2.SeatResponse):
        fields = message.DESCRIPTOR.fields_by_name
        assert all(name in fields for name in KEY), message.DESCRIPTOR.name


def test_every_round_event_has_a_step_message() -> None:
    bodies = {f.name for f in table_pb2.SeatResponse.DESCRIPTOR.oneofs_by_name["body"].fields}
    kinds = set(e.KINDS.values())
    assert set(STEP_MESSAGES) | SEAT_EVENTS == kinds
    assert set(STEP_MESSAGES.values()) <= bodies
    # not events: a refusal, a finished round from the recall for a seat that comes back, and
    # a progressive hit from the progressive's journal (decision 0066)
    assert bodies - set(STEP_MESSAGES.values()) == {"refused", "finished_round", "progressive_hit"}


def test_a_wager_report_round_trips() -> None:
    report = table_pb2.SeatRequest(
        wager=table_pb2.ReportWager(
            table_id="T1",
            game_number=7,
            seat=3,
            wagers=[table_pb2.Wager(spot="ante", cents=500)],
            positions=[0, 4, 8],
        )
    )
    back = table_pb2.SeatRequest.FromString(report.SerializeToString())
    assert back == report and back.WhichOneof("body") == "wager"
    assert (back.wager.table_id, back.wager.game_number, back.wager.seat) == ("T1", 7, 3)


def test_the_seat_folds_every_step_body_the_controller_sends() -> None:
    """A body the seat does not fold is ignored with a note: the seat would miss the step."""
    from kiosk.terminal.seat.machine import STEP_FOLDS

    bodies = {f.name for f in table_pb2.SeatResponse.DESCRIPTOR.oneofs_by_name["body"].fields}
    # a progressive hit is no fact of a round: the seat's runtime pays it (decision 0066)
    assert set(STEP_FOLDS) == bodies - {"progressive_hit"}
