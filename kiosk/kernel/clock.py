"""The wall clock every layer stamps with by default (tests pass their own clock instead)."""

from __future__ import annotations

import time


def wall_clock_ms() -> int:
    """Epoch milliseconds (events are stamped with it; no rule depends on it)."""
    return time.time_ns() // 1_000_000
