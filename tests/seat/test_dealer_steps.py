"""A seat at a dealer-run table, end to end: a real table server with the Dealer Terminal's API
(gRPC, mutual TLS, ``manual`` cards), a real dealer stream signed in with its PIN, and a real
terminal (its SQLite journal) seated through :class:`~kiosk.terminal.seat.runtime.SeatRuntime`.

The dealer pauses the table in the betting window: the seat's countdown holds and it takes no
bet; the dealer resumes: the seat takes the controller's new deadline and bets.  Each pack the
dealer lays is the seat's "Dealer is dealing" step with its place, the last one the dealer's
hand; the seat settles with the controller's result.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.kernel.cards import cards
from kiosk.table.core import events as te
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import CardSource, TableConfig
from kiosk.table.core.core import Phase as TPhase
from kiosk.table.core.dealer_access import DealerAccess
from kiosk.table.core.dealer_link import DealerLink
from kiosk.table.core.meters import table_meters
from kiosk.table.core.server import TableServer
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.pins import KdfParams
from kiosk.terminal.core.state import Phase
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.hostlink import pki
from kiosk.terminal.presentation.table_bar import TableStep, table_bar
from kiosk.terminal.presentation.table_status import table_status
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.seat.client import SeatClient
from kiosk.terminal.seat.runtime import SeatNotReadyError, SeatRuntime
from kiosk.terminal.seat.status import Connection
from proto.turbokiosk.v1 import dealer_pb2 as dpb
from rng import Csprng

ARRAY = cards("2h 5h 9h 3c 7d Jc Qs 4d 8s")  # a flush on positions 0, 1, 2
DEALER = cards("Ks Kd 2c")


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("dealer-seat-pki") / "pki"
    pki.ensure_pki(where, ("table-T1", "seat-1", "dealer-1"))
    return where


@pytest.fixture
def server(tmp_path: Path, pki_dir: Path) -> Iterator[TableServer]:
    config = TableConfig(
        "T1", "stadium-3cp", betting_ms=20_000, decision_ms=300, card_source=CardSource.MANUAL
    )
    controller = TableController(config, tmp_path / "table.sqlite3", RngDeckFactory(Csprng()))
    srv = TableServer(
        controller,
        pki.credentials(pki_dir, "table-T1"),
        dealer_access=DealerAccess(KdfParams(n=2**4, r=1, p=1)),
        tick_seconds=0.01,
    ).start()
    yield srv
    srv.stop(0)
    controller.close()


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


def until(seat: SeatRuntime, done: Callable[[], bool], seconds: float = 8.0) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, f"timed out: {seat.status()}"
        seat.runtime.pump()
        seat.pump()
        time.sleep(0.005)


def ok(dealer: DealerLink, **body: Any) -> None:
    result = dealer.call(timeout=15, **body)
    assert result.ok, (result.error, result.reason)


def test_a_seat_holds_its_countdown_while_paused_and_shows_each_pack_laid(
    server: TableServer, terminal: Terminal, pki_dir: Path
) -> None:
    creds = pki.credentials(pki_dir, "seat-1")

    def seated() -> SeatRuntime:
        return SeatRuntime(
            terminal.runtime,
            "T1",
            1,
            connect=lambda join: SeatClient(server.address, creds, join, max_backoff=0.2).start(),
        )

    seat = seated()
    dealer = DealerLink(server.address, pki.credentials(pki_dir, "dealer-1"))
    try:
        until(seat, lambda: seat.status().connection is Connection.SEATED)
        ok(dealer, sign_in=dpb.SignIn(role=dpb.DEALER_ROLE_DEALER, pin="4444"))
        ok(dealer, change_pin=dpb.ChangeDealerPin(new_pin="7531"))
        ok(dealer, new_game=dpb.NewGame())
        until(seat, lambda: seat.status().bets_open)

        ok(dealer, pause=dpb.PauseTable(reason="cards changed"))
        until(seat, lambda: seat.status().paused)
        held = server.controller.state.paused
        assert held is not None and held.time_left > 0
        status = seat.status()
        assert status.pause_reason == "cards changed" and not status.bets_open
        first = table_status(seat)
        time.sleep(0.3)
        seat.pump()
        later = table_status(seat)
        assert later.remaining_ms == first.remaining_ms == held.time_left  # held, not counting
        bar = table_bar(later, "en", dealer_hand=True)
        assert (bar.step, bar.headline, bar.detail, bar.bets_open) == (
            TableStep.PAUSED,
            "Table paused",
            "cards changed",
            False,
        )
        terminal.runtime.execute(c.SelectPositions((0, 1, 2)))
        terminal.runtime.execute(c.PlaceWager(spot="ante", amount=100))
        terminal.runtime.execute(c.PlaceWager(spot="pairs_plus", amount=100))
        with pytest.raises(SeatNotReadyError, match="paused: cards changed"):
            seat.bet()
        assert terminal.runtime.state.credits[0] == 10_000  # nothing committed
        seat.close()  # a seat that comes back during the pause learns of it on joining
        seat = seated()
        # seated first, then told of the pause in force (the next message on the stream)
        until(seat, lambda: seat.status().connection is Connection.SEATED and seat.status().paused)
        assert table_status(seat).remaining_ms == held.time_left

        ok(dealer, resume=dpb.ResumeTable())
        until(seat, lambda: not seat.status().paused)
        rnd = server.controller.state.round
        assert rnd is not None
        status = seat.status()
        assert status.deadline_ms == rnd.betting_deadline  # the deadline moved by the pause
        assert status.bets_open and table_status(seat).remaining_ms <= held.time_left
        seat.close()  # one that comes back after it gets the moved deadline, not the first one
        seat = seated()
        until(seat, lambda: seat.status().deadline_ms == rnd.betting_deadline)
        assert seat.status().bets_open and not seat.status().paused
        seat.bet()
        until(seat, lambda: bool(rnd.bets))
        ok(dealer, close_bets=dpb.CloseBets(game_number=rnd.game_number))
        game = rnd.game_number

        ok(dealer, lay_pack=dpb.LayPack(game_number=game, pack=1, cards=ARRAY[:3]))
        until(seat, lambda: seat.status().dealer_step == "Pack 1 laid: array 1-3")
        dealing = table_bar(table_status(seat), "en", dealer_hand=True)
        assert (dealing.headline, dealing.detail) == ("Dealer is dealing", "Pack 1: array 1-3")
        ok(dealer, lay_pack=dpb.LayPack(game_number=game, pack=2, cards=ARRAY[3:6]))
        ok(dealer, lay_pack=dpb.LayPack(game_number=game, pack=3, cards=ARRAY[6:]))
        rt = terminal.runtime
        until(seat, lambda: rt.state.round is not None and rt.state.round.first == list(ARRAY))
        dealer.wait_view(lambda v: v.phase == "dealing", timeout=8)  # the default fold
        ok(dealer, lay_pack=dpb.LayPack(game_number=game, pack=4, cards=DEALER))
        until(seat, lambda: seat.status().dealer_step == "Dealer's hand")
        hand = table_bar(table_status(seat), "es", dealer_hand=True)
        assert (hand.step, hand.headline) == (TableStep.DEALER_HAND, "Mano del crupier")
        ok(dealer, confirm=dpb.ConfirmRound(game_number=game))
        until(seat, lambda: rt.state.phase is Phase.RESULT)
        assert TiltCode.TABLE_RESULT_MISMATCH not in rt.state.tilts
        assert rt.state.credits[0] == 10_000 - 200 + 500  # the flush pays Pairs Plus 4 to 1
    finally:
        dealer.close()
        seat.close()


def _seated(server: TableServer, terminal: Terminal, pki_dir: Path) -> SeatRuntime:
    creds = pki.credentials(pki_dir, "seat-1")
    return SeatRuntime(
        terminal.runtime,
        "T1",
        1,
        connect=lambda join: SeatClient(server.address, creds, join, max_backoff=0.2).start(),
    )


def test_an_early_close_plays_the_chips_on_the_felt_and_the_books_agree(
    server: TableServer, terminal: Terminal, pki_dir: Path
) -> None:
    """Decision 0064: chips on the felt (no DEAL), the dealer closes bets 20 s early: the seat
    commits them at the last call, the table takes them, and both journals agree to the cent."""
    seat = _seated(server, terminal, pki_dir)
    dealer = DealerLink(server.address, pki.credentials(pki_dir, "dealer-1"))
    rt = terminal.runtime
    try:
        until(seat, lambda: seat.status().connection is Connection.SEATED)
        ok(dealer, sign_in=dpb.SignIn(role=dpb.DEALER_ROLE_DEALER, pin="4444"))
        ok(dealer, change_pin=dpb.ChangeDealerPin(new_pin="7531"))
        ok(dealer, new_game=dpb.NewGame())
        until(seat, lambda: seat.status().bets_open)
        rt.execute(c.SelectPositions((0, 1, 2)))
        rt.execute(c.PlaceWager(spot="ante", amount=100))
        rt.execute(c.PlaceWager(spot="pairs_plus", amount=100))
        seat.pump()
        assert rt.state.credits[0] == 10_000  # on the felt, not committed: 20 s to go
        rnd = server.controller.state.round
        assert rnd is not None and not rnd.bets
        game = rnd.game_number
        ok(dealer, close_bets=dpb.CloseBets(game_number=game))  # long before the countdown
        until(seat, lambda: server.controller.state.phase is TPhase.BETS_CLOSED)
        assert dict(rnd.bets[1].wagers) == {"ante": 100, "pairs_plus": 100}  # the felt played
        until(seat, lambda: rt.state.phase is not Phase.WAGERING)
        assert rt.state.credits[0] == 10_000 - 200 and not seat.unplayed

        for pack, hand in enumerate((ARRAY[:3], ARRAY[3:6], ARRAY[6:]), start=1):
            ok(dealer, lay_pack=dpb.LayPack(game_number=game, pack=pack, cards=hand))
        dealer.wait_view(lambda v: v.phase == "dealing", timeout=8)  # the default fold
        ok(dealer, lay_pack=dpb.LayPack(game_number=game, pack=4, cards=DEALER))
        ok(dealer, confirm=dpb.ConfirmRound(game_number=game))
        until(seat, lambda: rt.state.phase is Phase.RESULT)
        assert TiltCode.TABLE_RESULT_MISMATCH not in rt.state.tilts
        assert rt.state.credits[0] == 10_000 - 200 + 500  # the flush pays Pairs Plus 4 to 1
    finally:
        dealer.close()
        seat.close()
    books = table_meters(server.controller.journal.events())
    at_table = books.seats[1]
    lifetime = rt.state.lifetime
    assert (at_table.wagered, at_table.paid, at_table.rounds) == (200, 500, 1)
    assert lifetime["coin_in"] - lifetime["voided_returns"] == at_table.wagered
    assert lifetime["coin_out"] == at_table.paid


def test_a_last_call_to_an_empty_felt_closes_within_its_bound(
    server: TableServer, terminal: Terminal, pki_dir: Path
) -> None:
    """A seated seat with nothing on its felt: the dealer's close waits at most LAST_CALL_MS,
    and chips placed after bets closed stay on the felt for the next round."""
    seat = _seated(server, terminal, pki_dir)
    dealer = DealerLink(server.address, pki.credentials(pki_dir, "dealer-1"))
    rt = terminal.runtime
    try:
        until(seat, lambda: seat.status().connection is Connection.SEATED)
        ok(dealer, sign_in=dpb.SignIn(role=dpb.DEALER_ROLE_DEALER, pin="4444"))
        ok(dealer, change_pin=dpb.ChangeDealerPin(new_pin="7531"))
        ok(dealer, new_game=dpb.NewGame())
        until(seat, lambda: seat.status().bets_open)
        game = server.current_game()
        ok(dealer, close_bets=dpb.CloseBets(game_number=game))
        rnd = server.controller.state.round
        assert rnd is not None and rnd.closing and rnd.betting_deadline > 0
        until(seat, lambda: seat.status().last_call)  # the seat heard the last call
        until(seat, lambda: server.controller.state.phase is TPhase.IDLE)  # no bet: closed
        until(seat, lambda: not seat.status().bets_open)
        rt.execute(c.SelectPositions((0, 1, 2)))
        rt.execute(c.PlaceWager(spot="ante", amount=100))
        seat.pump()
        assert rt.state.pending_wagers == {0: {"ante": 100}} and rt.state.credits[0] == 10_000
        assert not any(
            isinstance(ev, te.WagerAccepted) for ev in server.controller.journal.events()
        )
    finally:
        dealer.close()
        seat.close()
