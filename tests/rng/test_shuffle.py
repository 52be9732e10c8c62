"""Fisher-Yates maps the n! possible draw sequences one-to-one onto the n! orderings."""

from __future__ import annotations

import math
from itertools import product

import pytest

from rng.shuffle import fisher_yates


class Scripted:
    """A randbelow that returns given values and records the bounds asked for."""

    def __init__(self, values: tuple[int, ...]) -> None:
        self.values = iter(values)
        self.bounds: list[int] = []

    def __call__(self, n: int) -> int:
        self.bounds.append(n)
        value = next(self.values)
        assert value < n
        return value


@pytest.mark.parametrize("size", range(8))
def test_every_sequence_of_draws_gives_a_different_ordering(size):
    orderings = set()
    for draws in product(*(range(i + 1) for i in range(size - 1, 0, -1))):
        source = Scripted(draws)
        items = list(range(size))
        fisher_yates(items, source)
        assert source.bounds == list(range(size, 1, -1))
        assert sorted(items) == list(range(size))
        orderings.add(tuple(items))
    assert len(orderings) == math.factorial(size)


def test_draw_zero_swaps_with_the_front():
    items = ["a", "b", "c"]
    fisher_yates(items, lambda n: 0)
    assert items == ["b", "c", "a"]  # i=2 swaps with 0 -> c b a; i=1 swaps with 0 -> b c a


def test_drawing_the_top_leaves_the_order():
    items = list(range(10))
    fisher_yates(items, lambda n: n - 1)
    assert items == list(range(10))
