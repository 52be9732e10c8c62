"""Exact counts behind the Stadium Three Card Poker par sheet.

* :func:`three_card_counts` — the 22,100 three-card hands by category (enumeration).
* :func:`best_five_counts` — ``k``-card sets by the category of their best five cards, by
  combinatorics: every multiset of ranks, times the ways to give its cards suits.  For the
  6-Card Bonus (``k = 6``) that covers all C(52,6) = 20,358,520 sets.
* :func:`ante_play_counts` — every (player hand, dealer hand) pair, C(52,3)·C(49,3) =
  407,170,400 of them, by decision and result, via the exact dealer counts of
  :mod:`kiosk.kernel.games.stadium_advice`.

Suits in ``best_five_counts``: a set is a flush (or straight flush) only when some suit holds
five or more of its cards, and with at most 9 cards only one suit can.  So for each rank
multiset the suit assignments split into those where suit ``s`` holds exactly the distinct
ranks ``D`` (|D| >= 5; each rank of ``D`` puts one card in ``s`` and the rest in the other
three suits, every other rank all its cards in the other three suits) and the rest, which
are no flush.  The category is the better of the rank-only category and the suited one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb, prod

from kiosk.kernel.cards import DECK_SIZE
from kiosk.kernel.games import poker3
from kiosk.kernel.games.stadium_advice import dealer_counts

ALL_RANKS = tuple(range(13))


def three_card_counts() -> dict[int, int]:
    """Number of three-card hands in each category (22,100 in all)."""
    counts = dict.fromkeys(range(6), 0)
    for hand in combinations(range(DECK_SIZE), 3):
        counts[poker3.category3(poker3.value3(hand))] += 1
    return counts


def _rank_multisets(ranks: Sequence[int], size: int) -> Iterator[dict[int, int]]:
    """Every way to take ``size`` cards by rank (at most 4 of a rank) from ``ranks``."""
    if size == 0:
        yield {}
        return
    if not ranks:
        return
    first, rest = ranks[0], ranks[1:]
    for n in range(min(4, size), -1, -1):
        for tail in _rank_multisets(rest, size - n):
            yield {first: n, **tail} if n else tail


def best_five_counts(k: int, ranks: Sequence[int] = ALL_RANKS) -> dict[int, int]:
    """Number of ``k``-card sets (5 <= k <= 9) from the four suits of ``ranks`` whose best five
    cards make each five-card category (``poker3.HIGH_CARD_5`` .. ``ROYAL_FLUSH_5``)."""
    if not 5 <= k <= 9:
        raise ValueError(f"k must be 5..9 (one flush suit at most), got {k}")
    counts = dict.fromkeys(range(10), 0)
    for multiset in _rank_multisets(tuple(ranks), k):
        by_rank = [0] * 13
        for r, n in multiset.items():
            by_rank[r] = n
        plain = poker3.unsuited_category(by_rank)
        ways = prod(comb(4, n) for n in multiset.values())
        distinct = sorted(multiset)
        for size in range(5, len(distinct) + 1):
            for suited in combinations(distinct, size):
                suited_ranks = set(suited)
                flush_ways = 4 * prod(
                    comb(3, n - 1) if r in suited_ranks else comb(3, n) for r, n in multiset.items()
                )
                if flush_ways:
                    mask = sum(1 << r for r in suited)
                    counts[max(plain, poker3.suited_category(mask))] += flush_ways
                    ways -= flush_ways
        counts[plain] += ways
    return counts


@dataclass(frozen=True)
class AntePlayCounts:
    """Counts of (player hand, dealer hand) pairs for the ante and play wagers.

    ``played[category]`` holds the dealer counts summed over the played hands of that
    three-card category (the ante bonus depends on it); ``folded`` counts pairs whose player
    hand folds.
    """

    played: dict[int, tuple[int, int, int, int]]  # (not qualifying, win, tie, lose)
    folded: int
    played_hands: int  # player hands (of 22,100) that play
    strategy_hands: frozenset[tuple[int, int, int]]  # the player hands that play

    @property
    def total(self) -> int:
        """Every pair: 22,100 * 18,424."""
        return self.folded + sum(sum(c) for c in self.played.values())


def ante_play_counts(
    plays: Callable[[tuple[int, int, int], Fraction], bool], bonus: Callable[[int], Fraction]
) -> AntePlayCounts:
    """Exact counts when a player hand plays iff ``plays(hand, ev_play)`` (``ev_play`` the exact
    expected ante + play + bonus per unit ante) and the ante bonus odds are ``bonus(category)``."""
    played: dict[int, list[int]] = {c: [0, 0, 0, 0] for c in range(6)}
    folded = played_hands = 0
    strategy: set[tuple[int, int, int]] = set()
    for hand in combinations(range(DECK_SIZE), 3):
        value = poker3.value3(hand)
        category = poker3.category3(value)
        counts = dealer_counts(hand, value)
        ev_play = bonus(category) + Fraction(counts.play_total(), counts.total)
        if plays(hand, ev_play):
            played_hands += 1
            strategy.add(hand)
            row = played[category]
            row[0] += counts.not_qualifying
            row[1] += counts.player_wins
            row[2] += counts.ties
            row[3] += counts.dealer_wins
        else:
            folded += counts.total
    return AntePlayCounts(
        {c: (r[0], r[1], r[2], r[3]) for c, r in played.items() if any(r)},
        folded,
        played_hands,
        frozenset(strategy),
    )
