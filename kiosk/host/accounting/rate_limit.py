"""Per-terminal report rate limits, far above any human play (sans-IO, in memory).

Each terminal has a bucket of :attr:`RateLimits.burst` messages refilled at
:attr:`RateLimits.messages_per_second`.  A ``Report`` is let in while the bucket is not empty
and then takes its messages out (a heartbeat counts as one), so a full batch is never refused
for being larger than what is left; the balance may go below zero, and the next report waits
until it is above again.  A report that finds the bucket empty is throttled: the servicer
refuses it ``RESOURCE_EXHAUSTED`` with the standard retry pushback (trailing metadata
``grpc-retry-pushback-ms``), which the terminal's link takes as "send it again later" (it
neither stops play nor fails over); nothing of it is stored, so nothing is lost.  The first
throttled report of a terminal in every :attr:`RateLimits.alarm_seconds` raises a
``report_rate`` alarm (:meth:`RateLimiter.admit` says when).

Human play makes about four messages a game (the game, the meter snapshots of its commits, notes)
and a game takes seconds, about one message a second at the fastest: the default rate (20 a
second) is more than ten times that, and a terminal's backlog after hours off-line is
delivered at once up to the burst (5,000), then at the rate.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

#: the trailing metadata key of gRPC's retry pushback (milliseconds to wait)
PUSHBACK_KEY = "grpc-retry-pushback-ms"


class RateLimitError(ValueError):
    """Limits that make no sense (a rate or burst of nought or less)."""


@dataclass(frozen=True)
class RateLimits:
    """The host's report rate limits per terminal (``host serve --report-rate ...``)."""

    messages_per_second: float = 20.0
    burst: int = 5_000
    alarm_seconds: float = 60.0  # at most one report_rate alarm per terminal this often

    def __post_init__(self) -> None:
        if not 0 < self.messages_per_second <= 1_000_000:
            raise RateLimitError(
                f"report rate: {self.messages_per_second:g} messages a second; it must be above "
                "0 and at most 1,000,000"
            )
        if not 1 <= self.burst <= 10_000_000:
            raise RateLimitError(f"report burst: {self.burst} messages; from 1 to 10,000,000")
        if not 0 < self.alarm_seconds <= 86_400:
            raise RateLimitError(f"alarm period: {self.alarm_seconds:g} s; above 0, up to a day")


@dataclass(frozen=True)
class Verdict:
    """What the limiter says of one report."""

    admitted: bool
    retry_ms: int = 0  # throttled: when the bucket is above nought again
    alarm: bool = False  # throttled, and the first time in this alarm period


class RateLimiter:
    """The buckets of every terminal (thread-safe; the clock is injectable for tests)."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # terminal -> (balance, at)
        self._alarmed: dict[str, float] = {}  # terminal -> when its last alarm was due
        self._lock = threading.Lock()

    def admit(self, terminal: str, messages: int) -> Verdict:
        """Let a report of ``messages`` in (taking them out of the bucket), or throttle it."""
        cost = max(1, messages)
        rate, burst = self.limits.messages_per_second, float(self.limits.burst)
        with self._lock:
            now = self.clock()
            balance, at = self._buckets.get(terminal, (burst, now))
            balance = min(burst, balance + (now - at) * rate)
            if balance > 0:
                self._buckets[terminal] = (balance - cost, now)
                return Verdict(True)
            self._buckets[terminal] = (balance, now)
            retry_ms = max(1, int((-balance + 1) / rate * 1000))
            last = self._alarmed.get(terminal)
            alarm = last is None or now - last >= self.limits.alarm_seconds
            if alarm:
                self._alarmed[terminal] = now
            return Verdict(False, retry_ms, alarm)
