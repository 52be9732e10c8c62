"""Naive reference scorer for the tests: card names and the written rules, nothing shared.

Independent of ``kiosk.kernel.scoring`` (no tables, no bit masks): each card is turned into its name
with ``kiosk.kernel.cards.name`` and scored from its rank letter, and the longest run is found by
walking the ranks in the order A 2 3 ... K A.
"""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.kernel.cards import SUITS, name

# The ace appears at both ends: low (A-2-3) and high (Q-K-A).
RUN_ORDER = "A23456789TJQKA"


def icons_of(card_name: str, suit_letter: str) -> int:
    """Icons on one card, read off the rules' rank letters."""
    if card_name[1] != suit_letter:
        return 0
    if card_name[0] in "JQKA":
        return 4
    if card_name[0] in "6789T":
        return 2
    return 1


def longest_run(rank_letters: set[str]) -> int:
    """Longest run of consecutive ranks, ace high or low, no card used twice."""
    best = 0
    for start in range(len(RUN_ORDER)):
        used: set[str] = set()
        for letter in RUN_ORDER[start:]:
            if letter not in rank_letters or letter in used:
                break
            used.add(letter)
        best = max(best, len(used))
    return best


def reference_score(cards: Sequence[int], suit: int) -> tuple[int, int, int]:
    """``(icons, suited_count, longest_suited_run)`` the slow, obvious way."""
    suit_letter = SUITS[suit]
    names = [name(code) for code in cards]
    suited = [card_name for card_name in names if card_name[1] == suit_letter]
    icons = sum(icons_of(card_name, suit_letter) for card_name in names)
    return icons, len(suited), longest_run({card_name[0] for card_name in suited})
