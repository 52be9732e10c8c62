"""The runtime's side of the round seal (decision 0037): deal a round from the cards drawn at its
first deal, tell the signer what each commit adds to the round, and make again what a withdrawn
commit took (the round's opening, its decisions).

:class:`RoundSealing` is the runtime's memory of it: the round's cards in dealing order and the
newest seal the signer holds (as far as this process knows).  :func:`reopen` and
:func:`redecide` work a :class:`SealedRuntime` (the runtime's ``state`` and ``execute``).
"""

from __future__ import annotations

from typing import Protocol

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.state import Phase, RoundState, TerminalState
from kiosk.terminal.runtime.deck import (
    DeckFactory,
    SealBrokenError,
    dealt_cards,
    grown_seal,
    opening_of,
    read_opening,
    round_cards,
    seal_conflict,
)
from kiosk.terminal.signer.records import RoundSeal

#: the phases between rounds (a round cut before its commit is opened again from one)
BETWEEN_ROUNDS = frozenset({Phase.IDLE, Phase.RESULT, Phase.WAGERING})


class SealedRuntime(Protocol):
    """What :func:`reopen` and :func:`redecide` need of the runtime."""

    @property
    def state(self) -> TerminalState:
        """The terminal's state."""
        ...

    def execute(self, command: c.Command) -> list[e.Event]:
        """Carry out a command (journal, then effects)."""
        ...


class RoundSealing:
    """The round in play's cards and the seal the signer holds."""

    def __init__(self) -> None:
        #: every card of the round in play, in dealing order, and its game number
        self.cards: tuple[int, ...] = ()
        self.cards_round = -1
        #: the newest seal the signer holds (None: none known) and the store's epoch
        self.seal: RoundSeal | None = None
        self.epoch = 0
        self._reopen_failed: tuple[int, int] | None = None

    def reset(self, epoch: int, seal: RoundSeal | None) -> None:
        """A store opened (power-up) or started (RAM clear): its epoch and the signer's seal."""
        self.cards, self.cards_round = (), -1
        self.epoch, self.seal = epoch, seal
        self._reopen_failed = None

    def sealed_cards(self, game_number: int) -> tuple[int, ...] | None:
        """The cards the signer's seal holds for this round, if it holds them."""
        seal = self.seal
        if seal is None or seal.epoch != self.epoch or seal.game_number != game_number:
            return None
        return seal.cards

    def draw(self, core: TerminalCore, n: int, deck_factory: DeckFactory) -> tuple[int, ...]:
        """The (scratch) round's next ``n`` cards: all were drawn at its first deal, or are the
        ones its seal holds; SealBrokenError when the store's cards are not the sealed ones."""
        rnd = core.state.round
        assert rnd is not None
        dealt = dealt_cards(rnd)
        if self.cards_round != rnd.game_number:
            self.cards = round_cards(
                self.sealed_cards(rnd.game_number),
                dealt,
                core.round_cards(),
                deck_factory,
                rnd.game_number,
            )
            self.cards_round = rnd.game_number
        k = len(dealt)
        if self.cards[:k] != dealt or k + n > len(self.cards):
            raise SealBrokenError(
                f"game {rnd.game_number}: the cards in the store are not those sealed when "
                "drawn: the terminal will not play the round"
            )
        return self.cards[k : k + n]

    def seal_for(self, rnd: RoundState | None) -> RoundSeal | None:
        """The seal a step's commit brings to the signer (None: the held one stands);
        CommandError when the step would go against the held seal (other wagers, another
        decision for a round whose commit the store lost)."""
        if rnd is None or rnd.table_game or not self.epoch:
            return None
        cards = self.cards if self.cards_round == rnd.game_number else None
        cards = cards or self.sealed_cards(rnd.game_number)
        if not cards:
            return None
        decisions = tuple(
            sorted(
                f"{seat}:{choice}" + (":auto" if rnd.automatic.get(seat) else "")
                for seat, choice in rnd.choices.items()
            )
        )
        dealt = len(dealt_cards(rnd))
        seal = RoundSeal(self.epoch, rnd.game_number, cards, dealt, decisions, opening_of(rnd))
        conflict = seal_conflict(self.seal, seal)
        if conflict is not None:
            raise CommandError(conflict)
        return grown_seal(self.seal, seal)

    def committed(self, seal: RoundSeal | None) -> None:
        """A step's commit is in: the signer holds its seal (if it brought one)."""
        if seal is not None:
            self.seal = seal

    def withdrawn_game(self, rnd: RoundState | None) -> int:
        """The round whose sealed cards a withdrawn commit dealt (0: none): the seal has more
        of its cards dealt than the store."""
        seal = self.seal
        if seal is None or seal.epoch != self.epoch:
            return 0
        same = rnd is not None and rnd.game_number == seal.game_number
        in_store = len(dealt_cards(rnd)) if same else 0
        return seal.game_number if seal.dealt > in_store else 0

    def reopen(self, rt: SealedRuntime) -> str | None:
        """Open again the round whose opening commit the store lost after its cards were dealt:
        the sealed wagers, then the sealed cards.  What was done, or None."""
        seal, s = self.seal, rt.state
        if seal is None or seal.epoch != self.epoch or not seal.opening or not seal.dealt:
            return None
        if seal.game_number != s.game_number + 1 or s.phase not in BETWEEN_ROUNDS:
            return None
        if s.lockups() or self._reopen_failed == (seal.epoch, seal.game_number):
            return None  # tried once: the player's other wagers are refused (seal_for)
        edition, bets = read_opening(seal.opening)
        try:
            for seat in range(len(s.credits)):
                rt.execute(c.ClearWagers(seat=seat))
            if s.selected_edition != edition:
                rt.execute(c.SelectEdition(edition))
            for record in bets:
                if record.bet.positions:
                    rt.execute(c.SelectPositions(tuple(record.bet.positions), seat=record.seat))
                for spot, amount in record.bet.wagers.items():
                    rt.execute(c.PlaceWager(spot, amount, seat=record.seat))
            rt.execute(c.Deal())
        except CommandError as exc:
            self._reopen_failed = (seal.epoch, seal.game_number)
            return f"game {seal.game_number}: its sealed wagers could not be placed again: {exc}"
        return f"game {seal.game_number}: opened again with its sealed wagers and cards"

    def redecide(self, rt: SealedRuntime) -> list[str]:
        """Make again the decisions the seal holds and the store lost: with the same cards, the
        same outcome.  The decisions made."""
        seal, s = self.seal, rt.state
        rnd = s.round
        if seal is None or rnd is None or s.phase is not Phase.DECISION:
            return []
        if seal.epoch != self.epoch or seal.game_number != rnd.game_number:
            return []
        made = []
        for text in seal.decisions:
            seat_text, choice, *auto = text.split(":")
            seat = int(seat_text)
            if seat in rnd.choices or seat not in rnd.offers or s.lockups():
                continue
            rt.execute(c.Decide(choice=choice, seat=seat, automatic=bool(auto)))
            made.append(f"seat {seat} {choice}")
        return made
