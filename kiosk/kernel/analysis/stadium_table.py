"""The per-seat math of Stadium Three Card Poker at a table (docs/table-math.md).

Every seat shares the 9-card array and the dealer's 3 cards and picks 3 of the 9 positions.
Whatever positions a seat picks, its 3 cards are a uniformly random 3 of the deck and the
dealer's hand a uniformly random 3 of the other 49: each seat's law is the one-seat par
sheet's.  Two seats are correlated through the cards they share: the positions both picked
and the dealer's hand.  Seats that pick the same positions are perfectly correlated; the
figures here are for seats picking independently at random, whose overlap is
hypergeometric (:data:`OVERLAP`).

* Pairs Plus looks at the seat's 3 cards only, so its covariance is exact
  (:func:`pairs_plus_covariance`): given the overlap ``k``, the two hands are a uniform
  ordered pair of 3-card hands sharing exactly ``k`` cards.
* The Ante and Play and the 6-Card Bonus also look at the shared dealer hand; their
  correlation is simulated (:func:`kiosk.kernel.analysis.table_sim.simulate_stadium_table`) with a
  standard error.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from math import comb, lcm

from kiosk.kernel.analysis import stadium_par
from kiosk.kernel.analysis.model import WagerPar
from kiosk.kernel.analysis.table_math import STADIUM, TableMath, WagerTableMath
from kiosk.kernel.analysis.table_sim import simulate_stadium_table
from kiosk.kernel.cards import DECK_SIZE
from kiosk.kernel.games import poker3, stadium
from kiosk.kernel.games.stadium_paytables import StadiumPaytable

#: Overlap of two independent random picks of 3 of 9 positions -> probability.
OVERLAP: dict[int, Fraction] = {
    k: Fraction(comb(3, k) * comb(6, 3 - k), comb(9, 3)) for k in range(4)
}
#: Rounds and seats of the simulation behind the simulated correlations of the par sheet.
CORRELATION_ROUNDS = 4_000
CORRELATION_SEATS = 8


def pairs_plus_covariance(table: StadiumPaytable) -> tuple[Fraction, dict[int, Fraction]]:
    """The exact covariance of two seats' Pairs Plus results (per unit), and the covariance
    given each overlap ``k`` of their positions (``k = 3``: the same cards, the variance)."""
    x, scale = _pairs_plus_values(table)
    mean = Fraction(sum(x), len(x) * scale)
    cross = _overlap_cross(x)
    given = {k: cross[k] / scale**2 - mean * mean for k in range(4)}
    covariance = sum((OVERLAP[k] * given[k] for k in range(4)), Fraction(0))
    return covariance, given


def pairs_plus_product_variance(table: StadiumPaytable, covariance: Fraction) -> Fraction:
    """``Var(X1 X2)`` of two seats' Pairs Plus results (seats picking at random), given their
    ``covariance`` (:func:`pairs_plus_covariance`): the exact variance of one round's product,
    whose mean a simulation observes to estimate the correlation."""
    x, scale = _pairs_plus_values(table)
    mean = Fraction(sum(x), len(x) * scale)
    squares = _overlap_cross([v * v for v in x])
    product_second = sum((OVERLAP[k] * squares[k] for k in range(4)), Fraction(0)) / scale**4
    product_mean = covariance + mean * mean
    return product_second - product_mean * product_mean


def _pairs_plus_values(table: StadiumPaytable) -> tuple[list[int], int]:
    """Every 3-card hand's Pairs Plus net, scaled to integers, and the scale."""
    hands = combinations(range(DECK_SIZE), 3)
    nets = [table.odds(poker3.category3(poker3.value3(h))) or Fraction(-1) for h in hands]
    scale = lcm(*(n.denominator for n in nets))
    return [int(n * scale) for n in nets], scale


def _overlap_cross(x: list[int]) -> dict[int, Fraction]:
    """``k`` -> the mean of ``x(h) x(h')`` over ordered pairs of 3-card hands (in
    :func:`itertools.combinations` order, as ``x``) sharing exactly ``k`` cards."""
    hands = list(combinations(range(DECK_SIZE), 3))
    total = sum(x)
    by_card = [0] * DECK_SIZE
    by_pair: dict[tuple[int, int], int] = {}
    for hand, value in zip(hands, x, strict=True):
        for card in hand:
            by_card[card] += value
        for pair in combinations(hand, 2):
            by_pair[pair] = by_pair.get(pair, 0) + value
    cross = [0, 0, 0, 0]  # sum over h of x(h) * (sum of x(h') sharing exactly k cards)
    for hand, value in zip(hands, x, strict=True):
        q3 = value
        q2 = sum(by_pair[p] for p in combinations(hand, 2)) - 3 * q3
        q1 = sum(by_card[c] for c in hand) - 2 * q2 - 3 * q3
        q0 = total - q1 - q2 - q3
        for k, q in enumerate((q0, q1, q2, q3)):
            cross[k] += value * q
    return {
        k: Fraction(cross[k], len(hands) * comb(3, k) * comb(DECK_SIZE - 3, 3 - k))
        for k in range(4)
    }


def wager_pars(rules: stadium.StadiumRules) -> dict[str, WagerPar]:
    """The exact par of each wager a table simulation plays."""
    return {
        "ante_play": stadium_par.ante_play_par(rules.ante_bonus),
        "pairs_plus": stadium_par.side_wager_par(rules.pairs_plus),
        "six_card_bonus": stadium_par.side_wager_par(rules.six_card_bonus),
    }


def blind_pars(rules: stadium.StadiumRules) -> dict[str, WagerPar]:
    """The exact par of each of the 12 blind row and column wagers (spot ids): a line's
    three cards are a uniform random 3 of the deck and the dealer's a uniform 3 of the
    other 49, so its figures are those of the seat's own Pairs Plus or 6-Card Bonus."""
    labels = {spot.id: spot.label for spot in rules.spots}
    out = {}
    for table in (rules.pairs_plus, rules.six_card_bonus):
        par = stadium_par.side_wager_par(table)
        for line in stadium.LINES:
            spot = f"{table.wager}_{line}"
            out[spot] = replace(par, wager_id=spot, label=labels[spot])
    return out


def simulation_pars(rules: stadium.StadiumRules) -> dict[str, WagerPar]:
    """Every wager a seat can bet: :func:`wager_pars` and :func:`blind_pars`."""
    return {**wager_pars(rules), **blind_pars(rules)}


def exact_correlations(rules: stadium.StadiumRules) -> dict[str, Fraction]:
    """The correlations between two seats known exactly: Pairs Plus."""
    covariance, _ = pairs_plus_covariance(rules.pairs_plus)
    return {"pairs_plus": covariance / stadium_par.side_wager_par(rules.pairs_plus).variance}


def exact_product_variances(
    rules: stadium.StadiumRules, correlations: dict[str, Fraction]
) -> dict[str, Fraction]:
    """``Var(X1 X2)`` of two seats where it is known exactly (Pairs Plus), from the exact
    ``correlations`` (:func:`exact_correlations`: the covariance is not summed again)."""
    variance = stadium_par.side_wager_par(rules.pairs_plus).variance
    covariance = correlations["pairs_plus"] * variance
    return {"pairs_plus": pairs_plus_product_variance(rules.pairs_plus, covariance)}


def stadium_table_math(
    paytables: dict[str, str],
    seats: int,
    *,
    rounds: int = CORRELATION_ROUNDS,
    seed: int = 3,
) -> TableMath:
    """Per-seat edges (the par sheet's), the exact Pairs Plus covariance and the simulated
    correlations of the other wagers (``rounds`` rounds of :data:`CORRELATION_SEATS` seats
    dealt by a Mersenne Twister seeded with ``seed``: reproducible)."""
    if seats < 1:
        raise ValueError(f"seats must be at least 1, got {seats}")
    rules = stadium.load(dict(paytables))
    pars = wager_pars(rules)
    pp_cov, _ = pairs_plus_covariance(rules.pairs_plus)
    simulated = simulate_stadium_table(
        rules, rounds, random.Random(seed), CORRELATION_SEATS, pars, {}
    )
    estimates = {c.wager_id: c for c in simulated.correlations}
    rows = []
    for wager, par in pars.items():
        if wager == "pairs_plus":
            rows.append(
                WagerTableMath(
                    wager,
                    par.label,
                    par.house_edge,
                    par.variance,
                    pp_cov,
                    float(pp_cov / par.variance),
                    None,
                    "exact (hypergeometric overlap of positions)",
                )
            )
            continue
        estimate = estimates[wager]
        rows.append(
            WagerTableMath(
                wager,
                par.label,
                par.house_edge,
                par.variance,
                None,
                estimate.observed,
                estimate.std_error,
                f"simulated: {rounds:,} rounds x {CORRELATION_SEATS} seats, seed {seed}",
            )
        )
    note = (
        "one deck for all seats: the 9-card array and the dealer's 3 cards; every seat picks"
        " 3 of 9 positions at random (seats picking the same positions: correlation 1)"
    )
    return TableMath(stadium.GAME_ID, stadium.TITLE, seats, STADIUM, tuple(rows), note)
