"""A round's cards: all drawn from the certified RNG (:mod:`rng`) at its first deal, and sealed.

:class:`TerminalRuntime` deals a round from one sequence, every card of every stage and seat,
drawn when the round's first cards are needed.  The sequence is sealed at the signer with the
head of the commit that deals the first of them (:class:`kiosk.terminal.signer.records.RoundSeal`):
the
signer keeps it durably with its anchor, outside the store.  Whatever a cut of the store or a
power cut takes, the round deals the same cards again (they come from the seal), or the
terminal will not play it (:class:`SealBrokenError`, the critical memory lockup).  The store
holds only the cards dealt so far: a reader of it cannot see the dealer's cards ahead.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Protocol

from kiosk.terminal.core.events import canonical
from kiosk.terminal.core.records import SeatBetRecord
from kiosk.terminal.core.state import RoundState
from kiosk.terminal.signer.records import RoundSeal
from kiosk.terminal.store.faults import StoreError
from rng import Csprng, Deck


class SealBrokenError(StoreError):
    """The store's dealt cards are not the ones the round's seal holds: the round is not
    played (the critical memory lockup, with this reason)."""


class DeckLike(Protocol):
    """A shuffled deck that deals card codes on demand."""

    def deal(self, n: int) -> tuple[int, ...]:
        """The next ``n`` cards."""
        ...


#: makes a freshly shuffled deck without the given (already dealt) cards
DeckFactory = Callable[[frozenset[int]], DeckLike]


def dealt_cards(rnd: RoundState | None) -> tuple[int, ...]:
    """The round's cards dealt so far, in dealing order (first stage, each seat's, shared)."""
    if rnd is None:
        return ()
    per_seat = tuple(x for cards in rnd.seat_cards for x in cards)
    return (*rnd.first, *per_seat, *rnd.second_shared)


def round_cards(
    sealed: tuple[int, ...] | None,
    dealt: tuple[int, ...],
    total: int,
    deck_factory: DeckFactory,
    game_number: int,
) -> tuple[int, ...]:
    """Every card of the round, in dealing order: the sealed ones when the signer holds them,
    else the cards already dealt followed by a fresh draw of the rest (all of them at the
    round's first deal; the rest after a store of a release before seals)."""
    if sealed is not None:
        return sealed
    if total < len(dealt):
        raise SealBrokenError(f"game {game_number}: more cards dealt than the round deals")
    return (*dealt, *deck_factory(frozenset(dealt)).deal(total - len(dealt)))


def opening_of(rnd: RoundState) -> str:
    """The round's opening as its seal keeps it: the edition and each seat's wagers (JSON)."""
    bets = [record.to_json() for record in rnd.bets]
    return canonical({"edition": rnd.edition, "bets": bets})


def read_opening(opening: str) -> tuple[str, tuple[SeatBetRecord, ...]]:
    """The edition and the seats' bets of a sealed opening."""
    data = json.loads(opening)
    return str(data["edition"]), tuple(SeatBetRecord.from_json(b) for b in data["bets"])


def seal_conflict(held: RoundSeal | None, seal: RoundSeal) -> str | None:
    """Why the round may not go on as ``seal`` says against the held seal of the same round (a
    withdrawn commit opened it with other wagers, or decided otherwise), or None."""
    if held is None or (held.epoch, held.game_number) != (seal.epoch, seal.game_number):
        return None
    if held.opening and seal.opening != held.opening:
        return (
            f"game {seal.game_number} was dealt with other wagers in a commit the store lost: "
            "it is dealt again only with those"
        )
    made = dict(text.split(":", 1) for text in held.decisions)
    for text in seal.decisions:
        seat, choice = text.split(":", 1)
        if made.get(seat, choice).split(":")[0] != choice.split(":")[0]:
            return (
                f"game {seal.game_number}: seat {seat} decided {made[seat]} in a commit the "
                "store lost: the same decision is made again"
            )
    return None


def grown_seal(held: RoundSeal | None, seal: RoundSeal) -> RoundSeal | None:
    """``seal`` when it is news for the signer (a new round, or the held one grown), None when
    the held seal stands (the same, or ahead of the store after a withdrawn commit)."""
    if held is None or held.epoch != seal.epoch or held.game_number != seal.game_number:
        return seal
    if seal == held or held.grows_into(seal) is not None:
        return None
    return seal


class RoundDeck:
    """A full fresh shuffle, skipping the given cards: a uniformly random order of the rest."""

    def __init__(self, rng: Csprng, excluded: frozenset[int]) -> None:
        self._deck = Deck(rng)
        self._deck.new_round()
        self._excluded = excluded

    def deal(self, n: int) -> tuple[int, ...]:
        """The next ``n`` cards not excluded."""
        out: list[int] = []
        while len(out) < n:
            (card,) = self._deck.deal(1)
            if card not in self._excluded:
                out.append(card)
        return tuple(out)


class RngDeckFactory:
    """Makes a :class:`RoundDeck` per round from one generator."""

    def __init__(self, rng: Csprng) -> None:
        self.rng = rng

    def __call__(self, excluded: frozenset[int]) -> RoundDeck:
        return RoundDeck(self.rng, excluded)
