"""kiosk.kernel.scoring against known answers and against the naive reference scorer."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.kernel import scoring
from kiosk.kernel.cards import cards as parse_cards
from kiosk.kernel.scoring import count_icons, score_turbo
from tests.micropython.scoring_checks import KNOWN_ANSWERS, codes, run_checks
from tests.scoring.reference import longest_run, reference_score

SUITS = range(4)


def test_micropython_checks_pass_on_cpython() -> None:
    # The same assertions run under MicroPython (tests/micropython/run_on_micropython.py).
    assert run_checks(scoring) > 170_000


def test_check_helper_agrees_with_kiosk_cards() -> None:
    for names, _suit, _expected in KNOWN_ANSWERS:
        assert tuple(codes(names)) == parse_cards(names)


@pytest.mark.parametrize(("names", "suit", "expected"), KNOWN_ANSWERS)
def test_reference_agrees_with_known_answers(
    names: str, suit: int, expected: tuple[int, int, int]
) -> None:
    assert reference_score(parse_cards(names), suit) == expected


@pytest.mark.parametrize(
    ("letters", "expected"),
    [
        ("", 0),
        ("A", 1),
        ("A2", 2),
        ("KA", 2),
        ("KA2", 2),  # no wrap-around
        ("QKA23", 3),
        ("A2345", 5),
        ("23456789TJQKA", 13),  # the ace is not used twice
        ("2468TQ", 1),
    ],
)
def test_reference_runs(letters: str, expected: int) -> None:
    assert longest_run(set(letters)) == expected


@pytest.mark.parametrize("suit", SUITS)
def test_every_three_card_hand_matches_reference(suit: int) -> None:
    for hand in itertools.combinations(range(52), 3):
        expected = reference_score(hand, suit)
        assert score_turbo(hand, suit) == expected, hand
        assert count_icons(hand, suit) == expected[0], hand


def _hand_with_ranks(mask: int, suit: int, rng: random.Random) -> list[int]:
    """A shuffled hand holding exactly the ranks of ``mask`` in ``suit``, padded to 9 cards."""
    suited = [rank * 4 + suit for rank in range(13) if mask >> rank & 1]
    others = [code for code in range(52) if code & 3 != suit]
    hand = suited + rng.sample(others, max(0, 9 - len(suited)))
    rng.shuffle(hand)
    return hand


@pytest.mark.parametrize("suit", SUITS)
def test_every_suited_rank_set_matches_reference(suit: int) -> None:
    # The result depends only on which ranks of the suit are held: all 2**13 sets, so every
    # entry of the rank-mask table is checked (9-card hands where the set fits, else longer).
    rng = random.Random(suit)
    for mask in range(1 << 13):
        hand = _hand_with_ranks(mask, suit, rng)
        expected = reference_score(hand, suit)
        assert score_turbo(hand, suit) == expected, hand
        assert score_turbo(tuple(hand), suit) == expected, hand
        assert count_icons(hand, suit) == expected[0], hand


nine_card_hands = st.permutations(range(52)).map(lambda deck: deck[:9])


@given(hand=nine_card_hands, suit=st.sampled_from(SUITS), as_tuple=st.booleans())
def test_random_nine_card_hands_match_reference(hand: list[int], suit: int, as_tuple: bool) -> None:
    cards = tuple(hand) if as_tuple else list(hand)
    expected = reference_score(cards, suit)
    assert score_turbo(cards, suit) == expected
    assert count_icons(cards, suit) == expected[0]


@given(hand=st.lists(st.integers(0, 51), unique=True, max_size=13), suit=st.sampled_from(SUITS))
def test_other_lengths_match_reference(hand: list[int], suit: int) -> None:
    expected = reference_score(hand, suit)
    assert score_turbo(hand, suit) == expected
    assert count_icons(hand, suit) == expected[0]


def test_results_are_plain_ints() -> None:
    hand = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s")
    result = score_turbo(hand, 0)
    assert type(result) is tuple
    assert all(type(value) is int for value in result)
    assert type(count_icons(hand, 0)) is int


def test_out_of_range_card_is_an_error() -> None:
    with pytest.raises(IndexError):
        count_icons((0, 1, 52), 0)
    with pytest.raises(IndexError):
        score_turbo((0, 1, 2, 3, 4, 5, 6, 7, 52), 0)
