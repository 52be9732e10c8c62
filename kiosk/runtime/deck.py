"""Round decks from the certified RNG (:mod:`rng`), for :class:`TerminalRuntime`."""

from __future__ import annotations

from rng import Csprng, Deck


class RoundDeck:
    """One round's deck: a full fresh shuffle, skipping cards the journal says were dealt.

    After a power cut in mid-round the cards already journaled stay dealt; the rest of the round
    comes from a new shuffle of the full deck with those cards passed over, which is a uniformly
    random order of the cards that remain.
    """

    def __init__(self, rng: Csprng, excluded: frozenset[int]) -> None:
        self._deck = Deck(rng)
        self._deck.new_round()
        self._excluded = excluded

    def deal(self, n: int) -> tuple[int, ...]:
        """The next ``n`` cards not already dealt."""
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
