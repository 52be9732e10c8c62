"""Exact Play/Fold advice for Three Card Poker: counts of the dealer's possible hands.

The dealer's hand is three cards drawn from the cards the player has not seen.  Against a
player hand of value ``v`` (:func:`kiosk.kernel.games.poker3.value3`) every dealer hand falls in one
of four classes: it does not qualify (ante wins 1:1, play pushes), it qualifies and loses (ante and
play win 1:1), it ties (both push), or it wins (both lose).

:func:`dealer_counts` counts those classes *exactly* without visiting the dealer hands: by
inclusion–exclusion over the dead cards ``D``,

    #{hands avoiding D with value < x} = Σ_{S ⊆ D, |S| ≤ 3} (-1)^|S| · #{hands ⊇ S with value < x},

where the counts on the right come from sorted value lists of all 22,100 hands, of the 1,275
hands through each card and the 50 hands through each pair of cards (binary search).  With the
9 cards of the Stadium array that is 1 + 9 + 36 + 84 look-ups per threshold instead of a pass
over the C(43,3) = 12,341 dealer hands; tests compare it with that pass.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

from kiosk.kernel.cards import DECK_SIZE
from kiosk.kernel.games.poker3 import DEALER_QUALIFIER, category3, check_cards, q64_plays, value3


@dataclass(frozen=True)
class DealerCounts:
    """How many of the dealer's possible hands end each way against one player hand."""

    not_qualifying: int
    player_wins: int  # dealer qualifies, player's hand is higher
    ties: int  # dealer qualifies, equal hands
    dealer_wins: int  # dealer qualifies, dealer's hand is higher

    @property
    def total(self) -> int:
        """Number of possible dealer hands."""
        return self.not_qualifying + self.player_wins + self.ties + self.dealer_wins

    def play_total(self) -> int:
        """Sum over the dealer hands of the ante-plus-play result per unit ante, bonus aside."""
        return self.not_qualifying + 2 * self.player_wins - 2 * self.dealer_wins


@dataclass(frozen=True)
class PlayAdvice:
    """The better of Play and Fold, with the exact expected result of each per unit ante.

    ``ev_play`` covers the ante, the play wager and the ante bonus; the side wagers do not
    depend on the decision and are left out.
    """

    play: bool
    ev_play: Fraction
    ev_fold: Fraction
    counts: DealerCounts


@dataclass(frozen=True)
class _Tables:
    all_values: list[int]  # values of all 22,100 hands, sorted
    by_card: list[list[int]]  # [c]: sorted values of the 1,275 hands holding card c
    by_pair: list[list[int]]  # [c1 * 52 + c2], c1 < c2: sorted values of the 50 hands
    by_triple: dict[int, int]  # c1 * 2704 + c2 * 52 + c3, c1 < c2 < c3: value


@cache
def _tables() -> _Tables:
    by_card: list[list[int]] = [[] for _ in range(DECK_SIZE)]
    by_pair: list[list[int]] = [[] for _ in range(DECK_SIZE * DECK_SIZE)]
    by_triple: dict[int, int] = {}
    for a, b, c in combinations(range(DECK_SIZE), 3):
        v = value3((a, b, c))
        by_triple[a * 2704 + b * 52 + c] = v
        by_card[a].append(v)
        by_card[b].append(v)
        by_card[c].append(v)
        by_pair[a * 52 + b].append(v)
        by_pair[a * 52 + c].append(v)
        by_pair[b * 52 + c].append(v)
    for values in (*by_card, *by_pair):
        values.sort()
    return _Tables(sorted(by_triple.values()), by_card, by_pair, by_triple)


def _count_below(dead: Sequence[int], thresholds: Sequence[int]) -> list[int]:
    """For each threshold x: how many 3-card hands avoiding ``dead`` (sorted) have value < x."""
    t = _tables()
    out = [bisect_left(t.all_values, x) for x in thresholds]
    for c in dead:
        values = t.by_card[c]
        for i, x in enumerate(thresholds):
            out[i] -= bisect_left(values, x)
    for c1, c2 in combinations(dead, 2):
        values = t.by_pair[c1 * 52 + c2]
        for i, x in enumerate(thresholds):
            out[i] += bisect_left(values, x)
    for c1, c2, c3 in combinations(dead, 3):
        v = t.by_triple[c1 * 2704 + c2 * 52 + c3]
        for i, x in enumerate(thresholds):
            if v < x:
                out[i] -= 1
    return out


def dealer_counts(dead: Iterable[int], player_value: int) -> DealerCounts:
    """Exact counts of the dealer hands drawn from the cards not in ``dead`` against a player
    hand of value ``player_value``; ``dead`` must include the player's own cards."""
    dead_sorted = sorted(dead)
    check_cards(dead_sorted, "dead cards")
    total = comb(DECK_SIZE - len(dead_sorted), 3)
    below_q, below_p, at_or_below_p = _count_below(
        dead_sorted, (DEALER_QUALIFIER, player_value, player_value + 1)
    )
    if player_value < DEALER_QUALIFIER:  # every qualifying dealer hand beats the player
        return DealerCounts(below_q, 0, 0, total - below_q)
    return DealerCounts(
        not_qualifying=below_q,
        player_wins=below_p - below_q,
        ties=at_or_below_p - below_p,
        dealer_wins=total - at_or_below_p,
    )


def advise(
    hand: Sequence[int], seen: Iterable[int], ante_bonus: Mapping[int, Fraction]
) -> PlayAdvice:
    """Exact Play/Fold advice for ``hand`` when the player has also seen the cards ``seen``.

    ``ante_bonus`` maps a three-card category to its ante bonus odds (missing: no bonus).
    Play is advised only when it is strictly better than folding.
    """
    check_cards(hand, "hand")
    player_value = value3(hand)
    dead = set(hand) | set(seen)
    counts = dealer_counts(dead, player_value)
    bonus = ante_bonus.get(category3(player_value), Fraction(0))
    ev_play = bonus + Fraction(counts.play_total(), counts.total)
    ev_fold = Fraction(-1)
    return PlayAdvice(ev_play > ev_fold, ev_play, ev_fold, counts)


def q64_play(hand: Sequence[int]) -> bool:
    """The plain strategy: play Q-6-4 or better, whatever else is visible."""
    return q64_plays(value3(hand))
