"""Simulation checks of the Stadium Three Card Poker par sheet.

:func:`simulate_rounds` plays random rounds through the game's own settlement (one seat on
random positions, every wager including the twelve blind ones, the Q-6-4 decision) and
reports each wager's observed edge with its standard error beside the exact edge.

:func:`full_information_edge` estimates the one figure with no closed form: the ante + play
edge when the seat decides seeing all nine array cards.  Each simulated array is scored by its
*exact* conditional expectation (the 12,341 dealer hands are averaged out by
:func:`kiosk.kernel.games.stadium_advice.advise`), with the Q-6-4 result on the same cards as a
control variate: the estimate is ``exact Q-6-4 edge - mean(gain)``, where ``gain`` is the expected
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

from kiosk.kernel.analysis.simulate import RunningSums, Shuffler, SimulatedWager
from kiosk.kernel.games import stadium
from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.stadium_advice import advise, q64_play
from rng import Deck

#: Arrays sampled for the full-information estimate in the par sheet.
FULL_INFORMATION_DEALS = 20_000


@dataclass(frozen=True)
class FullInformationEstimate:
    """Simulated ante + play house edge when the seat sees all nine array cards."""

    estimate: float
    std_error: float
    deals: int
    gain: float  # mean improvement over Q-6-4 per unit ante
    play_frequency: float
    seed: int | None

    def as_dict(self) -> dict[str, float | int | str | None]:
        """The par-sheet JSON form."""
        return {
            "estimate": self.estimate,
            "std_error": self.std_error,
            "deals": self.deals,
            "gain_over_q64": self.gain,
            "play_frequency": self.play_frequency,
            "method": "exact EV per sampled array, Q-6-4 as control variate",
            "seed": self.seed,
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
    return FullInformationEstimate(float(q64_edge) - gain, error, deals, gain, plays / deals, seed)


_BLIND_LINES = tuple(stadium.LINES)
#: Simulated row -> the par-sheet wager whose exact edge it must match.
ROWS: Mapping[str, str] = {
    "ante_play": "ante_play",
    "pairs_plus": "pairs_plus",
    "six_card_bonus": "six_card_bonus",
    "pairs_plus_blind": "pairs_plus",
    "six_card_bonus_blind": "six_card_bonus",
}


def simulate_rounds(
    games: int,
    rules: stadium.StadiumRules,
    exact_edges: Mapping[str, Fraction],
    shuffler: Shuffler,
) -> tuple[SimulatedWager, ...]:
    """Play ``games`` rounds dealt by ``shuffler`` and compare each wager with ``exact_edges``
    (par-sheet wager id -> exact edge).

    Each round: a fresh shuffle of the virtual deck (:class:`rng.Deck`), a seat on 3 random
    positions betting every spot (the twelve blind ones too), the 9-card array, the Q-6-4
    decision, the dealer's 3 cards, and the game's own settlement.  Rows: ``ante_play`` (net of
    ante, play and ante bonus per unit ante), ``pairs_plus``, ``six_card_bonus`` and the pooled
    blind wagers ``pairs_plus_blind`` and ``six_card_bonus_blind`` (per round the mean of the
    six lines; its exact edge is that of the seat's own wager).  Sums stay in integer cents.
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
    bet_all = {spot.id: unit for spot in rules.spots}
    deck = Deck(shuffler)
    sums = {row: RunningSums() for row in ROWS}
    cells = list(range(9))
    for _ in range(games):
        shuffler.shuffle(cells)
        bet = SeatBet(bet_all, tuple(cells[:3]))
        deck.new_round()
        array = deck.deal(9)
        choice = "play" if q64_play([array[p] for p in bet.positions]) else "fold"
        dealer = deck.deal(3)
        net = {r.spot: r.win for r in rules.settle(bet, array, choice, (), dealer).results}
        sums["ante_play"].add(net["ante"] + net.get("play", 0) + net.get("ante_bonus", 0))
        for wager in ("pairs_plus", "six_card_bonus"):
            sums[wager].add(net[wager])
            sums[f"{wager}_blind"].add(sum(net[f"{wager}_{line}"] for line in _BLIND_LINES))
    rows = []
    for row, wager in ROWS.items():
        per = unit * (len(_BLIND_LINES) if row.endswith("_blind") else 1)
        edge, error = sums[row].edge_and_error(games, per)
        rows.append(SimulatedWager(row, games, edge, error, exact_edges[wager]))
    return tuple(rows)
