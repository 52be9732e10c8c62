"""Manual cards: the dealer enters a pack on rank and suit buttons, then confirms it.

A sans-IO record of one pack being entered: :meth:`PackEntry.press_rank` and
:meth:`PackEntry.press_suit` choose a card, which goes into the pack as soon as both are
chosen, unless it is already on the layout or in the pack (refused with one line, nothing
changes).  :meth:`PackEntry.ready` says the pack is whole; the DT then sends it to the
controller, whose card check is the authority (this check only spares the dealer a round
trip).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kiosk.kernel.cards import RANKS, SUIT_NAMES, card
from kiosk.terminal.presentation.faces import RANK_TEXT, CardFace, face

#: the suit buttons' letters, in the order of kiosk.kernel.cards
SUIT_LETTERS = "shdc"
#: what each suit button shows
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")


@dataclass(frozen=True)
class PackEntry:
    """One pack being entered."""

    pack: int
    location: str
    size: int
    on_layout: frozenset[int]  # cards already on the layout this round
    cards: tuple[int, ...] = ()
    rank: int | None = None  # 0..12 (2..A), chosen and not yet used
    suit: int | None = None
    message: str = ""  # the last refusal or hint
    refused: bool = False

    def press_rank(self, rank: int) -> PackEntry:
        """A rank button (0..12 for 2..A)."""
        return self._choose(replace(self, rank=rank))

    def press_suit(self, suit: int) -> PackEntry:
        """A suit button (0..3: spades, hearts, diamonds, clubs)."""
        return self._choose(replace(self, suit=suit))

    def undo(self) -> PackEntry:
        """Take the last card back out of the pack (or clear a half-chosen card)."""
        if self.rank is not None or self.suit is not None:
            return replace(self, rank=None, suit=None, message="", refused=False)
        return replace(self, cards=self.cards[:-1], message="", refused=False)

    def _choose(self, entry: PackEntry) -> PackEntry:
        if entry.rank is None or entry.suit is None:
            return replace(entry, message="", refused=False)
        code = card(RANKS[entry.rank] + SUIT_LETTERS[entry.suit])
        cleared = replace(entry, rank=None, suit=None)
        label = card_words(code)
        if len(self.cards) >= self.size:
            return replace(cleared, message="The pack is full: confirm it or undo", refused=True)
        if code in self.on_layout:
            return replace(cleared, message=f"{label} is already on the layout", refused=True)
        if code in self.cards:
            return replace(cleared, message=f"{label} is already in this pack", refused=True)
        return replace(cleared, cards=(*self.cards, code), message="", refused=False)

    @property
    def ready(self) -> bool:
        """Every card of the pack is entered."""
        return len(self.cards) == self.size

    def faces(self) -> tuple[CardFace | None, ...]:
        """The pack's slots: the cards entered, then None for each still to come."""
        return tuple(face(x) for x in self.cards) + (None,) * (self.size - len(self.cards))

    def prompt(self) -> str:
        """What the dealer does next on this page."""
        if self.message:
            return self.message
        if self.ready:
            return "Check the pack, then press Confirm pack."
        chosen = ""
        if self.rank is not None:
            chosen = f"{RANK_TEXT[self.rank]}: now its suit"
        elif self.suit is not None:
            chosen = f"{SUIT_NAMES[self.suit].capitalize()}: now its rank"
        return chosen or f"Card {len(self.cards) + 1} of {self.size}: rank and suit"


def card_words(code: int) -> str:
    """``"Queen of hearts"``-style words for a card, e.g. ``"10 of spades"``."""
    named = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
    f = face(code)
    return f"{named.get(f.rank, f.rank)} of {SUIT_NAMES[f.suit]}"
