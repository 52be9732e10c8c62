"""Exact counting of icons in Turbo hands, by card class.

Icons depend only on which cards of suit S a hand holds, and only through each card's icon
value.  So the 52 cards fall into four classes — 39 cards of other suits (0 icons), 4 suit-S
cards 2-5 (1 icon), 5 suit-S cards 6-10 (2 icons), 4 suit-S cards J-A (4 icons) — and every
icon question is answered by counting *compositions*: how many cards of each class a hand holds.
A composition ``(k0, k1, k2, k4)`` of ``n`` cards stands for ``C(39,k0) C(4,k1) C(5,k2) C(4,k4)``
equally likely hands.

The community (3 cards) has 20 compositions; given one, the player's 6 cards come from the 49
others.  Enumerating both gives the exact joint law of (community, 9-card icons) over all
``C(52,3) * C(49,6)`` deals.  Icon values follow the seeds: 2-5 = 1, 6-10 = 2, J-A = 4.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from functools import cache
from math import comb

#: Cards per class in a full deck: other suits, suit S 2-5, suit S 6-10, suit S J-A.
CLASS_SIZES: tuple[int, int, int, int] = (39, 4, 5, 4)
#: Icons per card of each class.
CLASS_ICONS: tuple[int, int, int, int] = (0, 1, 2, 4)
#: Icons on a suit-S card by rank 0..12 (2..A).
ICONS_BY_RANK: tuple[int, ...] = (1, 1, 1, 1, 2, 2, 2, 2, 2, 4, 4, 4, 4)
COMMUNITY_CARDS = 3
SEAT_CARDS = 6
HAND_CARDS = COMMUNITY_CARDS + SEAT_CARDS
#: The most icons 9 cards can hold (4 J-A and 5 of 6-10 of suit S).
MAX_HAND_ICONS = 26
#: The most icons 3 cards can hold.
MAX_COMMUNITY_ICONS = 12

Composition = tuple[int, int, int, int]


def compositions(n: int, sizes: Composition = CLASS_SIZES) -> Iterator[Composition]:
    """Every way to take ``n`` cards from classes of the given sizes."""
    for k1 in range(min(n, sizes[1]) + 1):
        for k2 in range(min(n - k1, sizes[2]) + 1):
            for k4 in range(min(n - k1 - k2, sizes[3]) + 1):
                k0 = n - k1 - k2 - k4
                if k0 <= sizes[0]:
                    yield (k0, k1, k2, k4)


def ways(composition: Composition, sizes: Composition = CLASS_SIZES) -> int:
    """How many card sets have this composition."""
    return (
        comb(sizes[0], composition[0])
        * comb(sizes[1], composition[1])
        * comb(sizes[2], composition[2])
        * comb(sizes[3], composition[3])
    )


def icons_of(composition: Composition) -> int:
    """Icons held by any hand of this composition."""
    return composition[1] + 2 * composition[2] + 4 * composition[3]


def composition_of(cards: Iterable[int], suit: int) -> Composition:
    """The composition of actual card codes (``rank * 4 + suit``) for suit S = ``suit``."""
    counts = [0, 0, 0, 0]
    for code in cards:
        if code & 3 == suit:
            counts[(0, 1, 2, 0, 3)[ICONS_BY_RANK[code >> 2]]] += 1
        else:
            counts[0] += 1
    return (counts[0], counts[1], counts[2], counts[3])


@cache
def hand_icon_counts() -> dict[int, int]:
    """Icons in 9 cards -> number of the ``C(52, 9)`` hands holding exactly that many."""
    counts: dict[int, int] = {}
    for composition in compositions(HAND_CARDS):
        icons = icons_of(composition)
        counts[icons] = counts.get(icons, 0) + ways(composition)
    return dict(sorted(counts.items()))


@cache
def seat_icon_counts(community: Composition) -> dict[int, int]:
    """Icons in the player's 6 cards -> ways, given the community's composition.

    The counts sum to ``C(49, 6)``.
    """
    rest: Composition = (
        CLASS_SIZES[0] - community[0],
        CLASS_SIZES[1] - community[1],
        CLASS_SIZES[2] - community[2],
        CLASS_SIZES[3] - community[3],
    )
    counts: dict[int, int] = {}
    for seat in compositions(SEAT_CARDS, rest):
        icons = icons_of(seat)
        counts[icons] = counts.get(icons, 0) + ways(seat, rest)
    return dict(sorted(counts.items()))


@cache
def community_classes() -> tuple[tuple[Composition, int], ...]:
    """Every community composition with its number of 3-card sets (summing to ``C(52, 3)``)."""
    return tuple(
        sorted(
            ((c, ways(c)) for c in compositions(COMMUNITY_CARDS)),
            key=lambda item: (icons_of(item[0]), item[0]),
        )
    )


#: Net result per unit wagered as a function of (icons in 9 cards, icons in the community).
PayFunction = Callable[[int, int], Fraction]


def conditional_ev(pay: PayFunction, community: Composition) -> Fraction:
    """Exact expected net of a wager given the community's composition."""
    community_icons = icons_of(community)
    total = 0
    weighted = Fraction(0)
    for seat_icons, count in seat_icon_counts(community).items():
        weighted += count * pay(community_icons + seat_icons, community_icons)
        total += count
    return weighted / total


def expected(pay: PayFunction) -> Fraction:
    """Exact expected net of a wager over every deal."""
    total = sum(count for _, count in community_classes())
    return (
        sum((count * conditional_ev(pay, c) for c, count in community_classes()), Fraction(0))
        / total
    )
