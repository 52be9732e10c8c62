"""Three-card values and best-five categories, against independent reference evaluators."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.kernel.cards import cards
from kiosk.kernel.games import poker3

hands3 = st.lists(st.integers(0, 51), min_size=3, max_size=3, unique=True)
hands6 = st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True)


def reference_key3(hand):
    """Three-card ranking written from the rule text: (category, tie-break ranks)."""
    ranks = sorted((c // 4 for c in hand), reverse=True)
    suits = {c % 4 for c in hand}
    counts = Counter(ranks)
    if set(ranks) == {12, 1, 0}:
        straight_top = 1  # A-2-3: the ace plays low
    elif len(counts) == 3 and ranks[0] - ranks[2] == 2:
        straight_top = ranks[0]
    else:
        straight_top = None
    if straight_top is not None and len(suits) == 1:
        return (5, straight_top)
    if len(counts) == 1:
        return (4, ranks[0])
    if straight_top is not None:
        return (3, straight_top)
    if len(suits) == 1:
        return (2, *ranks)
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        return (1, pair, kicker)
    return (0, *ranks)


def reference_category5(hand5):
    """Five-card category written from the rule text."""
    ranks = sorted((c // 4 for c in hand5), reverse=True)
    flush = len({c % 4 for c in hand5}) == 1
    shape = sorted(Counter(ranks).values(), reverse=True)
    straight = len(set(ranks)) == 5 and (ranks[0] - ranks[4] == 4 or ranks == [12, 3, 2, 1, 0])
    if straight and flush:
        return 9 if ranks[0] == 12 and ranks[4] == 8 else 8
    if shape[0] == 4:
        return 7
    if shape[:2] == [3, 2]:
        return 6
    if flush:
        return 5
    if straight:
        return 4
    if shape[0] == 3:
        return 3
    if shape[:2] == [2, 2]:
        return 2
    return 1 if shape[0] == 2 else 0


def reference_best_of(hand):
    return max(reference_category5(five) for five in combinations(hand, 5))


def test_three_card_category_counts_are_the_published_ones():
    counts = Counter(poker3.category3(poker3.value3(h)) for h in combinations(range(52), 3))
    assert counts == {
        poker3.STRAIGHT_FLUSH: 48,
        poker3.THREE_OF_A_KIND: 52,
        poker3.STRAIGHT: 720,
        poker3.FLUSH: 1096,
        poker3.PAIR: 3744,
        poker3.HIGH_CARD: 16440,
    }


def test_value3_orders_every_hand_like_the_reference():
    hands = list(combinations(range(52), 3))
    by_value = sorted(hands, key=poker3.value3)
    keys = [reference_key3(h) for h in by_value]
    assert keys == sorted(keys)
    groups = Counter(poker3.value3(h) for h in hands)
    assert len(groups) == len(Counter(reference_key3(h) for h in hands))


@given(hands3, hands3)
def test_value3_compares_like_the_reference(a, b):
    va, vb = poker3.value3(a), poker3.value3(b)
    ka, kb = reference_key3(a), reference_key3(b)
    assert (va < vb) == (ka < kb)
    assert (va == vb) == (ka == kb)
    assert poker3.category3(va) == ka[0]


@given(hands3, st.permutations(range(3)))
def test_value3_ignores_card_order(hand, order):
    assert poker3.value3([hand[i] for i in order]) == poker3.value3(hand)


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("As 2h 3d", "2s 3h 4d"),  # A-2-3 is the lowest straight
        ("Js Qh Kd", "Qs Kh Ad"),  # Q-K-A is the highest
        ("Ks Ah 2d", "2s 3h 4d"),  # K-A-2 is no straight, just ace high
        ("Ah Kh Jh", "2s 3h 4d"),  # straight beats flush in three cards
        ("As Kh Jd", "2s 2h 3d"),  # any pair beats ace high
        ("Kc Kd Ah", "As Ad 2h"),  # the pair first, then the kicker
        ("As Ad 2h", "As Ad 3h"),
        ("Kh Th 8h", "Ah 3h 2h"),  # flushes compare card by card
        ("Kh Qs 9d", "Kh Qs Td"),
        ("Ks Qs Js", "As Ks Qs"),
        ("Qc Qd Qh", "Kc Kd Kh"),
    ],
)
def test_examples_of_the_ranking(lower, higher):
    assert poker3.value3(cards(lower)) < poker3.value3(cards(higher))


def test_suits_never_break_ties():
    assert poker3.value3(cards("As Kh 9d")) == poker3.value3(cards("Ac Kd 9s"))
    assert poker3.value3(cards("5s 5h 9d")) == poker3.value3(cards("5c 5d 9h"))


def test_ace_two_three_straight_flush_is_the_lowest_straight_flush():
    assert poker3.value3(cards("Ah 2h 3h")) < poker3.value3(cards("2h 3h 4h"))
    assert poker3.category3(poker3.value3(cards("Ah 2h 3h"))) == poker3.STRAIGHT_FLUSH


def test_dealer_qualifies_with_queen_high_or_better():
    assert poker3.dealer_qualifies(poker3.value3(cards("Qs 3h 2d")))
    assert not poker3.dealer_qualifies(poker3.value3(cards("Js Th 8d")))
    assert poker3.dealer_qualifies(poker3.value3(cards("2s 2h 3d")))
    assert poker3.dealer_qualifies(poker3.value3(cards("As 2h 3d")))  # a straight
    for hand in combinations(range(52), 3):
        value = poker3.value3(hand)
        high_card_queen = max(c // 4 for c in hand) >= 10
        expected = poker3.category3(value) > poker3.HIGH_CARD or high_card_queen
        assert poker3.dealer_qualifies(value) == expected


@pytest.mark.parametrize(
    ("hand", "plays"),
    [
        ("Qs 6h 4d", True),
        ("Qs 6h 3d", False),
        ("Qs 7h 2d", True),
        ("Js Th 9d", True),  # a straight
        ("Js Th 8d", False),
        ("Ks 3h 2d", True),
        ("2s 2h 3d", True),
        ("Qs 6s 3s", True),  # a flush
    ],
)
def test_q64_rule(hand, plays):
    assert poker3.q64_plays(poker3.value3(cards(hand))) is plays


@given(hands6)
def test_best_five_of_six_matches_the_reference(hand):
    assert poker3.best_five_category(hand) == reference_best_of(hand)


@pytest.mark.parametrize(
    ("hand", "category"),
    [
        ("Ts Js Qs Ks As 2h", poker3.ROYAL_FLUSH_5),
        ("9s Ts Js Qs Ks As", poker3.ROYAL_FLUSH_5),
        ("As 2s 3s 4s 5s Kd", poker3.STRAIGHT_FLUSH_5),
        ("9h 9d 9s 9c 2h 3h", poker3.FOUR_OF_A_KIND_5),
        ("9h 9d 9s 2c 2h 2d", poker3.FULL_HOUSE_5),
        ("2h 5h 7h 9h Jh Kd", poker3.FLUSH_5),
        ("Ah 2d 3s 4c 5h 5d", poker3.STRAIGHT_5),
        ("Ah Ad As 4c 7h 9d", poker3.THREE_OF_A_KIND_5),
        ("Ah Ad 4s 4c 7h 7d", poker3.TWO_PAIR_5),
        ("Ah Ad 4s 5c 7h 9d", poker3.ONE_PAIR_5),
        ("Ah Kd 4s 5c 7h 9d", poker3.HIGH_CARD_5),
        ("Kh Ad 2s 3c 4h 9d", poker3.HIGH_CARD_5),  # no wrap-around straight
    ],
)
def test_best_five_examples(hand, category):
    assert poker3.best_five_category(cards(hand)) == category


@pytest.mark.parametrize(
    ("hand", "message"),
    [((1, 2), "needs 3 cards"), ((1, 2, 3, 4), "needs 3 cards")],
)
def test_value3_refuses_other_sizes(hand, message):
    with pytest.raises(ValueError, match=message):
        poker3.value3(hand)


def test_check_cards_refuses_duplicates_and_non_cards():
    with pytest.raises(ValueError, match="twice"):
        poker3.check_cards((1, 1, 2))
    with pytest.raises(ValueError, match="not a card code"):
        poker3.check_cards((1, 52, 2))
    with pytest.raises(ValueError, match="not a card code"):
        poker3.check_cards((True, 5, 2))
