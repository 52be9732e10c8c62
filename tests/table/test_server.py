"""The table served over gRPC with mutual TLS on a real loopback socket, real seat streams."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.registry import load_game
from kiosk.table.core import events as e
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import TableConfig
from kiosk.table.core.server import TableServer
from kiosk.terminal.hostlink import pki
from kiosk.terminal.runtime.deck import RngDeckFactory
from proto.turbokiosk.v1 import table_pb2 as pb
from rng import Csprng
from tests.helpers.table import STADIUM, SeatClient, ante, wait_for

SEATS = ("seat-0", "seat-1", "seat-2")


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("table-pki") / "pki"
    pki.ensure_pki(where, ("table-T1", *SEATS))
    return where


def test_seats_play_a_round_over_mutual_tls(pki_dir: Path, tmp_path: Path) -> None:
    cfg = TableConfig("T1", STADIUM, betting_ms=1500, decision_ms=1500)
    controller = TableController(cfg, tmp_path / "table.sqlite3", RngDeckFactory(Csprng()))
    server = TableServer(controller, pki.credentials(pki_dir, "table-T1")).start()
    seats = [SeatClient(server.address, pki.credentials(pki_dir, name)) for name in SEATS[:2]]
    try:
        for n, seat in enumerate(seats):
            seat.send(join=pb.JoinTable(table_id="T1", seat=n))
        wait_for(lambda: controller.state.seats == {0, 1})
        server.open_round()
        for n, seat in enumerate(seats):
            assert seat.next("round_opened").game_number == 1
            seat.send(wager=ante(n, 100 + n))
        first_ack = seats[0].next("wager_accepted")
        seats[0].send(wager=ante(0, 100))  # a retry: answered with the journaled record
        again = seats[0].next("wager_accepted")
        assert again.journal_seq == first_ack.journal_seq
        seats[0].send(wager=ante(0, 999))  # a different report for the same key: refused
        assert "already has" in seats[0].next("refused").refused.reason
        seats[1].next("wager_accepted")
        dealt = [seat.next("first_dealt") for seat in seats]
        assert dealt[0].first_dealt.cards == dealt[1].first_dealt.cards
        assert dealt[0].first_dealt.offer.default_choice == "fold"
        seats[0].send(
            decision=pb.ReportDecision(table_id="T1", game_number=1, seat=0, choice="play")
        )
        seats[0].next("decision_accepted")
        seats[1].close()  # seat 1 drops: its ante stays, it folds at the timer
        closed = seats[0].next("decisions_closed")
        assert closed.decisions_closed.defaulted is False
        second = seats[0].next("second_dealt").second_dealt
        result = seats[0].next("seat_settled").seat_settled
        # the seat recomputes its result from the cards it was sent, with the same rules
        array = tuple(dealt[0].first_dealt.cards)
        pure = load_game(STADIUM).settle(
            SeatBet({"ante": 100}, (0, 3, 6)), array, "play", (), tuple(second.shared_cards)
        )
        assert (result.stake_cents, result.paid_cents) == (pure.total_stake, pure.total_paid)
        server.close_round()
        seats[0].next("round_closed")
        events = list(controller.journal.events())
        wagers = [ev for ev in events if isinstance(ev, e.WagerAccepted)]
        assert sorted(ev.seat for ev in wagers) == [0, 1]
        settled = next(ev for ev in events if isinstance(ev, e.RoundSettled))
        assert [o.choice for o in settled.outcomes] == ["play", "fold"]
        assert 1 not in controller.state.seats
    finally:
        for seat in seats:
            seat.close()
        server.stop()
        controller.close()


def test_a_stream_joining_as_another_seat_is_refused(pki_dir: Path, tmp_path: Path) -> None:
    cfg = TableConfig("T1", STADIUM)
    controller = TableController(cfg, tmp_path / "table.sqlite3", RngDeckFactory(Csprng()))
    server = TableServer(controller, pki.credentials(pki_dir, "table-T1")).start()
    seat = SeatClient(server.address, pki.credentials(pki_dir, "seat-2"))
    try:
        seat.send(join=pb.JoinTable(table_id="T1", seat=1))
        with pytest.raises(grpc.RpcError) as refused:
            seat.next("round_opened")
        assert refused.value.code() is grpc.StatusCode.PERMISSION_DENIED
        assert controller.state.seats == set()
    finally:
        seat.close()
        server.stop()
        controller.close()


def test_a_join_to_another_table_is_refused(pki_dir: Path, tmp_path: Path) -> None:
    controller = TableController(
        TableConfig("T1", STADIUM), tmp_path / "table.sqlite3", RngDeckFactory(Csprng())
    )
    server = TableServer(controller, pki.credentials(pki_dir, "table-T1")).start()
    seat = SeatClient(server.address, pki.credentials(pki_dir, "seat-0"))
    try:
        seat.send(join=pb.JoinTable(table_id="T9", seat=0))
        with pytest.raises(grpc.RpcError) as refused:
            seat.next("round_opened")
        assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
        assert "not 'T9'" in str(refused.value.details())
        assert controller.state.seats == set()
    finally:
        seat.close()
        server.stop()
        controller.close()


def test_a_seat_that_comes_back_gets_the_round_and_a_restart_keeps_the_cards(
    pki_dir: Path, tmp_path: Path
) -> None:
    cfg = TableConfig("T1", STADIUM, betting_ms=800, decision_ms=60_000)
    path = tmp_path / "table.sqlite3"
    controller = TableController(cfg, path, RngDeckFactory(Csprng()))
    server = TableServer(controller, pki.credentials(pki_dir, "table-T1")).start()
    seat = SeatClient(server.address, pki.credentials(pki_dir, "seat-0"))
    try:
        seat.send(join=pb.JoinTable(table_id="T1", seat=0))
        wait_for(lambda: controller.state.seats == {0})
        server.open_round()
        seat.next("round_opened")
        seat.send(wager=ante(0, 100))
        cards = list(seat.next("first_dealt").first_dealt.cards)
        seat.close()
        wait_for(lambda: controller.state.seats == set())
        seat = SeatClient(server.address, pki.credentials(pki_dir, "seat-0"))
        seat.send(join=pb.JoinTable(table_id="T1", seat=0))
        assert seat.next("wager_accepted").wager_accepted.wagers[0].cents == 100
        assert list(seat.next("first_dealt").first_dealt.cards) == cards
        seat.close()
        server.stop()
        controller.close()
        # the controller restarts on its journal: the round goes on with the same cards
        controller = TableController(cfg, path, RngDeckFactory(Csprng()))
        server = TableServer(controller, pki.credentials(pki_dir, "table-T1")).start()
        seat = SeatClient(server.address, pki.credentials(pki_dir, "seat-0"))
        seat.send(join=pb.JoinTable(table_id="T1", seat=0))
        assert list(seat.next("first_dealt").first_dealt.cards) == cards
        seat.send(decision=pb.ReportDecision(table_id="T1", game_number=1, seat=0, choice="fold"))
        assert seat.next("seat_settled").seat_settled.stake_cents == 100
        assert sum(isinstance(ev, e.FirstDealt) for ev in controller.journal.events()) == 1
    finally:
        seat.close()
        server.stop()
        controller.close()
