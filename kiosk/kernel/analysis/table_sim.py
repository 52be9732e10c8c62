"""Long table simulations: many seats per round, both Turbo modes and Stadium Three Card Poker.

Every seat bets one unit on every wager and plays the optimal strategy; each round is settled
by the game's own :meth:`settle`.  The report has, for every wager,

* the observed house edge at **every seat** with its standard error (rounds are independent),
  and pooled over the seats (the standard error from the per-round mean over the seats, which
  are not independent of each other);
* the observed **correlation between two seats' results**, pooled over every pair of seats of
  a round, with a jackknife standard error over :data:`BATCHES` consecutive batches of rounds
  (this reference simulator; the fast one, :mod:`kiosk.kernel.analysis.fast_sim`, checks a
  correlation with the exact variance of two seats' product where the exact law is known).

How the cards are dealt is :func:`deal_turbo` (one deck, or a shuffle of the 49 cards per seat)
and :func:`deal_stadium` (one deck for all: the 9-card array and the dealer's 3 cards; each seat
picks 3 of the 9 positions at random).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from statistics import NormalDist

from kiosk.kernel.analysis.model import WagerPar
from kiosk.kernel.analysis.simulate import WITHIN, RunningSums, Shuffler, SimulatedWager
from kiosk.kernel.analysis.table_math import STADIUM, TABLE, check_turbo_seats, exact_covariances
from kiosk.kernel.analysis.turbo_par import rules_par_sheet
from kiosk.kernel.games import stadium, turbo
from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.stadium_advice import q64_play
from rng import Deck

#: Batches of rounds for the standard error of a correlation.
BATCHES = 20
#: The most seats one simulated table seats.
MAX_SIM_SEATS = 1000
#: Outcomes expected fewer times than this in a run are rare to it.
RARE = 10
#: A correlation is checked against its exact value only when rare outcomes carry at most
#: this share of the variance.
MAX_RARE_SHARE = Fraction(1, 10)
#: Stadium positions and the cards a seat picks.
ARRAY_CARDS = 9
PICKED = 3


@dataclass(frozen=True)
class ObservedCorrelation:
    """The observed correlation of one wager between two seats of a round."""

    wager_id: str
    observed: float
    #: the standard error the check uses: from the exact law of two seats where it is known
    #: (:attr:`error_basis` ``exact`` or ``bound``), else the jackknife's (``jackknife``)
    std_error: float
    exact: Fraction | None  # the exact correlation, where it is known
    #: whether the run can see the law: see :func:`rare_variance_share`
    checked: bool = True
    #: ``exact``: the exact variance of two seats' product (two seats); ``bound``: that
    #: variance bounds the mean over more pairs of seats; ``jackknife``: the sample's
    error_basis: str = "jackknife"
    #: the delete-one-batch jackknife error, shown beside an exact one for comparison
    sample_std_error: float | None = None

    @property
    def z(self) -> float | None:
        """(observed - exact) / standard error, or None without an exact value or a check."""
        if self.exact is None or not self.checked:
            return None
        diff = self.observed - float(self.exact)
        if self.std_error == 0:
            return 0.0 if diff == 0 else math.inf
        return diff / self.std_error

    def agrees(self, within: float = WITHIN) -> bool:
        """Within ``within`` standard errors of the exact value (True when none is known)."""
        z = self.z
        return z is None or abs(z) <= within


@dataclass(frozen=True)
class TableSimulation:
    """A simulated table: edges per seat, pooled, and the correlation between seats."""

    edition: str
    games: int
    seats: int
    mode: str
    pooled: tuple[SimulatedWager, ...]
    per_seat: tuple[tuple[SimulatedWager, ...], ...]  # [seat][wager]
    correlations: tuple[ObservedCorrelation, ...]  # empty with one seat
    interrupted: bool = False  # stopped by Ctrl-C: the rounds played so far

    @property
    def checks(self) -> int:
        """Every check of the report, one family: the pooled wagers, the checked
        correlations and, with more than one seat, every wager at every seat (with one seat
        those rows are the pooled ones)."""
        seat_rows = sum(len(seat) for seat in self.per_seat) if self.seats > 1 else 0
        return len(self.pooled) + sum(c.z is not None for c in self.correlations) + seat_rows

    @property
    def bound(self) -> float:
        """The bound in standard errors every check keeps: the :func:`family_bound` of
        :attr:`checks`, so that the whole report raises a false alarm as rarely as one check
        at 3 standard errors (0.27%)."""
        return family_bound(self.checks)

    def agrees(self) -> bool:
        """Every pooled wager, checked correlation and wager at every seat within
        :attr:`bound`."""
        bound = self.bound
        return (
            all(r.agrees(bound) for r in self.pooled)
            and all(c.agrees(bound) for c in self.correlations)
            and all(r.agrees(bound) for rows in self.per_seat for r in rows)
        )


def family_bound(checks: int, within: float = WITHIN) -> float:
    """The bound in standard errors that ``checks`` independent checks may keep with the same
    chance of a false alarm, all together, as one check at ``within`` (3 -> 0.27%): 3.0 for
    one check, 4.0 for 40, 4.3 for 150.  Without it, a run with many seats would fail by
    chance alone."""
    normal = NormalDist()
    alarm = 2 * (1 - normal.cdf(within))
    each = 1 - (1 - alarm) ** (1 / max(checks, 1))
    return max(within, normal.inv_cdf(1 - each / 2))


def rare_variance_share(par: WagerPar, draws: int) -> Fraction:
    """The share of a wager's variance carried by outcomes a run of ``draws`` seat-rounds
    expects fewer than :data:`RARE` times.  A correlation is a ratio of second moments: when
    awards the run does not see carry much of the variance (the 9 Card Bonus's 8 and 9 suited
    cards), the observed correlation is biased, whatever its standard error says."""
    if not par.variance:
        return Fraction(0)
    mean = -par.house_edge
    rare = (
        line.probability * (line.pays - mean) ** 2
        for line in par.outcomes
        if line.probability * draws < RARE
    )
    return sum(rare, Fraction(0)) / par.variance


class PairMoments:
    """Running sums of one wager's results over the seats of each round, in batches, for the
    pooled correlation between two seats."""

    def __init__(self, games: int, seats: int) -> None:
        self.seats = seats
        self.batch_size = max(games // BATCHES, 1)
        self.batches: list[list[int]] = []  # [rounds, sum x, sum x^2, sum over pairs x_i x_j]
        self._current = [0, 0, 0, 0]

    def add(self, results: Sequence[int]) -> None:
        total = sum(results)
        squares = sum(x * x for x in results)
        current = self._current
        current[0] += 1
        current[1] += total
        current[2] += squares
        current[3] += (total * total - squares) // 2
        if current[0] == self.batch_size:
            self.batches.append(current)
            self._current = [0, 0, 0, 0]

    def _correlation(self, parts: Sequence[Sequence[int]]) -> float:
        rounds = sum(p[0] for p in parts)
        n = self.seats
        mean = Fraction(sum(p[1] for p in parts), rounds * n)
        second = Fraction(sum(p[2] for p in parts), rounds * n)
        cross = Fraction(sum(p[3] for p in parts), rounds * n * (n - 1) // 2)
        variance = second - mean * mean
        return float((cross - mean * mean) / variance) if variance else 0.0

    def estimate(self) -> tuple[float, float]:
        """The pooled correlation and its delete-one-batch jackknife standard error (right for
        a ratio of moments, and honest about rare large wins that land in one batch)."""
        parts = [*self.batches, *([self._current] if self._current[0] else [])]
        overall = self._correlation(parts)
        if len(parts) < 2:
            return overall, math.inf
        left_out = [self._correlation(parts[:i] + parts[i + 1 :]) for i in range(len(parts))]
        m = sum(left_out) / len(left_out)
        b = len(left_out)
        return overall, math.sqrt((b - 1) / b * sum((c - m) ** 2 for c in left_out))


def deal_turbo(
    deck: Deck,
    shuffler: Shuffler,
    seats: int,
    mode: str,
    *,
    community_cards: int = turbo.COMMUNITY_CARDS,
    seat_cards: int = turbo.SEAT_CARDS,
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """One round's (community, every seat's cards): ``table`` from one shuffled deck (3, then
    6 per seat); ``stadium`` the community from the deck, then each seat 6 cards of its own
    shuffle of the cards the community left.  Any deck size and card counts (the exact tests
    enumerate every shuffle of a small deck)."""
    deck.new_round()
    community = deck.deal(community_cards)
    if mode == TABLE:
        return community, tuple(deck.deal(seat_cards) for _ in range(seats))
    if mode != STADIUM:
        raise ValueError(f"unknown mode {mode!r}")
    rest = [card for card in range(deck.size) if card not in community]
    hands = []
    for _ in range(seats):
        cards = list(rest)
        shuffler.shuffle(cards)
        hands.append(tuple(cards[:seat_cards]))
    return community, tuple(hands)


def deal_stadium(
    deck: Deck, shuffler: Shuffler, seats: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """One round's (array, dealer, every seat's 3 positions): one deck for all; each seat
    picks its positions uniformly at random and independently of the others."""
    deck.new_round()
    array = deck.deal(ARRAY_CARDS)
    dealer = deck.deal(PICKED)
    picks = []
    cells = list(range(ARRAY_CARDS))
    for _ in range(seats):
        shuffler.shuffle(cells)
        picks.append(tuple(cells[:PICKED]))
    return array, dealer, tuple(picks)


def _check(games: int, seats: int) -> None:
    if games < 2:
        raise ValueError("need at least 2 games for a standard error")
    if not 1 <= seats <= MAX_SIM_SEATS:
        raise ValueError(f"seats must be 1..{MAX_SIM_SEATS}, got {seats}")


def simulate_turbo_table(
    rules: turbo.TurboRules, games: int, shuffler: Shuffler, seats: int, mode: str
) -> TableSimulation:
    """Play ``games`` rounds of a Turbo table of ``seats`` seats dealt in ``mode``."""
    _check(games, seats)
    check_turbo_seats(seats, mode)
    odds = [t.odds for table in rules.paytables.values() for t in table.tiers]
    odds += [t.odds for t in rules.edition.raise_rule.paytable.tiers]
    unit = 100 * lcm(*(o.denominator for o in odds))  # no breakage on any win
    bet = SeatBet({spot.id: unit for spot in rules.spots})
    main = rules.edition.main.id
    spots = [spot.id for spot in rules.spots]
    deck = Deck(shuffler)
    results: dict[str, list[int]] = {spot: [0] * seats for spot in spots}
    collector = _Collector(spots, games, seats)
    for _ in range(games):
        community, hands = deal_turbo(deck, shuffler, seats, mode)
        offer = rules.offer(bet, community)
        choice = None
        if offer is not None:
            choice = turbo.RAISE if turbo.optimal_raise(rules, community).raise_ else offer.default
        for spot in spots:
            row = results[spot]
            for i in range(seats):
                row[i] = 0
        for seat, cards in enumerate(hands):
            for result in rules.settle(bet, community, choice, cards, ()).results:
                spot = main if result.spot == turbo.RAISE else result.spot
                results[spot][seat] += result.win
        collector.add(results)
    sheet = rules_par_sheet(rules).wagers
    exact = {w: par.house_edge for w, par in sheet.items()}
    covariances = exact_covariances(rules, mode)
    exact_corr = {w: cov / sheet[w].variance for w, cov in covariances.items()}
    seen = {
        w for w, par in sheet.items() if rare_variance_share(par, games * seats) <= MAX_RARE_SHARE
    }
    return collector.report(rules.edition.id, mode, unit, exact, exact_corr, seen)


def simulate_stadium_table(
    rules: stadium.StadiumRules,
    games: int,
    shuffler: Shuffler,
    seats: int,
    pars: Mapping[str, WagerPar],
    exact_correlations: Mapping[str, Fraction],
) -> TableSimulation:
    """Play ``games`` rounds of Stadium Three Card Poker with ``seats`` seats on one array,
    beside the exact ``pars`` of the three wagers and the ``exact_correlations`` known.

    Rows: ``ante_play`` (ante, play and ante bonus per unit ante, Q-6-4), ``pairs_plus``,
    ``six_card_bonus``."""
    _check(games, seats)
    wagers = ("ante_play", "pairs_plus", "six_card_bonus")
    unit = 100 * lcm(
        *(
            odds.denominator
            for table in (rules.ante_bonus, rules.pairs_plus, rules.six_card_bonus)
            for odds in table.pays.values()
        )
    )
    stakes = {"ante": unit, "pairs_plus": unit, "six_card_bonus": unit}
    deck = Deck(shuffler)
    results: dict[str, list[int]] = {w: [0] * seats for w in wagers}
    collector = _Collector(wagers, games, seats)
    for _ in range(games):
        array, dealer, picks = deal_stadium(deck, shuffler, seats)
        for seat, positions in enumerate(picks):
            bet = SeatBet(stakes, positions)
            choice = "play" if q64_play([array[p] for p in positions]) else "fold"
            net = {r.spot: r.win for r in rules.settle(bet, array, choice, (), dealer).results}
            results["ante_play"][seat] = net["ante"] + net.get("play", 0) + net.get("ante_bonus", 0)
            results["pairs_plus"][seat] = net["pairs_plus"]
            results["six_card_bonus"][seat] = net["six_card_bonus"]
        collector.add(results)
    exact_edges = {w: pars[w].house_edge for w in wagers}
    seen = {w for w in wagers if rare_variance_share(pars[w], games * seats) <= MAX_RARE_SHARE}
    return collector.report(stadium.GAME_ID, STADIUM, unit, exact_edges, exact_correlations, seen)


class _Collector:
    """Per seat and pooled sums of every wager, and the pair moments."""

    def __init__(self, wagers: Sequence[str], games: int, seats: int) -> None:
        self.wagers = tuple(wagers)
        self.games = games
        self.seats = seats
        self.per_seat = {w: [RunningSums() for _ in range(seats)] for w in wagers}
        self.pooled = {w: RunningSums() for w in wagers}
        self.pairs = {w: PairMoments(games, seats) for w in wagers}

    def add(self, results: Mapping[str, Sequence[int]]) -> None:
        for w in self.wagers:
            row = results[w]
            for sums, cents in zip(self.per_seat[w], row, strict=True):
                sums.add(cents)
            self.pooled[w].add(sum(row))
            if self.seats > 1:
                self.pairs[w].add(row)

    def report(
        self,
        edition: str,
        mode: str,
        unit: int,
        exact: Mapping[str, Fraction],
        exact_corr: Mapping[str, Fraction],
        checked: Set[str],
    ) -> TableSimulation:
        games, seats = self.games, self.seats

        def row(wager: str, sums: RunningSums, per: int) -> SimulatedWager:
            edge, error = sums.edge_and_error(games, per)
            return SimulatedWager(wager, games, edge, error, exact[wager])

        pooled = tuple(row(w, self.pooled[w], unit * seats) for w in self.wagers)
        per_seat = tuple(
            tuple(row(w, self.per_seat[w][seat], unit) for w in self.wagers)
            for seat in range(seats)
        )
        correlations: list[ObservedCorrelation] = []
        if seats > 1:
            for w in self.wagers:
                observed, error = self.pairs[w].estimate()
                correlations.append(
                    ObservedCorrelation(
                        w, observed, error, exact_corr.get(w), w in checked, "jackknife", error
                    )
                )
        return TableSimulation(edition, games, seats, mode, pooled, per_seat, tuple(correlations))
