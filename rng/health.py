"""SP 800-90B §4.4 continuous health tests: Repetition Count Test and Adaptive Proportion Test.

Both cutoffs follow from the min-entropy ``H`` (bits per sample) claimed for the source and the
false-positive probability ``alpha`` accepted per sample (SP 800-90B §4.4.1 and §4.4.2):

- RCT: ``C = 1 + ceil(-log2(alpha) / H)``;
- APT: ``C = 1 + CRITBINOM(W, 2**-H, 1 - alpha)``, the smallest count ``k + 1`` with
  ``P(X <= k) >= 1 - alpha`` for ``X ~ Binomial(W, 2**-H)``; window ``W = 1024`` for binary
  samples, ``512`` otherwise.

The binomial tail is summed exactly enough for any ``H`` with 80-digit decimals.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction

from rng.errors import HealthTestFailure

BINARY_WINDOW = 1024
NON_BINARY_WINDOW = 512


def rct_cutoff(h: Fraction, alpha_log2: int) -> int:
    """Repetition Count Test cutoff for claimed min-entropy ``h`` and ``alpha = 2**-alpha_log2``."""
    _check(h, alpha_log2)
    return 1 + math.ceil(Fraction(alpha_log2) / h)


@functools.cache
def apt_cutoff(h: Fraction, alpha_log2: int, window: int) -> int:
    """Adaptive Proportion Test cutoff for a window of ``window`` samples."""
    _check(h, alpha_log2)
    if window < 2:
        raise ValueError(f"APT window must be at least 2 samples, not {window}")
    with localcontext() as ctx:
        ctx.prec = 80
        p = Decimal(2) ** (-Decimal(h.numerator) / Decimal(h.denominator))
        q = 1 - p
        alpha = Decimal(2) ** -alpha_log2
        # tail(k) = P(X > k); walk k down from W while the tail stays within alpha.
        tail = Decimal(0)
        k = window
        while k > 0:
            p_k = Decimal(math.comb(window, k)) * p**k * q ** (window - k)  # P(X = k)
            if tail + p_k > alpha:
                break
            tail += p_k
            k -= 1
        return 1 + k


def _check(h: Fraction, alpha_log2: int) -> None:
    if not 0 < h <= 8:
        raise ValueError(f"claimed min-entropy must be in (0, 8] bits per sample, not {h}")
    if not 20 <= alpha_log2 <= 40:
        raise ValueError(f"SP 800-90B asks for alpha in [2**-40, 2**-20], not 2**-{alpha_log2}")


@dataclass(frozen=True)
class Cutoffs:
    """The cutoffs of both tests for one claimed entropy and false-positive rate."""

    h: Fraction  # claimed min-entropy, bits per sample
    alpha_log2: int  # alpha = 2**-alpha_log2
    rct: int
    apt: int
    apt_window: int

    @classmethod
    def derive(cls, h: Fraction, alpha_log2: int, *, binary: bool = False) -> Cutoffs:
        """Cutoffs from SP 800-90B's formulas."""
        window = BINARY_WINDOW if binary else NON_BINARY_WINDOW
        return cls(
            h, alpha_log2, rct_cutoff(h, alpha_log2), apt_cutoff(h, alpha_log2, window), window
        )


class RepetitionCountTest:
    """SP 800-90B §4.4.1: fails when one value repeats ``cutoff`` times in a row."""

    __slots__ = ("_count", "_last", "cutoff")

    def __init__(self, cutoff: int) -> None:
        if cutoff < 2:
            raise ValueError(f"RCT cutoff must be at least 2, not {cutoff}")
        self.cutoff = cutoff
        self._last = -1
        self._count = 0

    def feed(self, samples: bytes) -> None:
        """Test each sample; raise :class:`HealthTestFailure` at the cutoff."""
        last, count, cutoff = self._last, self._count, self.cutoff
        for sample in samples:
            if sample == last:
                count += 1
                if count >= cutoff:
                    self._last, self._count = last, count
                    raise HealthTestFailure(
                        f"repetition count test: sample value {sample} repeated {count} times "
                        f"in a row (cutoff {cutoff})"
                    )
            else:
                last, count = sample, 1
        self._last, self._count = last, count


class AdaptiveProportionTest:
    """SP 800-90B §4.4.2: fails when a window's first value recurs ``cutoff`` times in it."""

    __slots__ = ("_count", "_first", "_seen", "cutoff", "window")

    def __init__(self, cutoff: int, window: int = NON_BINARY_WINDOW) -> None:
        if not 2 <= cutoff <= window:
            raise ValueError(f"APT cutoff must be in 2..{window}, not {cutoff}")
        self.cutoff = cutoff
        self.window = window
        self._first = -1
        self._count = 0
        self._seen = window  # samples seen in the current window; a full window starts anew

    def feed(self, samples: bytes) -> None:
        """Test each sample; raise :class:`HealthTestFailure` at the cutoff."""
        first, count, seen = self._first, self._count, self._seen
        cutoff, window = self.cutoff, self.window
        for sample in samples:
            if seen == window:
                first, count, seen = sample, 1, 1
                continue
            seen += 1
            if sample == first:
                count += 1
                if count >= cutoff:
                    self._first, self._count, self._seen = first, count, seen
                    raise HealthTestFailure(
                        f"adaptive proportion test: sample value {sample} occurred {count} "
                        f"times in a window of {window} (cutoff {cutoff})"
                    )
        self._first, self._count, self._seen = first, count, seen


class HealthTests:
    """Both continuous tests over one stream of 8-bit samples."""

    __slots__ = ("apt", "cutoffs", "rct")

    def __init__(self, cutoffs: Cutoffs) -> None:
        self.cutoffs = cutoffs
        self.rct = RepetitionCountTest(cutoffs.rct)
        self.apt = AdaptiveProportionTest(cutoffs.apt, cutoffs.apt_window)

    def feed(self, samples: bytes) -> None:
        """Run both tests over ``samples``; raise :class:`HealthTestFailure` on a failure."""
        self.rct.feed(samples)
        self.apt.feed(samples)
