"""Poll-to-response latency, measured on the line the way the protocol limits it.

SAS 6.02 lets a gaming machine start its answer at most
:data:`~kiosk.terminal.sas.wire.RESPONSE_LIMIT_S` (20 ms) after the last byte of a poll.
:func:`probe` sends one poll ``count`` times, waiting for each whole answer, and times from the
moment the poll was written to the first byte of the answer (what the limit is about) and to its
last byte.  The same loop against a bare echo gives the line's own cost (``turbokiosk sas host
--latency N``; the benchmark in docs/sas.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kiosk.host.sas.line import HostLine
from kiosk.terminal.sas import wire


@dataclass(frozen=True)
class LatencyStats:
    """Percentiles of one probe, in milliseconds."""

    polls: int
    answered: int
    first_p50_ms: float
    first_p99_ms: float
    first_max_ms: float
    whole_p50_ms: float
    whole_p99_ms: float
    whole_max_ms: float
    over_limit: int  # answers whose first byte came later than the protocol allows

    def as_dict(self) -> dict[str, float | int]:
        """The figures by name (for JSON and CSV)."""
        return dict(self.__dict__)


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The ``fraction`` percentile (nearest rank) of ``samples``; 0 for none."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1))
    return ordered[rank]


def probe(
    line: HostLine,
    frame: bytes,
    answer_length: int,
    count: int,
    *,
    timeout_s: float = 0.1,
    gap_s: float = 0.0,
    between: Callable[[int], None] | None = None,
) -> LatencyStats:
    """Send ``frame`` ``count`` times; time each answer of ``answer_length`` bytes."""
    first: list[float] = []
    whole: list[float] = []
    for index in range(count):
        if between is not None:
            between(index)
        line.send(frame)
        sent = time.perf_counter()
        got = 0
        first_at: float | None = None
        deadline = sent + timeout_s
        while got < answer_length:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            data = line.read(remaining)
            if data:
                if first_at is None:
                    first_at = time.perf_counter()
                got += len(data)
        if got >= answer_length and first_at is not None:
            first.append((first_at - sent) * 1000)
            whole.append((time.perf_counter() - sent) * 1000)
        else:  # let a late answer drain so it is not taken for the next one
            line.read(timeout_s)
        if gap_s:
            time.sleep(gap_s)
    limit_ms = wire.RESPONSE_LIMIT_S * 1000
    return LatencyStats(
        polls=count,
        answered=len(first),
        first_p50_ms=percentile(first, 0.50),
        first_p99_ms=percentile(first, 0.99),
        first_max_ms=max(first, default=0.0),
        whole_p50_ms=percentile(whole, 0.50),
        whole_p99_ms=percentile(whole, 0.99),
        whole_max_ms=max(whole, default=0.0),
        over_limit=sum(1 for f in first if f > limit_ms),
    )
