"""Poker hand values for Three Card Poker (3-card hands) and the 6-Card Bonus (best 5 of 6).

Three-card hands rank, high to low: straight flush, three of a kind, straight, flush, pair, high
card.  The ace is high (Q-K-A is the highest straight) and also low in A-2-3, the *lowest*
straight; K-A-2 is not a straight.  :func:`value3` turns a hand into an int that orders hands
exactly as the game does: a higher value beats a lower one and equal values tie (suits never
break ties).

Five-card categories (for the best five of six or more cards) follow standard poker; the
ace plays high (10-J-Q-K-A, the royal flush when suited) or low (A-2-3-4-5).
"""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.kernel.cards import DECK_SIZE

# --- three-card hands -------------------------------------------------------------------------

HIGH_CARD, PAIR, FLUSH, STRAIGHT, THREE_OF_A_KIND, STRAIGHT_FLUSH = range(6)
CATEGORY3_NAMES = ("High card", "Pair", "Flush", "Straight", "Three of a kind", "Straight flush")
#: Pay-table keys of the three-card categories.
CATEGORY3_KEYS = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")

_CATEGORY_SHIFT = 12  # value = category << 12 | r1 << 8 | r2 << 4 | r3

_QUEEN, _SIX, _FOUR, _THREE, _TWO = 10, 4, 2, 1, 0


def _pack(category: int, r1: int = 0, r2: int = 0, r3: int = 0) -> int:
    return category << _CATEGORY_SHIFT | r1 << 8 | r2 << 4 | r3


#: The lowest hand with which the dealer qualifies: Queen high (Q-3-2).
DEALER_QUALIFIER = _pack(HIGH_CARD, _QUEEN, _THREE, _TWO)
#: The lowest hand the Q-6-4 strategy plays.
Q64 = _pack(HIGH_CARD, _QUEEN, _SIX, _FOUR)


def value3(hand: Sequence[int]) -> int:
    """Comparable value of three distinct cards (a higher value beats a lower; equal ties)."""
    if len(hand) != 3:
        raise ValueError(f"a three-card hand needs 3 cards, got {len(hand)}")
    a, b, c = sorted((x >> 2 for x in hand), reverse=True)
    flush = (hand[0] & 3) == (hand[1] & 3) == (hand[2] & 3)
    if a == c:
        return _pack(THREE_OF_A_KIND, a)
    if a == b or b == c:
        return _pack(PAIR, b, c if a == b else a)
    if a == b + 1 == c + 2:
        top = a
    elif a == 12 and b == 1 and c == 0:  # A-2-3: the ace plays low, 3 is the top card
        top = 1
    else:
        return _pack(FLUSH if flush else HIGH_CARD, a, b, c)
    return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, top)


def category3(value: int) -> int:
    """The category (``HIGH_CARD`` .. ``STRAIGHT_FLUSH``) of a :func:`value3` value."""
    return value >> _CATEGORY_SHIFT


def dealer_qualifies(value: int) -> bool:
    """Whether a dealer hand of this :func:`value3` value qualifies (Queen high or better)."""
    return value >= DEALER_QUALIFIER


def q64_plays(value: int) -> bool:
    """The Q-6-4 rule: play Q-6-4 or better, fold anything lower."""
    return value >= Q64


# --- best five of six (or more) cards -----------------------------------------------------------

(
    HIGH_CARD_5,
    ONE_PAIR_5,
    TWO_PAIR_5,
    THREE_OF_A_KIND_5,
    STRAIGHT_5,
    FLUSH_5,
    FULL_HOUSE_5,
    FOUR_OF_A_KIND_5,
    STRAIGHT_FLUSH_5,
    ROYAL_FLUSH_5,
) = range(10)
CATEGORY5_NAMES = (
    "High card",
    "One pair",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
    "Royal flush",
)
#: Pay-table keys of the five-card categories.
CATEGORY5_KEYS = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)

#: Rank bit masks of the ten straights, 5-high (A-2-3-4-5) first.
STRAIGHT_MASKS: tuple[int, ...] = (0b1_0000_0000_1111, *(0b11111 << low for low in range(9)))
ROYAL_MASK = 0b11111 << 8


def straight_in(rank_mask: int) -> bool:
    """Whether a 13-bit rank mask contains five consecutive ranks (A-2-3-4-5 included)."""
    return any(rank_mask & m == m for m in STRAIGHT_MASKS)


def suited_category(rank_mask: int) -> int:
    """Best category of five or more *suited* cards with these distinct ranks."""
    if rank_mask & ROYAL_MASK == ROYAL_MASK:
        return ROYAL_FLUSH_5
    return STRAIGHT_FLUSH_5 if straight_in(rank_mask) else FLUSH_5


def unsuited_category(counts: Sequence[int]) -> int:
    """Best category from rank multiplicities alone (``counts[r]`` cards of rank r), suits
    ignored: four of a kind, full house, straight, three of a kind, two pair, pair, high card."""
    pairs = trips = mask = 0
    for r, n in enumerate(counts):
        if n:
            mask |= 1 << r
            if n >= 4:
                return FOUR_OF_A_KIND_5
            if n == 3:
                trips += 1
            elif n == 2:
                pairs += 1
    if trips and (trips > 1 or pairs):
        return FULL_HOUSE_5
    if straight_in(mask):
        return STRAIGHT_5
    if trips:
        return THREE_OF_A_KIND_5
    if pairs:
        return TWO_PAIR_5 if pairs > 1 else ONE_PAIR_5
    return HIGH_CARD_5


def best_five_category(hand: Sequence[int]) -> int:
    """Category of the best five-card poker hand among five or more distinct cards."""
    if len(hand) < 5:
        raise ValueError(f"a five-card hand needs at least 5 cards, got {len(hand)}")
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    suit_counts = [0, 0, 0, 0]
    for code in hand:
        r = code >> 2
        counts[r] += 1
        suit_masks[code & 3] |= 1 << r
        suit_counts[code & 3] += 1
    best = unsuited_category(counts)
    for s in range(4):
        if suit_counts[s] >= 5:
            best = max(best, suited_category(suit_masks[s]))
    return best


def check_cards(hand: Sequence[int], what: str = "cards") -> None:
    """Raise ValueError unless ``hand`` holds distinct card codes 0..51."""
    for code in hand:
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < DECK_SIZE:
            raise ValueError(f"{what}: not a card code: {code!r}")
    if len(set(hand)) != len(hand):
        raise ValueError(f"{what}: a card appears twice")
