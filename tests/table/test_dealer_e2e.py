"""The Dealer Terminal's API end to end: a real table server (gRPC, mutual TLS, its journal), the
shuffler simulator as a real program over a pseudo-terminal (the sealed device link), robot
seats on their own streams and a dealer stream with its ``dealer-1`` certificate.

- a round with the shuffler's cards: sign-in (factory PIN, then the dealer's own), New Game,
  close bets early, each pack laid as the shuffler presents it, Confirm, the recall with the
  shuffler's deck check; every robot recomputes its result and agrees;
- a duplicate card from the shuffler stops the round with a tilt; a dealer may not re-read, the
  supervisor does, and the round goes on; a jam while the players decide stops it again (at
  the dealer's hand) and the supervisor voids it:
  every robot gets its wagers back, the void and its audit record journaled together;
- a manual round: the dealer enters the cards, a card already on the layout is refused; pause
  and resume; a PIN lock-out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from kiosk.table.core import events as e
from kiosk.table.core.core import CardSource
from kiosk.table.core.dealer_access import DealerAccess
from kiosk.table.core.dealer_link import Answer, DealerLink, DealerLinkError
from kiosk.table.core.robot import RobotSeat
from kiosk.table.core.shuffler_feed import ShufflerFeed
from kiosk.terminal.app.peripherals import spawn_simulator, wait_ready
from kiosk.terminal.devices.pairing import key_path, load_pairing_key
from kiosk.terminal.devices.sim.program import control
from kiosk.terminal.hostlink import pki
from proto.turbokiosk.v1 import dealer_pb2 as pb
from tests.helpers.dealer_rig import FAST_KDF, NAMES, SEATS, START, robot_table


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("dealer-pki") / "pki"
    pki.ensure_pki(where, ("table-T1", *NAMES))
    return where


class Table:
    """A server, its robots and a dealer stream."""

    def __init__(
        self, pki_dir: Path, tmp: Path, source: CardSource, feed: ShufflerFeed | None = None
    ) -> None:
        rig = robot_table(
            pki_dir,
            tmp,
            source,
            DealerAccess(FAST_KDF),
            betting_ms=20_000,
            decision_ms=5_000,
            feed=feed,
        )
        self.controller, self.server, self.robots = rig.controller, rig.server, rig.robots
        self.dealer = DealerLink(self.server.address, pki.credentials(pki_dir, "dealer-1"))

    def ask(self, **body: Any) -> Answer:
        return self.dealer.call(timeout=15, **body)

    def ok(self, **body: Any) -> Answer:
        result = self.ask(**body)
        assert result.ok, (result.error, result.reason)
        return result

    def view(self, predicate: Callable[[pb.TableView], bool]) -> pb.TableView:
        return self.dealer.wait_view(predicate, timeout=15)

    def sign_in(self, role: pb.DealerRole, factory: str, own: str) -> None:
        first = self.ok(sign_in=pb.SignIn(role=role, pin=factory))
        assert first.must_change_pin
        refused = self.ask(new_game=pb.NewGame())
        assert refused.error == "MustChangePin"
        self.ok(change_pin=pb.ChangeDealerPin(new_pin=own))

    def open_and_close_bets(self) -> int:
        self.view(lambda v: v.seats_in == SEATS and v.phase == "idle")
        self.ok(new_game=pb.NewGame())
        view = self.view(lambda v: v.phase == "betting" and v.seats_bet == SEATS)
        self.ok(close_bets=pb.CloseBets(game_number=view.game_number))
        return view.game_number

    def lay_presented(self, game: int, pack: int) -> None:
        self.view(lambda v: v.next_step.pack == pack and v.next_step.presented)
        self.ok(lay_pack=pb.LayPack(game_number=game, pack=pack))

    def wait_robots(self, done: Callable[[RobotSeat], bool]) -> None:
        end = time.monotonic() + 15
        while not all(done(r) for r in self.robots):
            assert time.monotonic() < end, [r.summary() for r in self.robots]
            time.sleep(0.01)

    def journal(self) -> list[e.Event]:
        return list(self.controller.journal.events())

    def close(self) -> None:
        self.dealer.close()
        for robot in self.robots:
            robot.close()
        self.server.stop(0)
        self.controller.close()


@pytest.fixture
def shuffler(tmp_path: Path) -> Iterator[tuple[dict[str, str], bytes]]:
    proc, ready = spawn_simulator("shuffler", tmp_path / "periph", extra=("--seed", "11"))
    try:
        info = wait_ready(proc, ready, 15)
        yield info, load_pairing_key(key_path(tmp_path / "periph" / "keys", "shuffler"))
    finally:
        proc.terminate()
        proc.wait(10)


def test_shuffler_rounds_a_tilt_a_reread_and_a_void(
    pki_dir: Path, tmp_path: Path, shuffler: tuple[dict[str, str], bytes]
) -> None:
    info, key = shuffler
    table = Table(pki_dir, tmp_path, CardSource.SHUFFLER, ShufflerFeed(info["port"], key))
    try:
        assert table.ask(new_game=pb.NewGame()).error == "NotSignedIn"
        table.sign_in(pb.DEALER_ROLE_DEALER, "4444", "2468")
        # round 1: the shuffler's cards, pack by pack
        game = table.open_and_close_bets()
        for pack in (1, 2, 3):
            table.lay_presented(game, pack)
        table.view(lambda v: v.phase == "dealing")  # every robot decided at once
        table.lay_presented(game, 4)
        repeat = table.ok(lay_pack=pb.LayPack(game_number=game, pack=4))
        assert repeat.repeated  # laid once
        table.ok(confirm=pb.ConfirmRound(game_number=game))
        table.wait_robots(lambda r: r.stats.rounds == 1)
        (recalled,) = table.dealer.recalled(game_number=game)
        assert recalled.card_source == "shuffler" and recalled.deck_check.passed
        assert recalled.deck_check.cards_read == 52 and len(recalled.packs) == 4
        for robot in table.robots:
            mine = next(s for s in recalled.seats if s.seat == robot.seat)
            assert robot.stats.disagreements == 0
            assert robot.stats.credits == START - mine.stake_cents + mine.paid_cents

        # round 2: a duplicate card, the supervisor's re-read, a jam, the supervisor's void
        assert control(info["control"], "fault duplicate").startswith("ok")
        game = table.open_and_close_bets()
        table.lay_presented(game, 1)
        tilted = table.view(lambda v: v.HasField("tilt"))
        assert "holds a card twice" in tilted.tilt.reason and tilted.tilt.pack == 1
        refused = table.ask(reread=pb.ReRead(game_number=game, pack=1))
        assert refused.error == "NotAllowed"
        table.sign_in(pb.DEALER_ROLE_SUPERVISOR, "5555", "1357")
        table.ok(reread=pb.ReRead(game_number=game, pack=1))
        table.lay_presented(game, 1)
        table.lay_presented(game, 2)
        # the shuffler jams on the dealer's hand while the players decide: the tilt waits
        # for the round to need that pack
        table.view(lambda v: v.next_step.pack == 3 and v.next_step.presented)
        assert control(info["control"], "fault jam").startswith("ok")  # for pack 4
        table.ok(lay_pack=pb.LayPack(game_number=game, pack=3))
        jammed = table.view(lambda v: v.HasField("tilt"))
        assert "jammed" in jammed.tilt.reason and jammed.tilt.pack == 4
        assert jammed.phase == "dealing"
        table.ok(void_round=pb.VoidRoundRequest(game_number=game, reason="misdeal: jam"))
        after = table.view(lambda v: v.voided_reason == "misdeal: jam")
        assert {s.state for s in after.seats} == {pb.SEAT_ROUND_STATE_VOIDED}
        assert all(s.returned_cents > 0 for s in after.seats)
        table.wait_robots(lambda r: r.stats.voided == 1)
        for robot in table.robots:
            assert robot.stats.at_stake == 0 and robot.stats.disagreements == 0
        events = table.journal()
        voided = next(i for i, ev in enumerate(events) if isinstance(ev, e.RoundVoided))
        audit = events[voided + 1]
        assert isinstance(audit, e.DealerAudited) and audit.action == "void_round"
        assert (audit.by, audit.role, audit.outcome) == ("dealer-1", "supervisor", "ok")
        refusal = [
            ev
            for ev in events
            if isinstance(ev, e.DealerAudited) and ev.outcome == "refused" and ev.action == "reread"
        ]
        assert refusal and refusal[0].role == "dealer"
        record = table.controller.recall(game)
        assert record is not None and record.voided == "misdeal: jam"
        assert [t.pack for t in record.tilts] == [1, 4]
    finally:
        table.close()


def test_a_manual_round_pause_resume_and_a_pin_lockout(pki_dir: Path, tmp_path: Path) -> None:
    table = Table(pki_dir, tmp_path, CardSource.MANUAL)
    try:
        impostor = DealerLink(table.server.address, pki.credentials(pki_dir, "seat-0"))
        with pytest.raises(DealerLinkError):
            impostor.call(timeout=5, new_game=pb.NewGame())
        assert impostor.error is not None
        assert impostor.error.code() is grpc.StatusCode.PERMISSION_DENIED
        impostor.close()
        for _ in range(2):
            assert table.ask(sign_in=pb.SignIn(role=pb.DEALER_ROLE_DEALER, pin="0000")).error == (
                "PinRefused"
            )
        locked = table.ask(sign_in=pb.SignIn(role=pb.DEALER_ROLE_DEALER, pin="0000"))
        assert locked.error == "RoleLockedOut" and locked.locked_until_ms > 0
        table.sign_in(pb.DEALER_ROLE_SUPERVISOR, "5555", "8642")  # the other role still enters
        table.view(lambda v: v.seats_in == SEATS)
        table.ok(new_game=pb.NewGame())
        table.view(lambda v: v.seats_bet == SEATS)  # a wager sent while paused is refused
        table.ok(pause=pb.PauseTable(reason="cards changed"))
        paused = table.view(lambda v: v.paused)
        assert paused.pause_reason == "cards changed" and paused.paused_time_left_ms > 0
        assert table.ask(close_bets=pb.CloseBets(game_number=1)).error == "IllegalCommandError"
        table.ok(resume=pb.ResumeTable())
        view = table.view(lambda v: not v.paused)
        table.ok(close_bets=pb.CloseBets(game_number=view.game_number))
        game = view.game_number
        table.ok(lay_pack=pb.LayPack(game_number=game, pack=1, cards=[0, 13, 26]))
        table.ok(lay_pack=pb.LayPack(game_number=game, pack=2, cards=[1, 13, 27]))
        tilted = table.view(lambda v: v.HasField("tilt"))
        assert "card 13 twice in the round" in tilted.tilt.reason
        table.ok(reread=pb.ReRead(game_number=game, pack=2))
        table.ok(lay_pack=pb.LayPack(game_number=game, pack=2, cards=[1, 14, 27]))
        table.ok(lay_pack=pb.LayPack(game_number=game, pack=3, cards=[2, 15, 28]))
        table.view(lambda v: v.phase == "dealing")
        table.ok(lay_pack=pb.LayPack(game_number=game, pack=4, cards=[40, 41, 42]))
        table.ok(confirm=pb.ConfirmRound(game_number=game))
        table.wait_robots(lambda r: r.stats.rounds == 1)
        assert all(r.stats.disagreements == 0 for r in table.robots)
        (recalled,) = table.dealer.recalled(count=5)
        assert list(recalled.first_cards) == [0, 13, 26, 1, 14, 27, 2, 15, 28]
        assert list(recalled.shared_cards) == [40, 41, 42]
    finally:
        table.close()
