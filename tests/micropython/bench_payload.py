"""Benchmark baselines and timing loop shared by CPython and MicroPython.

The two baselines take the same arguments as the scorers:

- ``empty(cards, suit)``: does nothing; the floor (the cost of the call itself).
- ``naive_count_icons(cards, suit)``: the straightforward scorer, one dictionary lookup per
  card on the card's name (``"As"``).

``make_hands`` draws the same pseudo-random 9-card hands on both interpreters (a fixed linear
congruential generator, not ``random``, whose seeding differs between them).  Timing scores all
the hands once per round; ``ns per hand`` is the best round divided by the number of hands.
Tests/scoring/test_bench_scoring.py times these with pytest-benchmark on CPython;
tests/micropython/bench_on_micropython.py runs ``run_bench`` under MicroPython.
"""

import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    Scorer = Callable[[Sequence[int], int], object]

RANK_LETTERS = "23456789TJQKA"
SUIT_LETTERS = "shdc"
HANDS = 1000
SUIT = 0  # the icon suit used for timing (spades)


def _icons_by_name(suit: int) -> "dict[str, int]":
    table = {}
    for rank_letter in RANK_LETTERS:
        for suit_letter in SUIT_LETTERS:
            if SUIT_LETTERS.index(suit_letter) != suit:
                icons = 0
            elif rank_letter in "JQKA":
                icons = 4
            elif rank_letter in "6789T":
                icons = 2
            else:
                icons = 1
            table[rank_letter + suit_letter] = icons
    return table


NAIVE_TABLES = tuple(_icons_by_name(suit) for suit in range(4))


def empty(cards: "Sequence[int]", suit: int) -> int:
    """The floor: a function with the scorers' arguments that does nothing."""
    return 0


def naive_count_icons(cards: "Sequence[int]", suit: int) -> int:
    """The naive scorer: per card, its name, then a dictionary lookup."""
    icons = NAIVE_TABLES[suit]
    total = 0
    for code in cards:
        total += icons[RANK_LETTERS[code >> 2] + SUIT_LETTERS[code & 3]]
    return total


def make_hands(count: int = HANDS, seed: int = 2024) -> "list[tuple[int, ...]]":
    """``count`` 9-card hands drawn without replacement, identical on every interpreter."""
    state = seed
    hands = []
    for _ in range(count):
        deck = list(range(52))
        for position in range(9):
            state = (state * 1103515245 + 12345) % 2147483648
            pick = position + (state >> 8) % (52 - position)
            deck[position], deck[pick] = deck[pick], deck[position]
        hands.append(tuple(deck[:9]))
    return hands


def score_all(scorer: "Scorer", hands: "list[tuple[int, ...]]", suit: int) -> None:
    """Score every hand once: one timed round."""
    for hand in hands:
        scorer(hand, suit)


def run_bench(scorers: "list[tuple[str, Scorer]]", rounds: int = 200) -> "list[tuple[str, float]]":
    """Best ns per hand of each named scorer; rounds interleaved so drift hits all alike."""
    hands = make_hands()
    best = [0] * len(scorers)
    for _ in range(rounds):
        for index, (_name, scorer) in enumerate(scorers):
            start = time.time_ns()
            score_all(scorer, hands, SUIT)
            elapsed = time.time_ns() - start
            if best[index] == 0 or elapsed < best[index]:
                best[index] = elapsed
    return [(name, best[index] / len(hands)) for index, (name, _) in enumerate(scorers)]


def print_table(title: str, results: "list[tuple[str, float]]") -> None:
    """ns per hand and ratios to the empty call and to the naive scorer."""
    by_name = dict(results)
    floor = by_name.get("empty", 0.0)
    naive = by_name.get("naive", 0.0)
    print(title)
    print(f"{'scorer':<28} {'ns/hand':>12} {'x empty':>10} {'naive/x':>10}")
    for name, value in results:
        vs_empty = value / floor if floor else 0.0
        vs_naive = naive / value if value else 0.0
        print(f"{name:<28} {value:12.1f} {vs_empty:10.2f} {vs_naive:10.2f}")
