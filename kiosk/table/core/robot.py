"""A robot seat: a real seat of a table played through the real protocol (demos, soak, load).

A :class:`RobotSeat` is a gRPC client over mutual TLS with its own seat certificate
(``seat-<n>``, the host's CA tooling).  It joins, reports a random valid bet when a round opens
(its credits are debited **before** it reports, as a terminal journals before it tells), takes
a random choice of its offer, and when it is settled recomputes its result from the cards it was
sent with the same pure rules (:func:`kiosk.kernel.games.registry.load_game`); a result that differs
is counted in ``disagreements`` (the robot keeps its own figure).  It keeps its own credits in
integer cents; ``at_stake`` is what it has wagered in a round not settled yet.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import grpc

from kiosk.kernel.games.base import RuleError, SeatBet
from kiosk.kernel.games.registry import load_game
from kiosk.terminal.hostlink import pki
from proto.turbokiosk.v1 import table_pb2 as pb
from proto.turbokiosk.v1 import table_pb2_grpc

#: the stakes a robot picks from, in cents
STAKES = (100, 200, 500)


@dataclass
class _Round:
    """What the robot knows of the round it plays."""

    game_number: int
    bet: SeatBet
    first: tuple[int, ...] = ()
    choice: str | None = None
    seat_cards: tuple[int, ...] = ()
    shared: tuple[int, ...] = ()
    extra: int = 0
    take: str = ""
    accepted: bool = False


@dataclass
class RobotStats:
    """A robot's own books (cents and counts)."""

    credits: int
    at_stake: int = 0
    rounds: int = 0
    voided: int = 0
    refused: int = 0
    disagreements: int = 0
    settled_games: list[int] = field(default_factory=list)


class RobotSeat:
    """One robot seat on its own gRPC stream (a reader thread answers every step)."""

    def __init__(
        self,
        address: str,
        credentials: pki.Credentials,
        table_id: str,
        seat: int,
        edition: str,
        *,
        credits: int = 100_000,
        seed: int | None = None,
    ) -> None:
        self.table_id, self.seat = table_id, seat
        self.game = load_game(edition)
        self.random = random.Random(seed)
        self.stats = RobotStats(credits)
        self._round: _Round | None = None
        self._lock = threading.Lock()
        self.channel = grpc.secure_channel(
            address,
            grpc.ssl_channel_credentials(credentials.ca, credentials.key, credentials.cert),
            options=[("grpc.ssl_target_name_override", pki.TABLE_SERVER_NAME)],
        )
        self._requests: queue.Queue[pb.SeatRequest | None] = queue.Queue()
        stub = table_pb2_grpc.TableServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self._call = stub.Seat(self._outgoing())
        self.error: grpc.RpcError | None = None
        self.done = threading.Event()
        self._requests.put(pb.SeatRequest(join=pb.JoinTable(table_id=table_id, seat=seat)))
        self._reader = threading.Thread(target=self._read, name=f"robot-{seat}", daemon=True)
        self._reader.start()

    # -- the stream -------------------------------------------------------------------------

    def _outgoing(self) -> Iterator[pb.SeatRequest]:
        while (request := self._requests.get()) is not None:
            yield request

    def _read(self) -> None:
        try:
            for step in self._call:
                with self._lock:
                    self.on_step(step)
        except grpc.RpcError as exc:
            if exc.code() is not grpc.StatusCode.CANCELLED:
                self.error = exc
        finally:
            self.done.set()

    def close(self) -> None:
        """Stand up: end the stream."""
        self._requests.put(None)
        self._call.cancel()
        self.channel.close()
        self._reader.join(timeout=5)

    # -- the play ---------------------------------------------------------------------------

    def on_step(self, step: pb.SeatResponse) -> None:
        """Answer one step of the table (called on the reader thread)."""
        kind = step.WhichOneof("body")
        rnd = self._round
        if kind == "round_opened":
            self._wager(step.game_number)
        elif rnd is None or step.game_number != rnd.game_number:
            self.stats.refused += kind == "refused"
        elif kind == "wager_accepted":
            rnd.accepted = True
        elif kind == "refused" or (
            kind == "bets_closed" and self.seat not in step.bets_closed.seats
        ):
            self.stats.refused += kind == "refused"
            if not rnd.accepted:  # never taken: the wager comes back to the credits
                self.stats.credits += self.stats.at_stake
                self.stats.at_stake = 0
                self._round = None
        elif kind == "first_dealt":
            rnd.first = tuple(step.first_dealt.cards)
            if step.first_dealt.HasField("offer"):
                offer = step.first_dealt.offer
                rnd.extra, rnd.take = offer.extra_wager_cents, offer.take
                choice = self.random.choice(list(offer.choices))
                if choice == rnd.take and rnd.extra > self.stats.credits:
                    choice = offer.default_choice
                self._send(
                    decision=pb.ReportDecision(
                        table_id=self.table_id,
                        game_number=rnd.game_number,
                        seat=self.seat,
                        choice=choice,
                    )
                )
        elif kind == "decision_accepted":
            self._decided(rnd, step.decision_accepted.choice)
        elif kind == "decisions_closed" and step.decisions_closed.defaulted:
            self._decided(rnd, step.decisions_closed.choice)
        elif kind == "second_dealt":
            rnd.seat_cards = tuple(step.second_dealt.seat_cards)
            rnd.shared = tuple(step.second_dealt.shared_cards)
        elif kind == "seat_settled":
            self._settle(rnd, step.seat_settled)
        elif kind == "round_voided":
            self.stats.credits += step.round_voided.returned_cents
            self.stats.at_stake = 0
            self.stats.voided += 1
            self._round = None

    def _wager(self, game_number: int) -> None:
        bet = self._random_bet()
        if bet is None or bet.total > self.stats.credits:
            self._round = None
            return
        self.stats.credits -= bet.total  # committed before it is reported
        self.stats.at_stake = bet.total
        self._round = _Round(game_number, bet)
        self._send(
            wager=pb.ReportWager(
                table_id=self.table_id,
                game_number=game_number,
                seat=self.seat,
                wagers=[pb.Wager(spot=s, cents=c) for s, c in sorted(bet.wagers.items())],
                positions=bet.positions,
            )
        )

    def _random_bet(self) -> SeatBet | None:
        positions = tuple(sorted(self.random.sample(range(9), 3))) if self.game.positions else ()
        for _ in range(4):
            wagers = {
                spot.id: self.random.choice(STAKES)
                for spot in self.game.spots
                if spot.mandatory or self.random.random() < 0.3
            }
            bet = SeatBet(wagers, positions)
            try:
                self.game.validate_bet(bet)
            except RuleError:
                continue
            return bet
        return None

    def _decided(self, rnd: _Round, choice: str) -> None:
        if rnd.choice is not None:
            return
        rnd.choice = choice
        if choice == rnd.take and rnd.extra:
            self.stats.credits -= rnd.extra
            self.stats.at_stake += rnd.extra

    def _settle(self, rnd: _Round, settled: pb.SeatSettled) -> None:
        mine = self.game.settle(rnd.bet, rnd.first, rnd.choice, rnd.seat_cards, rnd.shared)
        if (mine.total_stake, mine.total_paid) != (settled.stake_cents, settled.paid_cents):
            self.stats.disagreements += 1
        self.stats.credits += mine.total_paid  # the robot's own figure
        self.stats.at_stake = 0
        self.stats.rounds += 1
        self.stats.settled_games.append(rnd.game_number)
        self._round = None

    def _send(self, **body: object) -> None:
        self._requests.put(pb.SeatRequest(**body))  # type: ignore[arg-type]

    def summary(self) -> str:
        """One line of the robot's books."""
        with self._lock:
            s = self.stats
            return (
                f"robot seat-{self.seat}: credits {s.credits} at_stake {s.at_stake} "
                f"rounds {s.rounds} voided {s.voided} refused {s.refused} "
                f"disagreements {s.disagreements}"
            )
