"""Playing cards as small integers.

A card is an int 0..51 with ``code = rank * 4 + suit``: rank 0..12 stands for 2..A and suit
0..3 for spades, hearts, diamonds, clubs.  Names are two characters, rank then suit: ``"As"``,
``"Td"``, ``"2c"``.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "shdc"
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
DECK_SIZE = 52
FULL_DECK: tuple[int, ...] = tuple(range(DECK_SIZE))
ACE = 12
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


class CardError(ValueError):
    """A card name or code that does not denote a card."""


def card(card_name: str) -> int:
    """The code of a card named like ``"As"`` (rank ``23456789TJQKA``, suit ``shdc``)."""
    if len(card_name) != 2 or card_name[0] not in RANKS or card_name[1] not in SUITS:
        raise CardError(f"not a card name: {card_name!r} (expected e.g. 'As', 'Td', '2c')")
    return RANKS.index(card_name[0]) * 4 + SUITS.index(card_name[1])


def name(code: int) -> str:
    """The two-character name of a card code, e.g. ``name(51) == "Ac"``."""
    if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < DECK_SIZE:
        raise CardError(f"not a card code: {code!r} (expected an int 0..51)")
    return RANKS[code >> 2] + SUITS[code & 3]


def rank(code: int) -> int:
    """Rank 0..12 (2..A) of a card code."""
    return code >> 2


def suit(code: int) -> int:
    """Suit 0..3 (s, h, d, c) of a card code."""
    return code & 3


def cards(names: str | Iterable[str]) -> tuple[int, ...]:
    """Codes of several cards, from ``"As Kd 2c"`` or an iterable of names."""
    parts = names.split() if isinstance(names, str) else list(names)
    return tuple(card(part) for part in parts)


def names(codes: Iterable[int]) -> str:
    """Space-separated names of several card codes."""
    return " ".join(name(code) for code in codes)


def suit_from_letter(letter: str) -> int:
    """Suit index from its letter ``s``, ``h``, ``d`` or ``c``."""
    if len(letter) != 1 or letter not in SUITS:
        raise CardError(f"not a suit letter: {letter!r} (expected one of 's', 'h', 'd', 'c')")
    return SUITS.index(letter)
