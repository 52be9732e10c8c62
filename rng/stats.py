"""Statistical tests of the scaled output, each at 99% confidence (``alpha = 0.01``).

- :func:`card_position_test` — chi-square of card-by-position counts over many shuffles;
- :func:`permutation_test` — all ``k!`` orderings of a small deck equally frequent;
- :func:`runs_test` — runs of draws below/above the middle of the range (Wald-Wolfowitz form
  for independent Bernoulli trials of known probability);
- :func:`serial_correlation_test` — lag-``L`` correlation of draws, standardised exactly;
- :func:`serial_pairs_test` — non-overlapping pairs of draws over all ``n**2`` cells.

A test passes when its p-value is at least ``alpha``.  :func:`batch_verdict` judges a family
of independent repetitions the way NIST SP 800-22 §4.2.1 does (pass proportion), with an exact
binomial bound on the number of failures.  p-values come from :func:`chi2_sf` (regularised
upper incomplete gamma function) and the normal tail; no third-party code is involved.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ALPHA = 0.01


@dataclass(frozen=True)
class TestResult:
    """One statistical test of one sample."""

    name: str
    statistic: float  # chi-square value, or a standard normal z
    df: int | None  # degrees of freedom of a chi-square statistic; None for z
    p_value: float
    samples: int  # shuffles or draws tested
    alpha: float = ALPHA

    @property
    def passed(self) -> bool:
        """The sample is consistent with uniformity at confidence ``1 - alpha``."""
        return self.p_value >= self.alpha

    def line(self) -> str:
        """A one-line summary for reports."""
        stat = f"chi2={self.statistic:.2f} df={self.df}" if self.df else f"z={self.statistic:+.3f}"
        verdict = "pass" if self.passed else "FAIL"
        return f"{self.name}: n={self.samples} {stat} p={self.p_value:.4f} {verdict}"


# -- distributions ---------------------------------------------------------------------------


def chi2_sf(x: float, df: int) -> float:
    """``P(X >= x)`` for ``X`` chi-square with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if x <= 0:
        return 1.0
    return _gamma_q(df / 2, x / 2)


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma ``Q(a, x)`` (series below ``a + 1``, else a
    continued fraction evaluated by the modified Lentz method), to about 1e-14."""
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        # P(a, x) = x^a e^-x / Gamma(a+1) * sum_n x^n / ((a+1)...(a+n))
        term = total = 1 / a
        n = 0
        while abs(term) > abs(total) * 1e-16:
            n += 1
            term *= x / (a + n)
            total += term
            if n > 100_000:
                raise ArithmeticError("incomplete gamma series did not converge")
        return max(0.0, 1 - math.exp(log_prefix) * total)
    # Q(a, x) = x^a e^-x / Gamma(a) * 1 / (x + 1 - a - 1(1-a) / (x + 3 - a - 2(2-a) / ...))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            return math.exp(log_prefix) * h
    raise ArithmeticError("incomplete gamma continued fraction did not converge")


def normal_two_sided_p(z: float) -> float:
    """``P(|Z| >= |z|)`` for a standard normal ``Z``."""
    return math.erfc(abs(z) / math.sqrt(2))


# -- tests -----------------------------------------------------------------------------------


def card_position_test(decks: Iterable[Sequence[int]], size: int) -> TestResult:
    """Chi-square of how often each card lands in each position over shuffled decks.

    Every shuffle puts each card in exactly one position, so the ``size x size`` count matrix
    is a sum of random permutation matrices, not of multinomial draws.  A uniform permutation
    matrix has covariance ``(A (x) A) / (size - 1)`` with ``A = I - J/size``, a projection of
    rank ``(size - 1)**2``; hence Pearson's sum ``S = sum (O - E)**2 / E`` (``E = N/size``)
    satisfies ``S * (size - 1) / size ~ chi2((size - 1)**2)`` for large ``N``.  (Using ``S``
    unscaled, a perfect 52-card shuffle would fail 5.3% of the time instead of 1%.)
    """
    counts = [0] * (size * size)
    n = 0
    for deck in decks:
        if len(deck) != size:
            raise ValueError(f"deck of {len(deck)} cards, expected {size}")
        for position, card in enumerate(deck):
            counts[card * size + position] += 1
        n += 1
    if n == 0:
        raise ValueError("no decks to test")
    expected = n / size
    pearson = sum((c - expected) ** 2 for c in counts) / expected
    statistic = pearson * (size - 1) / size
    df = (size - 1) ** 2
    return TestResult(f"card-position {size}x{size}", statistic, df, chi2_sf(statistic, df), n)


def permutation_index(order: Sequence[int]) -> int:
    """Lexicographic rank of a permutation of ``0..k-1`` among all ``k!`` orderings."""
    k = len(order)
    rank = 0
    remaining = sorted(order)
    for i, value in enumerate(order):
        j = remaining.index(value)
        rank += j * math.factorial(k - 1 - i)
        remaining.pop(j)
    return rank


def permutation_test(orders: Iterable[Sequence[int]], size: int) -> TestResult:
    """Chi-square of the frequencies of all ``size!`` orderings of a ``size``-card deck."""
    cells = math.factorial(size)
    counts = [0] * cells
    n = 0
    for order in orders:
        counts[permutation_index(order)] += 1
        n += 1
    return _multinomial(f"all {cells} orderings of {size} cards", counts, n)


def serial_pairs_test(draws: Sequence[int], n: int) -> TestResult:
    """Chi-square of non-overlapping pairs ``(x[2i], x[2i+1])`` over all ``n**2`` cells."""
    counts = [0] * (n * n)
    pairs = len(draws) // 2
    for i in range(pairs):
        counts[draws[2 * i] * n + draws[2 * i + 1]] += 1
    return _multinomial(f"serial pairs below {n}", counts, pairs)


def frequency_test(draws: Sequence[int], n: int) -> TestResult:
    """Chi-square of how often each value ``0..n-1`` is drawn."""
    counts = [0] * n
    for value in draws:
        counts[value] += 1
    return _multinomial(f"frequency below {n}", counts, len(draws))


def _multinomial(name: str, counts: Sequence[int], n: int) -> TestResult:
    if n == 0:
        raise ValueError("no samples to test")
    expected = n / len(counts)
    statistic = sum((c - expected) ** 2 for c in counts) / expected
    df = len(counts) - 1
    return TestResult(name, statistic, df, chi2_sf(statistic, df), n)


def runs_test(draws: Sequence[int], n: int) -> TestResult:
    """Runs of draws below ``n // 2`` versus the rest, against independent trials.

    With ``p = (n // 2) / n`` and ``q = 1 - p`` the number of changes between consecutive draws,
    ``C = runs - 1``, has mean ``(N - 1) r`` with ``r = 2pq`` and variance
    ``(N - 1) r (1 - r) + 2 (N - 2)(pq - r**2)`` (adjacent indicators overlap in one draw).
    """
    size = len(draws)
    if size < 3 or n < 2:
        raise ValueError("the runs test needs at least 3 draws from at least 2 values")
    half = n // 2
    p = half / n
    q = 1 - p
    r = 2 * p * q
    low = [value < half for value in draws]
    changes = sum(1 for a, b in itertools.pairwise(low) if a != b)
    mean = (size - 1) * r
    variance = (size - 1) * r * (1 - r) + 2 * (size - 2) * (p * q - r * r)
    z = (changes - mean) / math.sqrt(variance)
    return TestResult(f"runs below/above {half} of {n}", z, None, normal_two_sided_p(z), size)


def serial_correlation_test(draws: Sequence[int], n: int, lag: int = 1) -> TestResult:
    """Lag-``lag`` correlation of draws uniform on ``0..n-1``, using the known mean and variance.

    With ``mu = (n - 1)/2`` and ``sigma**2 = (n**2 - 1)/12``, the products
    ``(x[i] - mu)(x[i+lag] - mu)`` have mean 0 and variance ``sigma**4`` and are uncorrelated
    with each other, so ``z = sum / (sigma**2 sqrt(m))`` over ``m`` products is standard normal
    for large ``m``.
    """
    m = len(draws) - lag
    if m < 2 or lag < 1 or n < 2:
        raise ValueError("serial correlation needs lag >= 1, n >= 2 and more draws than lag")
    mu2 = n - 1  # work with 2x - (n - 1) to stay in integers
    total = sum((2 * draws[i] - mu2) * (2 * draws[i + lag] - mu2) for i in range(m))
    sigma2_times_4 = (n * n - 1) / 3  # variance of 2x - (n - 1)
    z = total / (sigma2_times_4 * math.sqrt(m))
    return TestResult(f"serial correlation lag {lag} below {n}", z, None, normal_two_sided_p(z), m)


# -- families of repetitions -----------------------------------------------------------------


@dataclass(frozen=True)
class BatchVerdict:
    """Outcome of one test repeated on independent samples."""

    name: str
    p_values: tuple[float, ...]
    failures: int  # repetitions with p < alpha
    max_failures: int  # the most failures consistent with uniformity
    nist_min_proportion: float  # SP 800-22's lowest acceptable pass proportion

    @property
    def passed(self) -> bool:
        """Few enough repetitions failed."""
        return self.failures <= self.max_failures

    def line(self) -> str:
        """One line for reports."""
        runs = len(self.p_values)
        verdict = "pass" if self.passed else "FAIL"
        return (
            f"{self.name}: {runs - self.failures}/{runs} repetitions pass at 99% "
            f"(at most {self.max_failures} failures allowed; NIST proportion "
            f">= {self.nist_min_proportion:.4f}); min p={min(self.p_values):.4f} {verdict}"
        )


def max_failures(repetitions: int, alpha: float = ALPHA, risk: float = 0.001) -> int:
    """The least ``c`` with ``P(Binomial(repetitions, alpha) > c) <= risk``."""
    tail = 1.0
    for c in range(repetitions + 1):
        tail -= math.comb(repetitions, c) * alpha**c * (1 - alpha) ** (repetitions - c)
        if tail <= risk:
            return c
    return repetitions


def batch_verdict(results: Sequence[TestResult], risk: float = 0.001) -> BatchVerdict:
    """Judge repetitions of one test (all with the same ``alpha``)."""
    if not results:
        raise ValueError("no results to judge")
    alpha = results[0].alpha
    m = len(results)
    p_hat = 1 - alpha
    return BatchVerdict(
        name=results[0].name,
        p_values=tuple(r.p_value for r in results),
        failures=sum(not r.passed for r in results),
        max_failures=max_failures(m, alpha, risk),
        nist_min_proportion=p_hat - 3 * math.sqrt(p_hat * alpha / m),
    )
