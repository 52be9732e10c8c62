"""Progress of a long command on standard error: a bar on a terminal, a line now and then
otherwise (decision 0043).

``Progress(label, total, unit)`` is told the work done so far (:meth:`Progress.update`, or
:meth:`Progress.advance` by steps) and draws

* on a terminal, one line redrawn in place at most :data:`REDRAW` times a second::

      simulate  [##########..........]  51%  5,120,000/10,000,000 rounds  1,020,000/s  0:04 left

* elsewhere (a pipe, a log file, a CI job), one plain line every :data:`EVERY` seconds::

      simulate: 51% (5,120,000 of 10,000,000 rounds), 1,020,000/s, 4 s left

:meth:`Progress.close` ends the bar's line.  Standard output stays the command's result (a
JSON document, a dump), so progress never mixes with it.  Ctrl-C is the commands' own: each
catches :class:`KeyboardInterrupt` where stopping is clean, prints what it has and exits
:data:`~kiosk.terminal.cli.guard.EXIT_INTERRUPTED` (130).

Why not ``tqdm`` or ``rich``: this is all the terminal's software needs of them, and the
certified image should not carry a dependency it does not need (docs/decisions/0043).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Self, TextIO

#: Seconds between two plain lines.
EVERY = 5.0
#: Most redraws of the bar a second.
REDRAW = 5
#: Characters of the bar.
WIDTH = 20


def _rate(per_second: float) -> str:
    """``2,048/s``; below 10 a second ``0.12/s`` or ``12/min``, never a bare ``0/s``."""
    if per_second >= 10 or per_second == 0:
        return f"{per_second:,.0f}/s"
    if per_second >= 1:
        return f"{per_second:.1f}/s"
    return f"{per_second * 60:.1f}/min"


def duration(seconds: float) -> str:
    """``1:02:03``, ``2:05`` or ``7 s`` (the plain form) for a number of seconds."""
    whole = max(int(seconds + 0.5), 0)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


class Progress:
    """Progress of ``total`` units of work (None: unknown) on ``stream`` (standard error)."""

    def __init__(
        self,
        label: str,
        total: int | None,
        unit: str = "",
        *,
        stream: TextIO | None = None,
        tty: bool | None = None,
        every: float = EVERY,
        clock: Callable[[], float] = time.monotonic,
        enabled: bool = True,
    ) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.tty = _isatty(self.stream) if tty is None else tty
        self.every = every
        self.enabled = enabled
        self._clock = clock
        self._start = clock()
        self._last = self._start
        self.done = 0
        self._drawn = False

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def advance(self, steps: int = 1) -> None:
        """``steps`` more units done."""
        self.update(self.done + steps)

    def update(self, done: int) -> None:
        """``done`` units done so far; draws when it is time to."""
        self.done = done
        if not self.enabled:
            return
        now = self._clock()
        wait = 1 / REDRAW if self.tty else self.every
        if now - self._last < wait and not (self.tty and done == self.total):
            return
        self._last = now
        self._draw(now)

    def rate(self, now: float | None = None) -> float:
        """Units a second so far."""
        elapsed = (self._clock() if now is None else now) - self._start
        return self.done / elapsed if elapsed > 0 else 0.0

    def line(self, now: float | None = None) -> str:
        """The plain progress line."""
        rate = self.rate(now)
        unit = f" {self.unit}" if self.unit else ""
        if self.total:
            share = self.done / self.total
            left = (self.total - self.done) / rate if rate > 0 else None
            eta = f", {_plain(left)} left" if left is not None else ""
            return (
                f"{self.label}: {share:.0%} ({self.done:,} of {self.total:,}{unit}),"
                f" {_rate(rate)}{eta}"
            )
        return f"{self.label}: {self.done:,}{unit}, {_rate(rate)}"

    def bar(self, now: float | None = None) -> str:
        """The terminal's bar line."""
        rate = self.rate(now)
        unit = f" {self.unit}" if self.unit else ""
        if not self.total:
            return f"{self.label}  {self.done:,}{unit}  {_rate(rate)}"
        share = min(self.done / self.total, 1.0)
        filled = int(share * WIDTH)
        left = (self.total - self.done) / rate if rate > 0 else None
        eta = f"  {duration(left)} left" if left is not None else ""
        return (
            f"{self.label}  [{'#' * filled}{'.' * (WIDTH - filled)}]  {share:4.0%}"
            f"  {self.done:,}/{self.total:,}{unit}  {_rate(rate)}{eta}"
        )

    def _draw(self, now: float) -> None:
        if self.tty:
            self.stream.write("\r\x1b[K" + self.bar(now))
            self._drawn = True
        else:
            self.stream.write(self.line(now) + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line (nothing to do for plain lines)."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def _plain(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else duration(seconds)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
