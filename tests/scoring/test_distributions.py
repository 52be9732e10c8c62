"""Exact distributions of the scores, derived combinatorially and by enumeration.

Suit S holds 4 cards of 4 icons (J Q K A), 5 of 2 (6..T) and 4 of 1 (2..5); the other 39
cards carry none.  A hand of n cards with n4, n2, n1 cards of each kind has
4*n4 + 2*n2 + n1 icons, and there are C(4,n4) C(5,n2) C(4,n1) C(39, n-n4-n2-n1) such hands.
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import pytest

from kiosk.kernel.scoring import count_icons, score_turbo
from tests.micropython.scoring_checks import THREE_CARD_ICON_COUNTS

SUITS = range(4)


def icon_distribution(cards: int) -> dict[int, int]:
    """Number of ``cards``-card hands with each icon total, by the formula above."""
    counts: Counter[int] = Counter()
    for n4, n2, n1 in itertools.product(range(5), range(6), range(5)):
        n0 = cards - n4 - n2 - n1
        if n0 >= 0:
            ways = comb(4, n4) * comb(5, n2) * comb(4, n1) * comb(39, n0)
            counts[4 * n4 + 2 * n2 + n1] += ways
    return dict(counts)


def test_formula_by_hand() -> None:
    three = icon_distribution(3)
    assert three[0] == comb(39, 3) == 9139  # three off-suit cards
    assert three[1] == 4 * comb(39, 2) == 2964  # one of 2..5
    assert three[12] == comb(4, 3) == 4  # three of J Q K A
    assert three[10] == comb(4, 2) * 5 == 30  # two of J Q K A and one of 6..T
    nine = icon_distribution(9)
    assert nine[0] == comb(39, 9) == 211_915_132
    assert nine[26] == 1  # J Q K A and 6 7 8 9 T of suit S: the maximum
    assert nine[25] == 5 * 4 == 20  # J Q K A, four of 6..T, one of 2..5
    assert sum(three.values()) == comb(52, 3)
    assert sum(nine.values()) == comb(52, 9)


@pytest.mark.parametrize("suit", SUITS)
def test_three_card_icon_counts(suit: int) -> None:
    counted = Counter(count_icons(hand, suit) for hand in itertools.combinations(range(52), 3))
    assert dict(counted) == icon_distribution(3) == THREE_CARD_ICON_COUNTS


def nine_card_distribution(suit: int) -> Counter[tuple[int, int, int]]:
    """Number of the C(52,9) hands with each score_turbo result.

    The result depends only on the set of ranks held in the suit; for a set of k ranks there
    are C(39, 9-k) hands.  One representative hand is scored per set.
    """
    others = [code for code in range(52) if code & 3 != suit]
    distribution: Counter[tuple[int, int, int]] = Counter()
    for mask in range(1 << 13):
        suited = [rank * 4 + suit for rank in range(13) if mask >> rank & 1]
        if len(suited) <= 9:
            hand = tuple(suited + others[: 9 - len(suited)])
            distribution[score_turbo(hand, suit)] += comb(39, 9 - len(suited))
    return distribution


@pytest.mark.parametrize("suit", SUITS)
def test_nine_card_distributions(suit: int) -> None:
    distribution = nine_card_distribution(suit)
    assert sum(distribution.values()) == comb(52, 9)

    icons: Counter[int] = Counter()
    suited: Counter[int] = Counter()
    runs: Counter[int] = Counter()
    for (total, count, run), hands in distribution.items():
        icons[total] += hands
        suited[count] += hands
        runs[run] += hands
    assert dict(icons) == icon_distribution(9)
    assert dict(suited) == {k: comb(13, k) * comb(39, 9 - k) for k in range(10)}
    # 9-card straight flush: 9 consecutive of A(low),2,...,K,A(high): starts A, 2, ..., 6.
    assert runs[9] == 6
    # Exactly 8 consecutive: 7 windows (A-8, 2-9, ..., 7-A) and a ninth card that does not
    # extend the run: 39 off-suit cards, or a suited card not next to the window: 4 for the
    # two end windows (one neighbour), 3 for the five others (two neighbours).
    assert runs[8] == 7 * 39 + 2 * 4 + 5 * 3 == 296
    assert runs[0] == comb(39, 9)


def test_community_raise_threshold() -> None:
    # "at most 5 icons" in the 3 community cards allows the Raise: 22,100 - 1,226 sets.
    at_most_five = sum(n for k, n in icon_distribution(3).items() if k <= 5)
    assert at_most_five == 20_874
    counted = sum(1 for hand in itertools.combinations(range(52), 3) if count_icons(hand, 0) <= 5)
    assert counted == at_most_five
