"""Simulated play confirming the exact par sheets (the Turbo part; Stadium: ``stadium_sim``).

:func:`simulate_turbo` deals real rounds from the virtual deck (:class:`rng.Deck`), lets every
seat follow the optimal raise strategy (:func:`kiosk.kernel.games.turbo.optimal_raise`) and settles
them with the game's own :meth:`~kiosk.kernel.games.turbo.TurboRules.settle`.  Seats of a round
share the 3 community cards and get their own 6 cards from the same deck, as at the table.

Each wager's observed house edge is the mean net loss per unit of the initial wager; its
standard error comes from the spread of the per-round results (the mean over the round's
seats, which are not independent of each other), and ``z`` measures the distance from the
exact edge in standard errors.  Sums are kept in integer cents, so nothing is rounded before
the final division.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, MutableSequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Protocol

from kiosk.kernel.analysis.turbo_par import rules_par_sheet
from kiosk.kernel.games import turbo
from kiosk.kernel.games.base import SeatBet
from rng import Deck

#: Default limit: a wager agrees with its exact edge within this many standard errors.
WITHIN = 3.0
#: Seats one 52-card deck can serve: 3 community cards and 6 cards each.
MAX_SEATS = (52 - turbo.COMMUNITY_CARDS) // turbo.SEAT_CARDS


class Shuffler(Protocol):
    """A source of shuffles: :class:`rng.Csprng` or, for a reproducible run,
    :class:`random.Random`."""

    def shuffle(self, x: MutableSequence[int]) -> None: ...


@dataclass(frozen=True)
class SimulatedWager:
    """One wager's simulated result beside its exact value."""

    wager_id: str
    games: int
    observed_edge: float  # mean loss per unit of the initial wager
    std_error: float  # standard error of observed_edge
    exact_edge: Fraction
    #: where ``std_error`` comes from: "sample" (the run's own spread), "exact" (the par
    #: sheet's variance, and the exact covariance of two seats for a pooled row) or "bound"
    #: (the par sheet's variance with covariance <= variance: the largest error it can be)
    error_basis: str = "sample"
    #: the run's own standard error beside an exact one, for information (None: not kept)
    sample_std_error: float | None = None

    @property
    def z(self) -> float:
        """(observed - exact) / standard error (0 when the error is 0 and they agree)."""
        diff = self.observed_edge - float(self.exact_edge)
        if self.std_error == 0:
            return 0.0 if diff == 0 else math.inf
        return diff / self.std_error

    def agrees(self, within: float = WITHIN) -> bool:
        """Whether the observed edge is within ``within`` standard errors of the exact one."""
        return abs(self.z) <= within


class RunningSums:
    """Exact running sums of per-round results in cents."""

    def __init__(self) -> None:
        self.total = 0
        self.squares = 0

    def add(self, cents: int) -> None:
        self.total += cents
        self.squares += cents * cents

    def edge_and_error(self, games: int, per: int) -> tuple[float, float]:
        """Observed edge and its standard error, results being ``cents / per``."""
        mean = Fraction(self.total, games * per)
        variance = (Fraction(self.squares, per * per) - games * mean * mean) / (games - 1)
        return float(-mean), math.sqrt(max(variance, Fraction(0)) / games)


def simulate(
    edition_id: str,
    games: int,
    paytables: Mapping[str, str] | None = None,
    *,
    shuffler: Shuffler,
    seats: int = 1,
) -> tuple[SimulatedWager, ...]:
    """Simulate ``games`` rounds of a Turbo edition with the chosen pay tables."""
    return simulate_turbo(turbo.load(edition_id, paytables), games, shuffler, seats)


def simulate_turbo(
    rules: turbo.TurboRules, games: int, shuffler: Shuffler, seats: int = 1
) -> tuple[SimulatedWager, ...]:
    """Play ``games`` rounds of ``seats`` seats, each betting one unit on every wager, and
    compare each wager's observed edge with the exact par sheet."""
    if games < 2:
        raise ValueError("need at least 2 games for a standard error")
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be 1..{MAX_SEATS}, got {seats}")
    odds = [t.odds for table in rules.paytables.values() for t in table.tiers]
    odds += [t.odds for t in rules.edition.raise_rule.paytable.tiers]
    unit = 100 * lcm(*(o.denominator for o in odds))  # no breakage on any win
    bet = SeatBet({spot.id: unit for spot in rules.spots})
    main = rules.edition.main.id
    sums = {spot.id: RunningSums() for spot in rules.spots}
    deck = Deck(shuffler)
    for _ in range(games):
        deck.new_round()
        community = deck.deal(rules.first_deal)
        offer = rules.offer(bet, community)
        choice = None
        if offer is not None:
            choice = turbo.RAISE if turbo.optimal_raise(rules, community).raise_ else offer.default
        round_net = dict.fromkeys(sums, 0)
        for _seat in range(seats):
            seat_cards = deck.deal(rules.second_deal_per_seat)
            settlement = rules.settle(bet, community, choice, seat_cards, ())
            for result in settlement.results:
                spot = main if result.spot == turbo.RAISE else result.spot
                round_net[spot] += result.win
        for spot, cents in round_net.items():
            sums[spot].add(cents)
    exact = rules_par_sheet(rules).wagers
    rows = []
    for spot, spot_sums in sums.items():
        edge, error = spot_sums.edge_and_error(games, unit * seats)
        rows.append(SimulatedWager(spot, games, edge, error, exact[spot].house_edge))
    return tuple(rows)
