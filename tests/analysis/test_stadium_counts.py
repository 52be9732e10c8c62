"""Exact counts behind the Stadium par sheet, each checked by an independent path."""

from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from kiosk.kernel.analysis.stadium_counts import (
    ante_play_counts,
    best_five_counts,
    three_card_counts,
)
from kiosk.kernel.games import poker3
from kiosk.kernel.games.stadium_advice import q64_play
from tests.helpers.brute_force import brute_force_ante_play

# Published distributions of the best five cards (e.g. Wikipedia, "Poker probability").
FIVE_CARD = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
SEVEN_CARD = [
    23_294_460,
    58_627_800,
    31_433_400,
    6_461_620,
    6_180_020,
    4_047_644,
    3_473_184,
    224_848,
    37_260,
    4_324,
]
SIX_CARD = [
    6_612_900,
    9_730_740,
    2_532_816,
    732_160,
    361_620,
    205_792,
    165_984,
    14_664,
    1_656,
    188,
]


def test_three_card_counts():
    assert three_card_counts() == {0: 16_440, 1: 3_744, 2: 1_096, 3: 720, 4: 52, 5: 48}


def test_five_card_counts_are_the_published_ones():
    assert list(best_five_counts(5).values()) == FIVE_CARD


def test_seven_card_counts_are_the_published_ones():
    assert list(best_five_counts(7).values()) == SEVEN_CARD


def test_six_card_counts_cover_all_20358520_sets():
    counts = best_five_counts(6)
    assert list(counts.values()) == SIX_CARD
    assert sum(counts.values()) == comb(52, 6) == 20_358_520


def test_six_card_top_hands_by_hand_counting():
    counts = best_five_counts(6)
    # a royal flush and any sixth card
    assert counts[poker3.ROYAL_FLUSH_5] == 4 * 47
    # 36 lower straight flushes with any sixth card, less the 36 sets counted twice or better:
    # six suited in a row (32 sets hold two straight flushes, 4 hold the royal)
    assert counts[poker3.STRAIGHT_FLUSH_5] == 36 * 47 - 32 - 4
    # four of a kind and any two more cards (nothing better fits in six cards)
    assert counts[poker3.FOUR_OF_A_KIND_5] == 13 * comb(48, 2)
    # five or six of one suit, less the straight and royal flushes
    suited = 4 * (comb(13, 6) + comb(13, 5) * 39)
    assert counts[poker3.FLUSH_5] == suited - 4 * 47 - (36 * 47 - 36)


@pytest.mark.parametrize(
    "ranks",
    [
        (12, 0, 1, 2, 3, 4),  # A-2-3-4-5-6: wheels and six-high straights
        (7, 8, 9, 10, 11, 12),  # 9-T-J-Q-K-A: royal and king-high straight flushes
        (12, 0, 1, 5, 8, 10),  # gaps: no straight at all
    ],
)
def test_six_card_counts_on_a_reduced_deck_match_brute_force(ranks):
    deck = [r * 4 + s for r in ranks for s in range(4)]
    brute = [0] * 10
    for hand in combinations(deck, 6):
        brute[poker3.best_five_category(hand)] += 1
    assert list(best_five_counts(6, ranks).values()) == brute


@pytest.mark.slow
def test_six_card_counts_match_brute_force_over_all_20358520_sets():
    brute = [0] * 10
    category = poker3.best_five_category
    for hand in combinations(range(52), 6):
        brute[category(hand)] += 1
    assert brute == SIX_CARD


def test_best_five_counts_refuses_sizes_with_two_flush_suits():
    with pytest.raises(ValueError, match=r"k must be 5\.\.9"):
        best_five_counts(10)


def test_ante_play_counts_match_brute_force_over_all_407170400_pairs():
    counts = ante_play_counts(lambda hand, _ev: q64_play(hand), lambda _c: Fraction(0))
    played, folded = brute_force_ante_play()
    assert counts.folded == folded == 132_652_800
    assert {c: list(row) for c, row in counts.played.items()} == played
    assert counts.total == comb(52, 3) * comb(49, 3) == 407_170_400
    assert counts.played_hands == 14_900
