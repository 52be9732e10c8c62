"""The production random number generator: HMAC_DRBG seeded from the health-tested OS source.

:class:`Csprng` is what the terminal uses.  On construction it runs the power-up self-tests
(:mod:`rng.selftest`), the entropy source's start-up health test, and instantiates
:class:`~rng.drbg.HmacDrbg` with a 64-byte entropy input and a 32-byte nonce (256 and 128 bits
of min-entropy at the claimed 4 bits per byte) and a personalization string.  Then:

- **Buffering.** Output is requested from the DRBG ``buffer_bytes`` (default 1024) at a time and
  handed out in order; draws for scaling and shuffling read from that buffer.  The bytes handed
  out form one contiguous stream: ``turbokiosk rng dump`` collects exactly that stream.
- **Reseeding.** A fresh entropy input is mixed in before a DRBG request when
  ``reseed_interval`` requests (default 4096, the standard allows 2**48) have been made since
  the last (re)seed, when ``reseed_seconds`` (default 600) have passed, after a ``fork``, and on
  :meth:`Csprng.reseed`.  With ``prediction_resistance`` every request reseeds.
- **Fork safety.** ``os.register_at_fork`` empties the buffer of every live generator in a child
  process and forces a reseed there; a process-id check on every call covers forks made outside
  Python's ``os.fork``.  Parent and child never share output.
- **Error state.** A failed self-test, health test or DRBG request sets :attr:`Csprng.failure`,
  drops the DRBG and the buffer, and from then on every call raises
  :class:`~rng.errors.RngFailure`.  Only a new instance (a restart) clears it.
- **Secrecy.** The state is never logged, shown, pickled or copied (``repr`` gives counters
  only; ``pickle``/``copy`` raise ``TypeError``).

The clock is used only to decide *when* to reseed, never as seed material.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NoReturn, TypeVar

from rng import scaling
from rng.drbg import MAX_BYTES_PER_REQUEST, MAX_RESEED_INTERVAL, DrbgError, HmacDrbg
from rng.entropy import DEFAULT_ALPHA_LOG2, DEFAULT_CLAIMED_ENTROPY, OsEntropySource, read_os_random
from rng.errors import RngFailure
from rng.health import Cutoffs
from rng.selftest import run_power_up_tests
from rng.shuffle import fisher_yates

T = TypeVar("T")

PERSONALIZATION = b"TurboKiosk rng/HMAC_DRBG-SHA256 v1"
ENTROPY_BITS = 256  # entropy input: the security strength
NONCE_BITS = 128  # nonce: half the security strength (SP 800-90A §8.6.7)
MAX_CYCLE_DISCARD = 4096
_BYTE_MASKS = scaling.BYTE_MASKS


@dataclass(frozen=True)
class RngConfig:
    """Tunable policy of :class:`Csprng`; the defaults are the production values."""

    buffer_bytes: int = 1024  # bytes per DRBG request when refilling the buffer
    reseed_interval: int = 4096  # DRBG requests between reseeds
    reseed_seconds: float = 600.0  # longest time between reseeds
    prediction_resistance: bool = False  # reseed before every DRBG request
    claimed_entropy: Fraction = DEFAULT_CLAIMED_ENTROPY  # min-entropy per OS byte, in bits
    alpha_log2: int = DEFAULT_ALPHA_LOG2  # health-test false-positive rate 2**-alpha_log2
    personalization: bytes = field(default=b"", repr=False)  # e.g. the terminal's serial

    def __post_init__(self) -> None:
        if not 32 <= self.buffer_bytes <= MAX_BYTES_PER_REQUEST:
            raise ValueError(f"buffer_bytes must be 32..{MAX_BYTES_PER_REQUEST}")
        if not 1 <= self.reseed_interval <= MAX_RESEED_INTERVAL:
            raise ValueError("reseed_interval must be 1..2**48")
        if not self.reseed_seconds > 0:
            raise ValueError("reseed_seconds must be positive")


@dataclass(frozen=True)
class RngStatus:
    """Counters for the service menu and the logs (nothing secret)."""

    healthy: bool
    failure: str | None
    reseeds: int  # reseeds since instantiation
    requests_since_reseed: int
    seconds_since_reseed: float
    bytes_out: int  # bytes handed out (draws, cycling and collection)


_LIVE: weakref.WeakSet[Csprng] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for generator in list(_LIVE):
        generator._forked()


os.register_at_fork(after_in_child=_after_fork_in_child)


class Csprng:
    """Cryptographically secure random numbers for dealing cards (see the module docstring)."""

    def __init__(
        self,
        config: RngConfig | None = None,
        *,
        entropy_read: Callable[[int], bytes] = read_os_random,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Self-test, health-test the source and instantiate; a failure sets the error state."""
        self.config = config or RngConfig()
        self._clock = clock
        self._lock = threading.Lock()
        self._failure: str | None = None
        self._drbg: HmacDrbg | None = None
        self._buf = b""
        self._pos = 0
        self._pid = os.getpid()
        self._seeded_at = 0.0
        self._reseeds = 0
        self._bytes_out = 0
        try:
            cutoffs = Cutoffs.derive(self.config.claimed_entropy, self.config.alpha_log2)
            run_power_up_tests(cutoffs)
            self._source = OsEntropySource(cutoffs, entropy_read)
            self._drbg = HmacDrbg(
                self._source.get_entropy(ENTROPY_BITS),
                self._source.get_entropy(NONCE_BITS),
                PERSONALIZATION + self.config.personalization,
                prediction_resistance=self.config.prediction_resistance,
                reseed_interval=self.config.reseed_interval,
                entropy_source=self._source.get_entropy,
            )
        except (RngFailure, DrbgError) as failure:
            self._fail(f"power-up: {failure}")
        self._seeded_at = clock()
        _LIVE.add(self)

    # -- public API (each call takes the lock) -------------------------------------------

    @property
    def failure(self) -> str | None:
        """Why the generator is in its error state, or ``None`` while it is healthy."""
        return self._failure

    @property
    def healthy(self) -> bool:
        """``True`` unless the generator is in its error state."""
        return self._failure is None

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``n >= 1``)."""
        with self._lock:
            self._check()
            return self._randbelow(n)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place; every ordering is equally likely."""
        with self._lock:
            self._check()
            fisher_yates(items, self._randbelow)

    def random_bytes(self, n: int) -> bytes:
        """The next ``n`` bytes of the output stream (for collection and statistical tests)."""
        if n < 0:
            raise ValueError(f"byte count must be non-negative, not {n}")
        with self._lock:
            self._check()
            return self._take(n)

    def cycle(self, n_bytes: int) -> None:
        """Background cycling: discard the next ``n_bytes`` (1..4096) of output; reseed if due."""
        if not 1 <= n_bytes <= MAX_CYCLE_DISCARD:
            raise ValueError(f"cycling discards 1..{MAX_CYCLE_DISCARD} bytes, not {n_bytes}")
        with self._lock:
            self._check()
            if self._reseed_due():
                self._reseed(b"timer")
            self._take(n_bytes)

    def reseed(self, additional_input: bytes = b"") -> None:
        """Mix in a fresh entropy input now (and ``additional_input``); empties the buffer."""
        with self._lock:
            self._check()
            self._reseed(b"request" + bytes(additional_input))

    def status(self) -> RngStatus:
        """Counters and health, for the service menu."""
        with self._lock:
            drbg = self._drbg
            return RngStatus(
                healthy=self._failure is None,
                failure=self._failure,
                reseeds=self._reseeds,
                requests_since_reseed=0 if drbg is None else drbg.reseed_counter - 1,
                seconds_since_reseed=self._clock() - self._seeded_at,
                bytes_out=self._bytes_out,
            )

    # -- internals (called with the lock held) -------------------------------------------

    def _randbelow(self, n: int) -> int:
        """:func:`rng.scaling.randbelow` over the buffer, inlined for one-byte bounds."""
        if type(n) is not int or not 2 <= n <= 256:
            return scaling.randbelow(n, self._take)
        mask = _BYTE_MASKS[n]
        while True:
            pos = self._pos
            if pos < len(self._buf):
                self._pos = pos + 1
                self._bytes_out += 1
                value = self._buf[pos] & mask
            else:
                value = self._take(1)[0] & mask  # refills the buffer
            if value < n:
                return value

    def _check(self) -> None:
        if self._failure is not None:
            raise RngFailure(self._failure)
        if self._pid != os.getpid():
            self._buf, self._pos = b"", 0
            self._pid = os.getpid()
            self._reseed(b"fork" + self._pid.to_bytes(8, "big"))

    def _take(self, n: int) -> bytes:
        pos = self._pos
        end = pos + n
        if end <= len(self._buf):
            self._pos = end
            self._bytes_out += n
            return self._buf[pos:end]
        parts = [self._buf[pos:]]
        need = n - len(parts[0])
        size = self.config.buffer_bytes
        while need > size:
            chunk = self._request(min(need, MAX_BYTES_PER_REQUEST))
            parts.append(chunk)
            need -= len(chunk)
        self._buf, self._pos = self._request(size), need
        parts.append(self._buf[:need])
        self._bytes_out += n
        return b"".join(parts)

    def _request(self, n: int) -> bytes:
        """One DRBG generate request, reseeding first when the policy says so."""
        drbg = self._drbg
        if drbg is None or self._failure is not None:
            raise RngFailure(self._failure or "generator not instantiated")
        if self._reseed_due():
            self._reseed(b"policy")
        try:
            return drbg.generate(n)
        except (RngFailure, DrbgError) as failure:
            self._fail(f"generate: {failure}")
            raise RngFailure(self._failure) from failure

    def _reseed_due(self) -> bool:
        drbg = self._drbg
        return drbg is not None and (
            drbg.reseed_counter > self.config.reseed_interval
            or self._clock() - self._seeded_at >= self.config.reseed_seconds
        )

    def _reseed(self, additional_input: bytes) -> None:
        drbg = self._drbg
        if drbg is None:
            raise RngFailure(self._failure or "generator not instantiated")
        try:
            drbg.reseed(self._source.get_entropy(ENTROPY_BITS), additional_input)
        except (RngFailure, DrbgError) as failure:
            self._fail(f"reseed: {failure}")
            raise RngFailure(self._failure) from failure
        self._buf, self._pos = b"", 0
        self._seeded_at = self._clock()
        self._reseeds += 1

    def _fail(self, reason: str) -> None:
        self._failure = reason
        self._drbg = None
        self._buf, self._pos = b"", 0

    def _forked(self) -> None:
        """In a child process: forget buffered output, force a reseed, renew the lock."""
        self._lock = threading.Lock()
        self._buf, self._pos = b"", 0
        self._pid = -1

    # -- never show or copy the state ----------------------------------------------------

    def __repr__(self) -> str:
        state = "healthy" if self._failure is None else f"FAILED ({self._failure})"
        return f"<Csprng HMAC_DRBG-SHA256 {state} reseeds={self._reseeds}>"

    def __reduce_ex__(self, protocol: object) -> NoReturn:
        raise TypeError("the generator's state must never be serialised or copied")

    def __getstate__(self) -> NoReturn:
        raise TypeError("the generator's state must never be serialised or copied")
