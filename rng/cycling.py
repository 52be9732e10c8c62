"""Background cycling: the generator is stepped at irregular moments while the terminal idles.

Between game rounds the terminal's event loop calls :meth:`BackgroundCycler.step`; each step
discards a random number (1..``max_discard``) of output bytes and returns the random delay
(``min_interval``..``max_interval`` seconds, microsecond resolution) after which the loop should
call it again.  Both figures come from the generator itself, so which bytes the next round
receives depends on how long, to the microsecond, the terminal stood idle.  A step also performs
a reseed that the timer has made due, so reseeds happen between rounds rather than during one.

The cycler holds no thread of its own; :class:`CyclerThread` runs it on one for set-ups without
an event loop.  :meth:`BackgroundCycler.pause` stops the cycling during a round.
"""

from __future__ import annotations

import threading
from typing import Protocol

DEFAULT_MIN_INTERVAL = 0.005  # seconds
DEFAULT_MAX_INTERVAL = 0.045
DEFAULT_MAX_DISCARD = 64  # bytes


class Cyclable(Protocol):
    """What the cycler needs from the generator."""

    def randbelow(self, n: int) -> int: ...

    def cycle(self, n_bytes: int) -> None: ...


class BackgroundCycler:
    """Steps a generator at random intervals (see the module docstring)."""

    def __init__(
        self,
        rng: Cyclable,
        *,
        min_interval: float = DEFAULT_MIN_INTERVAL,
        max_interval: float = DEFAULT_MAX_INTERVAL,
        max_discard: int = DEFAULT_MAX_DISCARD,
        enabled: bool = True,
    ) -> None:
        if not 0 < min_interval <= max_interval:
            raise ValueError("intervals must satisfy 0 < min_interval <= max_interval")
        if not 1 <= max_discard <= 4096:
            raise ValueError(f"max_discard must be 1..4096, not {max_discard}")
        self._rng = rng
        self._min_us = round(min_interval * 1_000_000)
        self._span_us = round(max_interval * 1_000_000) - self._min_us + 1
        self.max_discard = max_discard
        self.enabled = enabled
        self._paused = False
        self.steps = 0
        self.bytes_discarded = 0

    @property
    def paused(self) -> bool:
        """``True`` while a game round is in progress."""
        return self._paused

    def pause(self) -> None:
        """Stop cycling (a round starts)."""
        self._paused = True

    def resume(self) -> None:
        """Cycle again (the round is over)."""
        self._paused = False

    def next_delay(self) -> float:
        """A random delay in seconds before the next step."""
        return (self._min_us + self._rng.randbelow(self._span_us)) / 1_000_000

    def step(self) -> float:
        """Discard a random amount of output unless paused or disabled; the next delay."""
        if self.enabled and not self._paused:
            n_bytes = 1 + self._rng.randbelow(self.max_discard)
            self._rng.cycle(n_bytes)
            self.steps += 1
            self.bytes_discarded += n_bytes
        return self.next_delay()


class CyclerThread(threading.Thread):
    """Runs a :class:`BackgroundCycler` on a daemon thread until :meth:`stop`.

    An exception (an :class:`~rng.errors.RngFailure` above all) ends the thread and is kept in
    :attr:`error`; the generator itself stays in its error state for the next draw to report.
    """

    def __init__(self, cycler: BackgroundCycler) -> None:
        super().__init__(name="rng-cycler", daemon=True)
        self.cycler = cycler
        self.error: BaseException | None = None
        self._stop_event = threading.Event()

    def run(self) -> None:
        try:
            delay = self.cycler.next_delay()
            while not self._stop_event.wait(delay):
                delay = self.cycler.step()
        except Exception as error:  # recorded for the terminal; the generator is already failed
            self.error = error

    def stop(self, timeout: float | None = 1.0) -> None:
        """Ask the thread to end and wait for it."""
        self._stop_event.set()
        self.join(timeout)
