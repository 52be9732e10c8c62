"""Tables, bets and decks for the table tests (real rules, the certified RNG's deck)."""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter
from collections.abc import Iterator

import grpc

from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.registry import load_game
from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core import events as te
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import DealMode, TableConfig
from kiosk.table.core.events import Bet
from kiosk.terminal.hostlink import pki
from kiosk.terminal.runtime.deck import RngDeckFactory
from proto.turbokiosk.v1 import table_pb2 as pb
from proto.turbokiosk.v1 import table_pb2_grpc
from rng import Csprng

TURBO = "turbo-football"
STADIUM = "stadium-3cp"


def config(
    edition: str = STADIUM, mode: DealMode = DealMode.SHARED, max_seats: int = 200
) -> TableConfig:
    return TableConfig(
        "T1", edition, mode=mode, betting_ms=1000, decision_ms=1000, max_seats=max_seats
    )


def stadium_bet(ante: int = 100, positions: tuple[int, ...] = (0, 4, 8), pairs: int = 0) -> Bet:
    wagers = [("ante", ante)] + ([("pairs_plus", pairs)] if pairs else [])
    return Bet(tuple(sorted(wagers)), positions)


def turbo_bet(stake: int = 100, bonus: int = 0) -> Bet:
    wagers = [("first_down", stake)] + ([("nine_card_bonus", bonus)] if bonus else [])
    return Bet(tuple(sorted(wagers)))


class CountingDecks:
    """The certified RNG's round decks, counting every card dealt."""

    def __init__(self) -> None:
        self.factory = RngDeckFactory(Csprng())
        self.dealt = 0
        self.fail = False

    def __call__(self, excluded: frozenset[int]) -> CountingDecks.Counted:
        if self.fail:
            from rng import RngFailure

            raise RngFailure("health test failed (test)")
        return CountingDecks.Counted(self, self.factory(excluded))

    class Counted:
        def __init__(self, owner: CountingDecks, deck: object) -> None:
            self.owner, self.deck = owner, deck

        def deal(self, n: int) -> tuple[int, ...]:
            cards: tuple[int, ...] = self.deck.deal(n)  # type: ignore[attr-defined]
            self.owner.dealt += n
            return cards


class SeededDecks:
    """The certified :class:`rng.Deck` shuffled by a seeded generator (reproducible examples);
    each call is a fresh full shuffle dealing past the excluded cards, like the runtime's."""

    def __init__(self, seed: int) -> None:
        import random

        self.random = random.Random(seed)
        self.dealt = 0

    def __call__(self, excluded: frozenset[int]) -> SeededDecks.Round:
        from rng import Deck

        deck = Deck(self.random)
        deck.new_round()
        return SeededDecks.Round(self, deck, excluded)

    class Round:
        def __init__(self, owner: SeededDecks, deck: object, excluded: frozenset[int]) -> None:
            self.owner, self.deck, self.excluded = owner, deck, excluded

        def deal(self, n: int) -> tuple[int, ...]:
            out: list[int] = []
            while len(out) < n:
                (card,) = self.deck.deal(1)  # type: ignore[attr-defined]
                if card not in self.excluded:
                    out.append(card)
            self.owner.dealt += n
            return tuple(out)


def play(ctl: TableController, games: int, seats: int = 3, start: int = 0) -> None:
    """``games`` Stadium rounds with ``seats`` seats, each folding or playing."""
    now = start
    for seat in range(seats):
        ctl.execute(c.Join(seat), now)
    for _ in range(games):
        events = ctl.execute(c.OpenRound(), now)
        game = next(ev.game_number for ev in events if isinstance(ev, te.RoundOpened))
        for seat in range(seats):
            ctl.execute(c.ReportWager("T1", game, seat, stadium_bet(ante=100 + seat)), now + 10)
        ctl.execute(c.Tick(), now + 1000)
        for seat in range(seats):
            ctl.execute(
                c.ReportDecision("T1", game, seat, "play" if seat % 2 else "fold"), now + 1100
            )
        ctl.execute(c.Tick(), now + 2000)
        ctl.execute(c.CloseRound(), now + 2500)
        now += 3000


class SeatClient:
    """A seat's stream: requests put on a queue, responses read by a thread."""

    def __init__(self, address: str, creds: pki.Credentials) -> None:
        self.channel = grpc.secure_channel(
            address,
            grpc.ssl_channel_credentials(creds.ca, creds.key, creds.cert),
            options=[("grpc.ssl_target_name_override", pki.TABLE_SERVER_NAME)],
        )
        stub = table_pb2_grpc.TableServiceStub(self.channel)
        self.requests: queue.Queue[pb.SeatRequest | None] = queue.Queue()
        self.responses: queue.Queue[pb.SeatResponse | grpc.RpcError] = queue.Queue()
        self.call = stub.Seat(self._outgoing())
        threading.Thread(target=self._read, daemon=True).start()

    def _outgoing(self) -> Iterator[pb.SeatRequest]:
        while (request := self.requests.get()) is not None:
            yield request

    def _read(self) -> None:
        try:
            for response in self.call:
                self.responses.put(response)
        except grpc.RpcError as exc:
            self.responses.put(exc)

    def send(self, **body: object) -> None:
        self.requests.put(pb.SeatRequest(**body))  # type: ignore[arg-type]

    def next(self, kind: str, timeout: float = 10.0) -> pb.SeatResponse:
        end = time.monotonic() + timeout
        while True:
            got = self.responses.get(timeout=max(0.0, end - time.monotonic()))
            if isinstance(got, grpc.RpcError):
                raise got
            if got.WhichOneof("body") == kind:
                return got

    def close(self) -> None:
        self.requests.put(None)
        self.call.cancel()
        self.channel.close()


def wait_for(predicate: object, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def ante(seat: int, cents: int) -> pb.ReportWager:
    return pb.ReportWager(
        table_id="T1",
        game_number=1,
        seat=seat,
        wagers=[pb.Wager(spot="ante", cents=cents)],
        positions=[seat, seat + 3, seat + 6],
    )


def check_journal(cfg: TableConfig, events: list[e.Event]) -> None:
    """No doubled report, no card dealt twice, every result the pure rules' result."""
    game = load_game(cfg.edition)
    wagers = Counter((ev.game_number, ev.seat) for ev in events if isinstance(ev, e.WagerAccepted))
    assert all(n == 1 for n in wagers.values())
    decided = Counter((ev.game_number, ev.seat) for ev in events if isinstance(ev, e.DecisionMade))
    for ev in events:
        if isinstance(ev, e.DecisionsClosed):
            for seat, _ in ev.defaulted:
                decided[(ev.game_number, seat)] += 1
    assert all(n == 1 for n in decided.values())
    bets: dict[tuple[int, int], e.Bet] = {}
    choices: dict[tuple[int, int], str] = {}
    first: dict[int, tuple[int, ...]] = {}
    for ev in events:
        if isinstance(ev, e.WagerAccepted):
            bets[(ev.game_number, ev.seat)] = ev.bet
        elif isinstance(ev, e.DecisionMade):
            choices[(ev.game_number, ev.seat)] = ev.choice
        elif isinstance(ev, e.DecisionsClosed):
            choices.update({(ev.game_number, seat): ch for seat, ch in ev.defaulted})
        elif isinstance(ev, e.FirstDealt):
            assert ev.game_number not in first  # cards drawn once per round
            first[ev.game_number] = ev.cards
        elif isinstance(ev, e.SecondDealt):
            hands = [first[ev.game_number] + cards for _, cards in ev.seat_cards]
            if cfg.mode is DealMode.STADIUM:
                assert all(len(set(h)) == len(h) for h in hands)
            else:
                every = first[ev.game_number] + ev.shared
                every += tuple(x for _, cards in ev.seat_cards for x in cards)
                assert len(set(every)) == len(every)
        elif isinstance(ev, e.RoundSettled):
            for out in ev.outcomes:
                key = (ev.game_number, out.seat)
                bet = bets[key]
                offered = game.offer(SeatBet(dict(bet.wagers), bet.positions), first[key[0]])
                choice = choices[key] if offered else None
                assert out.choice == choice
                shared = next(
                    x.shared
                    for x in events
                    if isinstance(x, e.SecondDealt) and x.game_number == ev.game_number
                )
                pure = game.settle(
                    SeatBet(dict(bet.wagers), bet.positions),
                    first[key[0]],
                    choice,
                    out.cards,
                    shared,
                )
                assert [(w.spot, w.stake, w.paid) for w in out.wagers] == [
                    (r.spot, r.stake, r.paid) for r in pure.results
                ]
