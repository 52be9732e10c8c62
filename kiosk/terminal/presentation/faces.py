"""Cards as a player sees them: rank, suit, colour and the icons the edition draws on them."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.kernel.cards import name, rank, suit
from kiosk.kernel.scoring import count_icons

#: Rank as printed on a card face (rank 0..12 is 2..A).
RANK_TEXT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HEARTS_OR_DIAMONDS = frozenset({1, 2})


@dataclass(frozen=True)
class CardFace:
    """One face-up card."""

    code: int  # 0..51 (kiosk.kernel.cards)
    name: str  # "As"
    rank: str  # "A", "10", "7"
    suit: int  # 0..3: spades, hearts, diamonds, clubs
    red: bool
    icons: int  # icons the card carries in a Turbo edition (0: none, or not a Turbo game)


def face(code: int, icon_suit: int | None = None) -> CardFace:
    """The face of card ``code``; ``icon_suit`` is suit S of a Turbo edition (None otherwise)."""
    s = suit(code)
    icons = count_icons((code,), icon_suit) if icon_suit is not None else 0
    return CardFace(code, name(code), RANK_TEXT[rank(code)], s, s in HEARTS_OR_DIAMONDS, icons)
