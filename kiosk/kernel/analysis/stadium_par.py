"""The exact par sheet of Stadium Three Card Poker (``stadium-3cp``).

Wagers: ``ante_play`` (ante and play with the ante bonus, per unit ante), ``pairs_plus`` and
``six_card_bonus``.  The blind row and column wagers use the same tables on three cards the
seat did not choose, which are just as random, so their figures are those of ``pairs_plus``
and ``six_card_bonus``.

Every figure is exact (see :mod:`kiosk.kernel.analysis.stadium_counts`) except
``house_edge_full_information`` of ``ante_play``: the edge when the seat decides seeing all nine
array cards (:func:`kiosk.kernel.games.stadium.optimal_play`), a simulation estimate with its
standard error (:func:`kiosk.kernel.analysis.stadium_sim.full_information_edge`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from itertools import combinations

import rng
from kiosk.kernel.analysis import stadium_sim
from kiosk.kernel.analysis.model import OutcomeLine, ParSheet, WagerPar
from kiosk.kernel.analysis.simulate import Shuffler, SimulatedWager
from kiosk.kernel.analysis.stadium_counts import (
    AntePlayCounts,
    ante_play_counts,
    best_five_counts,
    three_card_counts,
)
from kiosk.kernel.games import poker3, stadium
from kiosk.kernel.games.paytable import PaytableError
from kiosk.kernel.games.stadium_paytables import StadiumPaytable

__all__ = ["SimulatedWager", "ante_play_par", "par_sheet", "side_wager_par", "simulate"]

#: Ante/play results per unit ante, bonus aside: not qualifying, win, tie, lose.
_SHOWDOWN = (
    ("dealer does not qualify", 1),
    ("player wins", 2),
    ("tie", 0),
    ("dealer wins", -2),
)


def par_sheet(
    paytables: Mapping[str, str],
    *,
    full_information_deals: int | None = None,
    seed: int = 3,
) -> ParSheet:
    """The par sheet with the chosen pay tables (wager id -> table name or file; defaults for
    the rest).  ``full_information_deals`` (default
    :data:`~kiosk.kernel.analysis.stadium_sim.FULL_INFORMATION_DEALS`) and ``seed`` drive the one
    simulated figure, which is therefore reproducible."""
    rules = stadium.load(dict(paytables))
    ante = ante_play_par(rules.ante_bonus)
    deals = (
        stadium_sim.FULL_INFORMATION_DEALS
        if full_information_deals is None
        else full_information_deals
    )
    estimate = stadium_sim.full_information_edge(deals, rules, ante.house_edge, seed=seed)
    extra = {**ante.extra, "house_edge_full_information": estimate.as_dict()}
    ante = replace(ante, extra=extra)
    wagers = {
        "ante_play": ante,
        "pairs_plus": side_wager_par(rules.pairs_plus),
        "six_card_bonus": side_wager_par(rules.six_card_bonus),
    }
    return ParSheet(stadium.GAME_ID, stadium.TITLE, wagers)


def simulate(
    games: int, paytables: Mapping[str, str], *, seed: int | None = None
) -> tuple[SimulatedWager, ...]:
    """Play ``games`` random rounds (Q-6-4 decisions) through the game's own settlement and
    report each wager's observed edge and standard error beside its exact edge (rows: see
    :func:`kiosk.kernel.analysis.stadium_sim.simulate_rounds`).  Cards come from the terminal's
    CSPRNG unless ``seed`` asks for a reproducible run (Mersenne Twister, not a casino RNG)."""
    rules = stadium.load(dict(paytables))
    exact = {
        "ante_play": ante_play_par(rules.ante_bonus).house_edge,
        "pairs_plus": side_wager_par(rules.pairs_plus).house_edge,
        "six_card_bonus": side_wager_par(rules.six_card_bonus).house_edge,
    }
    shuffler: Shuffler = rng.Csprng() if seed is None else random.Random(seed)
    return stadium_sim.simulate_rounds(games, rules, exact, shuffler)


def ante_play_par(ante_bonus: StadiumPaytable) -> WagerPar:
    """Exact figures of ante + play with ``ante_bonus``, Q-6-4 strategy (checked optimal)."""
    counts = ante_play_counts(lambda _hand, ev: ev > -1, ante_bonus.odds)
    q64_hands = {h for h in combinations(range(52), 3) if stadium.q64_play(h)}
    if counts.strategy_hands == q64_hands:
        strategy = "Q-6-4: play Q-6-4 or better, fold lower (the optimal own-cards strategy)"
    else:  # impossible with non-negative bonuses (they only reach hands always played)
        differ = len(counts.strategy_hands ^ q64_hands)
        strategy = (
            f"play iff play beats folding on the own 3 cards ({differ} hands differ from Q-6-4)"
        )
    outcomes = _ante_outcomes(counts, ante_bonus)
    play_frequency = Fraction(counts.played_hands, 22_100)
    par = _wager_par("ante_play", "Ante and Play", ante_bonus, outcomes, 1 + play_frequency)
    extra = {
        "q64_threshold": "Q-6-4",
        "play_frequency": play_frequency,
        "hand_pairs_counted": counts.total,
    }
    return replace(par, strategy=strategy, extra=extra)


def _ante_outcomes(counts: AntePlayCounts, ante_bonus: StadiumPaytable) -> list[OutcomeLine]:
    """Fold, then the four showdown results of the hands without an ante bonus, then those of
    each bonus-paying category (its pays include the bonus)."""
    total = counts.total
    lines = [OutcomeLine("Fold", Fraction(-1), Fraction(counts.folded, total), counts.folded)]
    groups: dict[Fraction, list[int]] = {}
    names: dict[Fraction, str] = {}
    for category, row in sorted(counts.played.items()):
        bonus = ante_bonus.odds(category)
        group = groups.setdefault(bonus, [0, 0, 0, 0])
        for i, n in enumerate(row):
            group[i] += n
        if bonus:
            label = poker3.CATEGORY3_NAMES[category].lower()
            names[bonus] = f"{names[bonus]} or {label}" if bonus in names else label
    for bonus, group in groups.items():
        prefix = f"Play {names[bonus]}" if bonus else "Play"
        for (what, net), n in zip(_SHOWDOWN, group, strict=True):
            if n:
                lines.append(OutcomeLine(f"{prefix}: {what}", net + bonus, Fraction(n, total), n))
    return lines


def side_wager_par(table: StadiumPaytable) -> WagerPar:
    """Exact figures of Pairs Plus (22,100 hands) or the 6-Card Bonus (20,358,520 sets)."""
    names: tuple[str, ...]
    if table.wager == "pairs_plus":
        counts, names, label = three_card_counts(), poker3.CATEGORY3_NAMES, "Pairs Plus"
    else:
        counts, names, label = best_five_counts(6), poker3.CATEGORY5_NAMES, "6-Card Bonus"
    total = sum(counts.values())
    outcomes = [
        OutcomeLine(names[c], table.odds(c) or Fraction(-1), Fraction(n, total), n)
        for c, n in sorted(counts.items(), reverse=True)
    ]
    return _wager_par(table.wager, label, table, outcomes, Fraction(1))


def _wager_par(
    wager_id: str,
    label: str,
    table: StadiumPaytable,
    outcomes: list[OutcomeLine],
    mean_total_wager: Fraction,
) -> WagerPar:
    if sum(line.probability for line in outcomes) != 1:
        raise AssertionError(f"{wager_id}: probabilities do not sum to 1")
    mean = sum((line.pays * line.probability for line in outcomes), Fraction(0))
    square = sum((line.pays**2 * line.probability for line in outcomes), Fraction(0))
    edge = -mean
    if table.stated_house_edge is not None and table.stated_house_edge != edge:
        raise PaytableError(
            table.source,
            "house_edge",
            f"states {table.stated_house_edge} but the exact house edge is {edge}",
        )
    return WagerPar(
        wager_id=wager_id,
        label=label,
        paytable=table.name,
        outcomes=tuple(outcomes),
        house_edge=edge,
        element_of_risk=edge / mean_total_wager,
        hit_frequency=sum((line.probability for line in outcomes if line.pays > 0), Fraction(0)),
        variance=square - mean**2,
    )
