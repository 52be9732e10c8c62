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

from kiosk.kernel.cards import RANKS, card
from kiosk.table.presentation.i18n_dealer import DEALER_TEXTS, text
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
    message: str = ""  # the last refusal: a catalogue key, or the controller's own words
    about: int | None = None  # the card the refusal names
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
        if len(self.cards) >= self.size:
            return replace(cleared, message="entry_full", refused=True)
        if code in self.on_layout:
            return replace(cleared, message="entry_on_layout", about=code, refused=True)
        if code in self.cards:
            return replace(cleared, message="entry_in_pack", about=code, refused=True)
        return replace(cleared, cards=(*self.cards, code), message="", refused=False)

    @property
    def ready(self) -> bool:
        """Every card of the pack is entered."""
        return len(self.cards) == self.size

    def faces(self) -> tuple[CardFace | None, ...]:
        """The pack's slots: the cards entered, then None for each still to come."""
        return tuple(face(x) for x in self.cards) + (None,) * (self.size - len(self.cards))

    def prompt(self, lang: str = "en") -> str:
        """What the dealer does next on this page, in ``lang``."""
        if self.message in DEALER_TEXTS["en"]:
            about = card_words(self.about, lang) if self.about is not None else ""
            return text(lang, self.message, card=about)
        if self.message:  # the controller's refusal, in its words
            return self.message
        if self.ready:
            return text(lang, "entry_ready")
        if self.rank is not None:
            return text(lang, "entry_suit_next", rank=RANK_TEXT[self.rank])
        if self.suit is not None:
            return text(lang, "entry_rank_next", suit=text(lang, f"suit_{self.suit}"))
        return text(lang, "entry_card", n=len(self.cards) + 1, size=self.size)


def card_words(code: int, lang: str = "en") -> str:
    """``"Queen of hearts"``-style words for a card, e.g. ``"10 of spades"``."""
    f = face(code)
    rank = text(lang, f"rank_{f.rank}") if f.rank in "JQKA" else f.rank
    return text(lang, "card_words", rank=rank, suit=text(lang, f"suit_name_{f.suit}"))
