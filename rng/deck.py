"""The virtual deck: shuffled fresh for every game round, dealt from the top on demand.

Cards are the codes ``0..size-1`` (``0..51`` for the standard deck; what a code means is the
games' business).  :meth:`Deck.new_round` gathers every card and shuffles the whole deck with
the generator's Fisher-Yates shuffle; :meth:`Deck.deal` takes cards off the top in the order
the game asks for them.  Nothing is dealt before a round has started.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import NoReturn, Protocol

STANDARD_DECK_SIZE = 52


class DeckError(RuntimeError):
    """A deal the deck cannot make (no round started, or too few cards left)."""


class Shuffler(Protocol):
    """What the deck needs from the generator."""

    def shuffle(self, items: MutableSequence[int]) -> None: ...


class Deck:
    """A deck of ``size`` card codes dealt from one shuffle per round."""

    __slots__ = ("_cards", "_next", "_rng", "size")

    def __init__(self, rng: Shuffler, size: int = STANDARD_DECK_SIZE) -> None:
        if not isinstance(size, int) or not 1 <= size <= 1 << 16:
            raise ValueError(f"deck size must be 1..65536, not {size!r}")
        self._rng = rng
        self.size = size
        self._cards: list[int] = []
        self._next = 0

    def new_round(self) -> None:
        """Gather all cards and shuffle the full deck for a new game round."""
        cards = list(range(self.size))
        self._rng.shuffle(cards)
        self._cards, self._next = cards, 0

    def shuffle(self) -> None:
        """Reshuffle the cards not yet dealt this round (dealt cards stay dealt)."""
        self._require_round()
        rest = self._cards[self._next :]
        self._rng.shuffle(rest)
        self._cards[self._next :] = rest

    def deal(self, n: int = 1) -> tuple[int, ...]:
        """The next ``n`` cards from the top of the deck."""
        self._require_round()
        if not isinstance(n, int) or n < 0:
            raise DeckError(f"cannot deal {n!r} cards")
        if n > self.remaining:
            raise DeckError(f"cannot deal {n} cards: {self.remaining} left in the deck")
        start = self._next
        self._next = start + n
        return tuple(self._cards[start : self._next])

    @property
    def remaining(self) -> int:
        """Cards left to deal this round (0 before the first round)."""
        return len(self._cards) - self._next

    @property
    def dealt(self) -> tuple[int, ...]:
        """The cards dealt so far this round, in order."""
        return tuple(self._cards[: self._next])

    def _require_round(self) -> None:
        if not self._cards:
            raise DeckError("no round started: call new_round() before dealing")

    def __repr__(self) -> str:
        return f"<Deck {self.size} cards, {self.remaining} remaining>"

    def __reduce_ex__(self, protocol: object) -> NoReturn:
        raise TypeError("a deck's undealt order must never be serialised")
