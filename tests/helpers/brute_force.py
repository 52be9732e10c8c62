"""Brute-force references for the pay-table tests: every hand enumerated, no shortcut."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, permutations
from math import comb

import numpy as np

from kiosk.kernel.games import poker3
from kiosk.kernel.games.stadium_advice import q64_play


@cache
def brute_mandatory(community_pays_3_to_2: bool) -> tuple[Fraction, Fraction, Fraction]:
    """(house edge, raise frequency, hit frequency) of First Down (or Bet A) with the optimal
    raise, over all 22,100 actual communities of spades as suit S."""
    total_ev = Fraction(0)
    raised = 0
    hits = Fraction(0)
    memo: dict[tuple[int, ...], dict[int, int]] = {}
    for community in combinations(range(52), 3):
        c_icons = sum(SEED_ICONS[c >> 2] for c in community if c & 3 == 0)
        key = tuple(sorted(SEED_ICONS[c >> 2] for c in community if c & 3 == 0))
        if key not in memo:
            memo[key] = six_card_icons([c for c in range(52) if c not in community])
        seat = memo[key]
        p_win = Fraction(sum(n for s, n in seat.items() if c_icons + s >= 6), comb(49, 6))
        if c_icons >= 6:
            total_ev += Fraction(3, 2) if community_pays_3_to_2 else 1
            hits += 1
            continue
        ev_main = 2 * p_win - 1
        raising = ev_main > 0  # the raise pays like the main wager: same sign
        raised += raising
        total_ev += 2 * ev_main if raising else ev_main
        hits += p_win
    return -total_ev / 22100, Fraction(raised, 22100), hits / 22100


def brute_force_ante_play():
    """Every (player, dealer) pair by direct comparison, player hands taken once per
    suit-symmetry class (1,755 classes of the 22,100 hands) and weighted by class size."""
    hands = np.array(list(combinations(range(52), 3)), dtype=np.int64)
    perms = np.array(list(permutations(range(4))), dtype=np.int64)
    relabeled = (hands >> 2)[None, :, :] * 4 + perms[:, hands & 3]
    relabeled.sort(axis=2)
    keys = (relabeled[..., 0] * 52 + relabeled[..., 1]) * 52 + relabeled[..., 2]
    classes, first, weights = np.unique(keys.min(axis=0), return_index=True, return_counts=True)
    assert len(classes) == 1_755
    masks = (1 << hands).sum(axis=1)
    values = np.array([poker3.value3(tuple(h)) for h in hands.tolist()], dtype=np.int64)
    qualifies = values >= poker3.DEALER_QUALIFIER
    played: dict[int, list[int]] = {}
    folded = 0
    for index, weight in zip(first.tolist(), weights.tolist(), strict=True):
        live = (masks & masks[index]) == 0
        dealer, q = values[live], qualifies[live]
        if not q64_play(tuple(hands[index].tolist())):
            folded += weight * int(live.sum())
            continue
        mine = int(values[index])
        row = [
            int((~q).sum()),
            int((q & (dealer < mine)).sum()),
            int((q & (dealer == mine)).sum()),
            int((q & (dealer > mine)).sum()),
        ]
        total = played.setdefault(poker3.category3(mine), [0, 0, 0, 0])
        for i, n in enumerate(row):
            total[i] += weight * n
    return played, folded


def brute_force_ev_play(hand, seen, bonus):
    """Expected ante + play + bonus per unit ante, visiting every dealer hand."""
    live = [c for c in range(52) if c not in set(hand) | set(seen)]
    mine = poker3.value3(hand)
    total = n = 0
    for dealer in combinations(live, 3):
        theirs = poker3.value3(dealer)
        n += 1
        if not poker3.dealer_qualifies(theirs):
            total += 1
        elif mine > theirs:
            total += 2
        elif mine < theirs:
            total -= 2
    return bonus.get(poker3.category3(mine), 0) + Fraction(total, n), n


SEED_ICONS = (1, 1, 1, 1, 2, 2, 2, 2, 2, 4, 4, 4, 4)  # by rank 2..A, from the seeds


def six_card_icons(remaining: list[int]) -> dict[int, int]:
    """Icons in 6 of the given cards -> number of 6-card sets, by a DP over the cards."""
    table = [dict[int, int]() for _ in range(7)]
    table[0][0] = 1
    for code in remaining:
        icons = SEED_ICONS[code >> 2] if code & 3 == 0 else 0
        for size in range(6, 0, -1):
            for total, n in table[size - 1].items():
                table[size][total + icons] = table[size].get(total + icons, 0) + n
    return table[6]
