"""The virtual deck: a fresh full shuffle each round, cards dealt from the top on demand."""

from __future__ import annotations

import pickle
from collections.abc import MutableSequence

import pytest

from rng.deck import Deck, DeckError
from tests.helpers.rng_seeds import seeded_csprng


class Recording:
    """A shuffler that reverses the list and counts its calls."""

    def __init__(self) -> None:
        self.calls: list[list[int]] = []

    def shuffle(self, items: MutableSequence[int]) -> None:
        self.calls.append(list(items))
        items.reverse()


def test_each_round_shuffles_a_fresh_ordered_deck_of_52_codes():
    shuffler = Recording()
    deck = Deck(shuffler)
    deck.new_round()
    deck.deal(5)
    deck.new_round()
    assert shuffler.calls == [list(range(52)), list(range(52))]
    assert deck.remaining == 52


def test_cards_come_off_the_top_in_order():
    deck = Deck(Recording())
    deck.new_round()
    assert deck.deal(3) == (51, 50, 49)
    assert deck.deal() == (48,)
    assert deck.deal(0) == ()
    assert deck.remaining == 48
    assert deck.dealt == (51, 50, 49, 48)


def test_a_round_deals_every_card_exactly_once():
    deck = Deck(seeded_csprng())
    deck.new_round()
    cards = deck.deal(9) + deck.deal(43)
    assert sorted(cards) == list(range(52))
    assert deck.remaining == 0
    with pytest.raises(DeckError, match="cannot deal 1 cards: 0 left"):
        deck.deal(1)


def test_successive_rounds_get_different_orders():
    deck = Deck(seeded_csprng())
    orders = set()
    for _ in range(20):
        deck.new_round()
        orders.add(deck.deal(52))
    assert len(orders) == 20


def test_nothing_is_dealt_before_a_round():
    deck = Deck(Recording())
    assert deck.remaining == 0
    with pytest.raises(DeckError, match="no round started"):
        deck.deal(1)
    with pytest.raises(DeckError, match="no round started"):
        deck.shuffle()


def test_shuffle_reorders_only_the_undealt_cards():
    shuffler = Recording()
    deck = Deck(shuffler)
    deck.new_round()
    first = deck.deal(2)
    deck.shuffle()
    assert shuffler.calls[-1] == list(range(49, -1, -1))
    assert deck.dealt == first
    assert deck.deal(50) == tuple(range(50))


def test_bad_counts_and_sizes_are_refused():
    deck = Deck(Recording(), size=3)
    deck.new_round()
    with pytest.raises(DeckError, match="cannot deal -1"):
        deck.deal(-1)
    with pytest.raises(ValueError, match="deck size"):
        Deck(Recording(), size=0)


def test_the_undealt_order_cannot_be_pickled():
    deck = Deck(Recording())
    deck.new_round()
    with pytest.raises(TypeError, match="never be serialised"):
        pickle.dumps(deck)
    assert "52 remaining" in repr(deck)
