"""Simulation checks of the Stadium Three Card Poker par sheet.

:func:`simulate_rounds` plays random rounds through the game's own :meth:`StadiumRules.settle` (one
seat, random positions, every wager including the twelve blind ones, the Q-6-4 decision) and
reports each wager's observed edge with its standard error beside the exact edge.

:func:`full_information_edge` estimates the one figure with no closed form: the ante + play
edge when the seat decides seeing all nine array cards.  Each simulated array is scored by its
*exact* conditional expectation (the 12,341 dealer hands are averaged out by
:func:`kiosk.games.stadium_advice.advise`), with the Q-6-4 result on the same cards as a control
variate: the estimate is ``exact Q-6-4 edge - mean(gain)``, where ``gain`` is the expected
improvement of the full-information decision over Q-6-4 on that array (zero whenever both
decide alike).  That is unbiased and far less noisy than playing the rounds out.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from kiosk.games import stadium
from kiosk.games.base import SeatBet
from kiosk.games.stadium_advice import advise, q64_play

#: Arrays sampled for the full-information estimate in the par sheet.
FULL_INFORMATION_DEALS = 40_000


@dataclass(frozen=True)
class SimulatedWager:
    """One wager's simulated result beside its exact value."""

    wager_id: str
    games: int
    observed_edge: float  # mean loss per unit of the initial wager
    std_error: float  # standard error of observed_edge
    exact_edge: Fraction

    @property
    def z(self) -> float:
        """(observed - exact) / standard error (0 when the error is 0 and they agree)."""
        diff = self.observed_edge - float(self.exact_edge)
        if self.std_error == 0:
            return 0.0 if diff == 0 else math.inf
        return diff / self.std_error

    def agrees(self, within: float = 3.0) -> bool:
        """Whether the observed edge is within ``within`` standard errors of the exact one."""
        return abs(self.z) <= within


@dataclass(frozen=True)
class FullInformationEstimate:
    """Simulated ante + play house edge when the seat sees all nine array cards."""

    estimate: float
    std_error: float
    deals: int
    gain: float  # mean improvement over Q-6-4 per unit ante
    play_frequency: float

    def as_dict(self) -> dict[str, float | int | str]:
        """The par-sheet JSON form."""
        return {
            "estimate": self.estimate,
            "std_error": self.std_error,
            "deals": self.deals,
            "gain_over_q64": self.gain,
            "play_frequency": self.play_frequency,
            "method": "exact EV per sampled array, Q-6-4 as control variate",
        }


class _Moments:
    """Running sum and sum of squares of per-game results."""

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def mean_and_error(self) -> tuple[float, float]:
        mean = self.total / self.n
        var = max(self.squares / self.n - mean * mean, 0.0) * self.n / max(self.n - 1, 1)
        return mean, math.sqrt(var / self.n)


def full_information_edge(
    deals: int, rules: stadium.StadiumRules, q64_edge: Fraction, *, seed: int | None = None
) -> FullInformationEstimate:
    """Estimate the full-information ante + play edge from ``deals`` random arrays, given the
    exact Q-6-4 edge ``q64_edge`` of the same ante bonus table."""
    if deals < 2:
        raise ValueError("need at least 2 deals for a standard error")
    rng = random.Random(seed)
    bonus = rules.ante_bonus.pays
    gains = _Moments()
    plays = 0
    for _ in range(deals):
        array = rng.sample(range(52), 9)
        hand = array[:3]  # a uniform sample: which positions the seat chose does not matter
        advice = advise(hand, array, bonus)
        ev_play = float(advice.ev_play)
        plays += advice.play
        best = ev_play if advice.play else -1.0
        gains.add(best - (ev_play if q64_play(hand) else -1.0))
    gain, error = gains.mean_and_error()
    return FullInformationEstimate(float(q64_edge) - gain, error, deals, gain, plays / deals)


_BLIND_LINES = tuple(stadium.LINES)


def simulate_rounds(
    games: int,
    rules: stadium.StadiumRules,
    exact_edges: Mapping[str, Fraction],
    *,
    seed: int | None = None,
) -> tuple[SimulatedWager, ...]:
    """Play ``games`` random rounds and compare each wager with ``exact_edges`` (par-sheet
    wager id -> exact edge).

    Rows: ``ante_play``, ``pairs_plus``, ``six_card_bonus`` and the pooled blind wagers
    ``pairs_plus_blind`` and ``six_card_bonus_blind`` (per game, the mean of the six lines,
    whose exact edge is that of the seat's own wager).
    """
    if games < 2:
        raise ValueError("need at least 2 games for a standard error")
    unit = 100 * lcm(
        *(
            odds.denominator
            for table in (rules.ante_bonus, rules.pairs_plus, rules.six_card_bonus)
            for odds in table.pays.values()
        )
    )
    wagers = {spot.id: unit for spot in rules.spots}
    rng = random.Random(seed)
    moments = {key: _Moments() for key in _ROWS}
    for _ in range(games):
        cards = rng.sample(range(52), 12)
        array, dealer = tuple(cards[:9]), tuple(cards[9:])
        bet = SeatBet(wagers, tuple(rng.sample(range(9), 3)))
        choice = "play" if q64_play([array[p] for p in bet.positions]) else "fold"
        settlement = rules.settle(bet, array, choice, (), dealer)
        net = {r.spot: r.win for r in settlement.results}
        moments["ante_play"].add(
            (net["ante"] + net.get("play", 0) + net.get("ante_bonus", 0)) / unit
        )
        for wager in ("pairs_plus", "six_card_bonus"):
            moments[wager].add(net[wager] / unit)
            blind = sum(net[f"{wager}_{line}"] for line in _BLIND_LINES)
            moments[f"{wager}_blind"].add(blind / (unit * len(_BLIND_LINES)))
    rows = []
    for key, exact_key in _ROWS.items():
        mean, error = moments[key].mean_and_error()
        rows.append(SimulatedWager(key, games, -mean, error, exact_edges[exact_key]))
    return tuple(rows)


#: Simulated row -> the par-sheet wager whose exact edge it must match.
_ROWS = {
    "ante_play": "ante_play",
    "pairs_plus": "pairs_plus",
    "six_card_bonus": "six_card_bonus",
    "pairs_plus_blind": "pairs_plus",
    "six_card_bonus_blind": "six_card_bonus",
}
