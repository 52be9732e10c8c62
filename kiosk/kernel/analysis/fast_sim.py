"""Table simulation at the machine's speed: rounds in arrays, chunks on every core.

The rounds of a run are cut into chunks (:func:`chunk_rounds`); chunk ``i`` deals from its
own generator, ``PCG64(SeedSequence(root, spawn_key=(i,)))``, so a seed gives the same cards,
and the same result to the last digit, whatever the number of worker processes (sums are
exact integers, added in any order).  Each chunk deals its rounds as rows of an array (partial
Fisher-Yates shuffles, :func:`kiosk.kernel.analysis.fast_tables.partial_shuffle`) and settles them
by table look-ups built from the certified scorer and pay tables
(:mod:`kiosk.kernel.analysis.fast_tables`).  Dealing as the table does:

* Turbo ``table`` mode: one deck, 3 community cards, then 6 cards to each seat;
* Turbo ``stadium`` mode: the community, then each seat 6 cards of its own shuffle of the 49
  cards left;
* Stadium Three Card Poker: one deck, the 9-card array then the dealer's 3 cards; each seat
  picks 3 of the 9 positions at random.  The 12 blind wagers (Pairs Plus and 6-Card Bonus on
  each row and column of the array) are settled once a round: every seat's are the same.

Every seat bets one unit on every wager.  The report (:class:`~kiosk.kernel.analysis.table_sim.
TableSimulation`) measures each wager's distance from its exact edge in *exact* standard
errors: the par sheet's variance (per seat), with the exact covariance of two seats for the
pooled row where it is known, else the bound ``covariance <= variance`` (conservative); see
docs/math.md.  A correlation is estimated with the exact mean and variance (only the cross
moment, the mean of two seats' product, is observed), so its standard error is the exact
``sqrt(Var(X1 X2) / rounds) / variance`` where the exact law of two seats is known (``exact``
with two seats; with more, the mean over the pairs of a round has at most that variance:
``bound``).  A jackknife over batches of rounds is shown beside it, and is the error of a
correlation without an exact value (which is reported, not checked).  All the pooled checks
together keep one check's false-alarm rate (:func:`~kiosk.kernel.analysis.table_sim.family_bound`).
"""

from __future__ import annotations

import contextlib
import math
import os
import secrets
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from kiosk.kernel.analysis.fast_tables import (
    Ints,
    StadiumTables,
    TurboTables,
    new_decks,
    partial_shuffle,
    stadium_tables,
    turbo_tables,
)
from kiosk.kernel.analysis.model import WagerPar
from kiosk.kernel.analysis.simulate import SimulatedWager
from kiosk.kernel.analysis.table_math import TABLE, check_turbo_seats
from kiosk.kernel.analysis.table_sim import (
    BATCHES,
    MAX_RARE_SHARE,
    MAX_SIM_SEATS,
    ObservedCorrelation,
    TableSimulation,
    rare_variance_share,
)
from kiosk.kernel.games import stadium, turbo

#: Seat-rounds a chunk deals (the unit of seeding and of work): about 0.1 s of one core.
CHUNK_ROUNDS = 1 << 15
#: The fewest rounds of a chunk (a table of many seats deals fewer rounds a chunk).
MIN_CHUNK_ROUNDS = 1 << 10


def chunk_rounds(seats: int) -> int:
    """Rounds of a chunk at a table of ``seats`` seats (it bounds a chunk's memory; it
    depends on nothing else, so neither does the result)."""
    return max(MIN_CHUNK_ROUNDS, CHUNK_ROUNDS // seats)


#: Chunks queued ahead per worker.
AHEAD = 2
#: 2**62: sums of int64 products are split so that none can overflow.
_SAFE = 1 << 62

#: A callback told the rounds done so far after each chunk.
Progress = Callable[[int], None]


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class TurboDeal:
    """How a Turbo table is dealt and settled (picklable)."""

    tables: TurboTables
    seats: int
    mode: str

    @property
    def wagers(self) -> tuple[str, ...]:
        """Wager ids, the rows of :meth:`play`."""
        return self.tables.wagers

    def deal(
        self, gen: np.random.Generator, n: int
    ) -> tuple[npt.NDArray[np.int8], list[npt.NDArray[np.int8]]]:
        """``n`` rounds: the community ``[round, 3]`` and each seat's ``[round, 6]`` cards."""
        community_cards, seat_cards = turbo.COMMUNITY_CARDS, turbo.SEAT_CARDS
        if self.mode == TABLE:
            decks = new_decks(n)
            partial_shuffle(gen, decks, 0, community_cards + seat_cards * self.seats)
            hands = [
                decks[:, community_cards + seat_cards * i : community_cards + seat_cards * (i + 1)]
                for i in range(self.seats)
            ]
            return decks[:, :community_cards], hands
        decks = new_decks(n)
        partial_shuffle(gen, decks, 0, community_cards)
        hands = []
        for _ in range(self.seats):
            own = decks.copy()
            partial_shuffle(gen, own, community_cards, community_cards + seat_cards)
            hands.append(own[:, community_cards : community_cards + seat_cards])
        return decks[:, :community_cards], hands

    def play(self, gen: np.random.Generator, n: int) -> Ints:
        """Nets ``[wager, seat, round]`` of ``n`` rounds."""
        community, hands = self.deal(gen, n)
        return np.stack([self.tables.settle(community, hand) for hand in hands], axis=1)


@dataclass(frozen=True)
class StadiumDeal:
    """How a Stadium Three Card Poker table is dealt and settled (picklable)."""

    tables: StadiumTables
    seats: int

    @property
    def wagers(self) -> tuple[str, ...]:
        """Wager ids, the rows of :meth:`play`: the seat's own wagers, then the 12 blind row
        and column wagers."""
        return self.tables.wagers + self.tables.blind

    def deal(
        self, gen: np.random.Generator, n: int
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], list[npt.NDArray[np.int8]]]:
        """``n`` rounds: the array ``[round, 9]``, the dealer ``[round, 3]`` and each seat's
        positions ``[round, 3]``."""
        decks = new_decks(n)
        partial_shuffle(gen, decks, 0, 12)
        picks = []
        for _ in range(self.seats):
            cells = new_decks(n, 9)
            partial_shuffle(gen, cells, 0, 3)
            picks.append(cells[:, :3])
        return decks[:, :9], decks[:, 9:12], picks

    def play(self, gen: np.random.Generator, n: int) -> Ints:
        """Nets ``[wager, seat, round]`` of ``n`` rounds."""
        array, dealer, picks = self.deal(gen, n)
        blind = self.tables.settle_lines(array, dealer)  # every seat's: the lines are shared
        nets = np.empty((len(self.wagers), self.seats, n), dtype=np.int64)
        own = len(self.tables.wagers)
        for seat, positions in enumerate(picks):
            hand = np.take_along_axis(array, positions.astype(np.intp), axis=1)
            nets[:own, seat] = self.tables.settle(hand, dealer)
            nets[own:, seat] = blind
        return nets


Deal = TurboDeal | StadiumDeal


@dataclass
class WagerSums:
    """Exact integer sums of one wager's nets over a set of rounds."""

    seat_total: list[int]
    seat_squares: list[int]
    total: int = 0  # of the per-round sum over the seats
    squares: int = 0  # of its square
    #: batch -> [rounds, sum of the round sums, of their squares, of the seats' squares]
    batches: dict[int, list[int]] = field(default_factory=dict)

    def merge(self, other: WagerSums) -> None:
        """Add ``other``'s sums."""
        for i, (t, q) in enumerate(zip(other.seat_total, other.seat_squares, strict=True)):
            self.seat_total[i] += t
            self.seat_squares[i] += q
        self.total += other.total
        self.squares += other.squares
        for b, part in other.batches.items():
            mine = self.batches.setdefault(b, [0, 0, 0, 0])
            for i, v in enumerate(part):
                mine[i] += v


@dataclass
class ChunkResult:
    """The sums of some chunks."""

    rounds: int
    wagers: dict[str, WagerSums]

    def merge(self, other: ChunkResult) -> None:
        """Add ``other``'s rounds."""
        self.rounds += other.rounds
        for w, sums in other.wagers.items():
            self.wagers[w].merge(sums)


def _exact_sum(values: Ints) -> int:
    """The exact sum of int64 values whose partial sums might overflow."""
    if not len(values):
        return 0
    top = int(np.abs(values).max())
    block = max(1, _SAFE // max(top, 1))
    return sum(int(values[i : i + block].sum()) for i in range(0, len(values), block))


def _square_sum(values: Ints) -> int:
    """The exact sum of the squares of int64 values (each square must fit in 63 bits)."""
    return _exact_sum(values * values)


def run_chunk(deal: Deal, root: int, index: int, games: int) -> ChunkResult:
    """Play chunk ``index`` of a run of ``games`` rounds seeded by ``root``."""
    size = chunk_rounds(deal.seats)
    start = index * size
    n = min(size, games - start)
    gen = np.random.Generator(np.random.PCG64(np.random.SeedSequence(root, spawn_key=(index,))))
    nets = deal.play(gen, n)  # [wager, seat, round]
    batch_size = max(games // BATCHES, 1)
    first, last = start // batch_size, (start + n - 1) // batch_size
    result: dict[str, WagerSums] = {}
    for w, wager in enumerate(deal.wagers):
        x = nets[w]
        round_sum = x.sum(axis=0) if x.shape[0] > 1 else x[0]
        seat_squares = (x * x).sum(axis=0) if x.shape[0] > 1 else x[0] * x[0]
        sums = WagerSums(
            [_exact_sum(row) for row in x],
            [_square_sum(row) for row in x],
            _exact_sum(round_sum),
            _square_sum(round_sum),
        )
        for b in range(first, last + 1):
            lo = max(b * batch_size - start, 0)
            hi = min((b + 1) * batch_size - start, n)
            part = round_sum[lo:hi]
            sums.batches[b] = [
                hi - lo,
                _exact_sum(part),
                _square_sum(part),
                _exact_sum(seat_squares[lo:hi]),
            ]
        result[wager] = sums
    return ChunkResult(n, result)


def _empty(deal: Deal, seats: int) -> ChunkResult:
    return ChunkResult(0, {w: WagerSums([0] * seats, [0] * seats) for w in deal.wagers})


# --- running the chunks -------------------------------------------------------------------------

_WORKER_DEAL: Deal | None = None


def _init_worker(deal: Deal) -> None:
    global _WORKER_DEAL
    _WORKER_DEAL = deal
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C


def _worker_chunk(root: int, index: int, games: int) -> ChunkResult:
    if _WORKER_DEAL is None:  # pragma: no cover - the initializer always ran
        raise RuntimeError("worker without a deal")
    return run_chunk(_WORKER_DEAL, root, index, games)


@dataclass(frozen=True)
class RunSums:
    """The sums of a run, complete or stopped by Ctrl-C."""

    sums: ChunkResult
    interrupted: bool


def run_chunks(
    deal: Deal, games: int, root: int, jobs: int, progress: Progress | None = None
) -> RunSums:
    """Play every chunk of ``games`` rounds on ``jobs`` processes (1: this one).  Ctrl-C
    stops: the chunks already done are the partial result."""
    seats = deal.seats
    total = _empty(deal, seats)
    chunks = -(-games // chunk_rounds(seats))
    if jobs <= 1 or chunks == 1:
        try:
            for index in range(chunks):
                total.merge(run_chunk(deal, root, index, games))
                if progress is not None:
                    progress(total.rounds)
        except KeyboardInterrupt:
            return RunSums(total, True)
        return RunSums(total, False)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(deal,))
    pending: set[Future[ChunkResult]] = set()
    indexes: Iterator[int] = iter(range(chunks))
    interrupted = False
    try:
        for index in indexes:
            pending.add(pool.submit(_worker_chunk, root, index, games))
            if len(pending) >= jobs * AHEAD:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                total.merge(future.result())
                nxt = next(indexes, None)
                if nxt is not None:
                    pending.add(pool.submit(_worker_chunk, root, nxt, games))
            if progress is not None:
                progress(total.rounds)
    except KeyboardInterrupt:
        interrupted = True
        for future in pending:
            future.cancel()
        for future in pending:  # chunks under way finish (a fraction of a second)
            if not future.cancelled():
                # a worker hit by the Ctrl-C before it could ignore it: its chunk is lost
                with contextlib.suppress(BrokenProcessPool):
                    total.merge(future.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return RunSums(total, interrupted)


def new_root() -> int:
    """A 128-bit root seed from the operating system's CSPRNG (a run without ``--seed``)."""
    return secrets.randbits(128)


# --- the report ----------------------------------------------------------------------------------


def _edge(total: int, games: int, per: int) -> float:
    return float(-Fraction(total, games * per))


def _sample_error(total: int, squares: int, games: int, per: int) -> float:
    if games < 2:
        return math.inf
    mean = Fraction(total, games * per)
    variance = (Fraction(squares, per * per) - games * mean * mean) / (games - 1)
    return math.sqrt(max(variance, Fraction(0)) / games)


def _correlation(
    parts: Sequence[Sequence[int]], seats: int, scale: int, mean: Fraction, variance: Fraction
) -> float:
    """The correlation of two seats from the observed cross moment and the exact moments."""
    rounds = sum(p[0] for p in parts)
    pairs = rounds * seats * (seats - 1)
    if not pairs or not variance:
        return 0.0
    cross = Fraction(sum(p[2] - p[3] for p in parts), pairs * scale * scale)
    return float((cross - mean * mean) / variance)


def correlation_estimate(
    batches: Mapping[int, Sequence[int]],
    seats: int,
    scale: int,
    mean: Fraction,
    variance: Fraction,
) -> tuple[float, float]:
    """The pooled correlation and its delete-one-batch jackknife standard error."""
    parts = [batches[b] for b in sorted(batches) if batches[b][0]]
    overall = _correlation(parts, seats, scale, mean, variance)
    if len(parts) < 2:
        return overall, math.inf
    left_out = [
        _correlation(parts[:i] + parts[i + 1 :], seats, scale, mean, variance)
        for i in range(len(parts))
    ]
    m = sum(left_out) / len(left_out)
    b = len(left_out)
    return overall, math.sqrt((b - 1) / b * sum((c - m) ** 2 for c in left_out))


def report(
    edition: str,
    mode: str,
    scale: int,
    run: RunSums,
    seats: int,
    pars: Mapping[str, WagerPar],
    covariances: Mapping[str, Fraction],
    correlations: Mapping[str, Fraction],
    shared: frozenset[str] = frozenset(),
    product_variances: Mapping[str, Fraction] | None = None,
) -> TableSimulation:
    """The :class:`TableSimulation` of a run's sums, errors from the exact variances.
    ``shared``: wagers every seat of a round holds alike (Stadium's blind lines): their
    covariance is their variance, and they have no correlation row (it is 1 by construction).
    ``product_variances``: ``Var(X1 X2)`` of two seats, for the exact error of a correlation."""
    products = product_variances or {}
    games = run.sums.rounds
    pooled: list[SimulatedWager] = []
    per_seat_rows: list[list[SimulatedWager]] = [[] for _ in range(seats)]
    observed_corr: list[ObservedCorrelation] = []
    for wager, sums in run.sums.wagers.items():
        par = pars[wager]
        exact_edge = par.house_edge
        variance = par.variance
        seat_error = math.sqrt(variance / games) if games else math.inf
        for s in range(seats):
            per_seat_rows[s].append(
                SimulatedWager(
                    wager,
                    games,
                    _edge(sums.seat_total[s], games, scale) if games else math.nan,
                    seat_error,
                    exact_edge,
                    "exact",
                )
            )
        if seats == 1:
            error, basis = seat_error, "exact"
        elif wager in covariances or wager in shared:
            covariance = variance if wager in shared else covariances[wager]
            mean_var = (variance + (seats - 1) * covariance) / seats
            error, basis = math.sqrt(mean_var / games) if games else math.inf, "exact"
        else:  # covariance <= variance: the error of perfectly correlated seats
            error, basis = seat_error, "bound"
        pooled.append(
            SimulatedWager(
                wager,
                games,
                _edge(sums.total, games, scale * seats) if games else math.nan,
                error,
                exact_edge,
                basis,
                _sample_error(sums.total, sums.squares, games, scale * seats),
            )
        )
        if seats > 1 and wager not in shared:
            observed, jack = correlation_estimate(sums.batches, seats, scale, -exact_edge, variance)
            checked = rare_variance_share(par, games * seats) <= MAX_RARE_SHARE
            error, basis = jack, "jackknife"
            if wager in products and wager in correlations and variance:
                error = math.sqrt(products[wager] / games) / float(variance)
                basis = "exact" if seats == 2 else "bound"
            observed_corr.append(
                ObservedCorrelation(
                    wager, observed, error, correlations.get(wager), checked, basis, jack
                )
            )
    return TableSimulation(
        edition,
        games,
        seats,
        mode,
        tuple(pooled),
        tuple(tuple(rows) for rows in per_seat_rows),
        tuple(observed_corr),
        run.interrupted,
    )


def check_run(games: int, seats: int, jobs: int) -> None:
    """:class:`ValueError` for a run that cannot be made."""
    if games < 2:
        raise ValueError("need at least 2 games for a standard error")
    if not 1 <= seats <= MAX_SIM_SEATS:
        raise ValueError(f"seats must be 1..{MAX_SIM_SEATS}, got {seats}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")


def turbo_deal(rules: turbo.TurboRules, seats: int, mode: str) -> TurboDeal:
    """The deal of a Turbo table of ``seats`` seats in ``mode``."""
    check_turbo_seats(seats, mode)
    return TurboDeal(turbo_tables(rules), seats, mode)


def stadium_deal(rules: stadium.StadiumRules, seats: int) -> StadiumDeal:
    """The deal of a Stadium Three Card Poker table of ``seats`` seats."""
    return StadiumDeal(stadium_tables(rules), seats)
