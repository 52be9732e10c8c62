"""Tables, bets and decks for the table tests (real rules, the certified RNG's deck)."""

from __future__ import annotations

from kiosk.runtime.deck import RngDeckFactory
from kiosk.table import commands as c
from kiosk.table import events as te
from kiosk.table.controller import TableController
from kiosk.table.core import DealMode, TableConfig
from kiosk.table.events import Bet
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
