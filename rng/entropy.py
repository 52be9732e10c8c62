"""The entropy source: the operating system's random number generator, under health tests.

Samples are bytes read with ``os.getrandom`` (Linux; blocks until the kernel generator is
seeded) or ``os.urandom`` elsewhere.  Every byte read, including those of the start-up test,
passes through the SP 800-90B Repetition Count and Adaptive Proportion Tests
(:mod:`rng.health`).  The source claims ``h`` bits of min-entropy per byte (default 4, half of
the 8 an ideal byte carries, as a margin for a source that is not itself SP 800-90B validated),
so an entropy input of ``b`` bits is ``ceil(b / h)`` bytes long.

A failing test puts the source in a permanent error state: it raises
:class:`~rng.errors.HealthTestFailure` now and on every later request.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from fractions import Fraction
from typing import NoReturn

from rng.errors import HealthTestFailure
from rng.health import Cutoffs, HealthTests

DEFAULT_CLAIMED_ENTROPY = Fraction(4)  # bits of min-entropy claimed per byte
DEFAULT_ALPHA_LOG2 = 30  # false-positive probability 2**-30 per sample
STARTUP_SAMPLES = 1024  # SP 800-90B §4.3: start-up tests over at least 1024 samples


def read_os_random(n_bytes: int) -> bytes:
    """``n_bytes`` bytes from the kernel's generator (``getrandom(2)``, else ``urandom``)."""
    getrandom = getattr(os, "getrandom", None)
    if getrandom is None:
        return os.urandom(n_bytes)
    parts: list[bytes] = []
    missing = n_bytes
    while missing:  # getrandom(2) may return fewer bytes than asked for above 256
        part: bytes = getrandom(missing)
        parts.append(part)
        missing -= len(part)
    return b"".join(parts)


class OsEntropySource:
    """Entropy inputs for the DRBG, from ``read`` (default: the OS) under health tests."""

    __slots__ = ("_failure", "_read", "claimed_entropy", "cutoffs", "tests")

    def __init__(
        self,
        cutoffs: Cutoffs | None = None,
        read: Callable[[int], bytes] = read_os_random,
    ) -> None:
        """Run the start-up health test (1024 samples, discarded) with ``cutoffs``.

        The default cutoffs are those for 4 bits per byte at ``alpha = 2**-30``.
        """
        if cutoffs is None:
            cutoffs = Cutoffs.derive(DEFAULT_CLAIMED_ENTROPY, DEFAULT_ALPHA_LOG2)
        self.cutoffs = cutoffs
        self.claimed_entropy = cutoffs.h
        self.tests = HealthTests(self.cutoffs)
        self._read = read
        self._failure: str | None = None
        self._samples(STARTUP_SAMPLES)

    @property
    def failure(self) -> str | None:
        """Why the source failed, or ``None`` while it is healthy."""
        return self._failure

    def bytes_for(self, min_entropy_bits: int) -> int:
        """Length of an entropy input carrying ``min_entropy_bits`` bits at the claimed rate."""
        return math.ceil(min_entropy_bits / self.claimed_entropy)

    def get_entropy(self, min_entropy_bits: int) -> bytes:
        """An entropy input of at least ``min_entropy_bits`` bits of min-entropy."""
        return self._samples(self.bytes_for(min_entropy_bits))

    def _samples(self, n_bytes: int) -> bytes:
        if self._failure is not None:
            raise HealthTestFailure(self._failure)
        try:
            data = self._read(n_bytes)
            if len(data) != n_bytes:
                raise HealthTestFailure(f"entropy source returned {len(data)} of {n_bytes} bytes")
            self.tests.feed(data)
        except HealthTestFailure as failure:
            self._failure = str(failure)
            raise
        except OSError as error:
            self._failure = f"entropy source unreadable: {error}"
            raise HealthTestFailure(self._failure) from error
        return data

    def __repr__(self) -> str:
        state = "failed" if self._failure else "healthy"
        return (
            f"<OsEntropySource H={self.claimed_entropy} bits/byte RCT cutoff "
            f"{self.cutoffs.rct} APT cutoff {self.cutoffs.apt}/{self.cutoffs.apt_window} {state}>"
        )

    def __reduce_ex__(self, protocol: object) -> NoReturn:
        raise TypeError("the entropy source cannot be serialised")
