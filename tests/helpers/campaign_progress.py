"""Progress of a long test campaign (issue 29): the kernel's :class:`~kiosk.kernel.progress.
Progress` drawn on the real standard error, past pytest's capture, so a campaign of minutes
says how far it is and how long it has left (a line every few seconds in CI logs, a bar on a
terminal).

    with campaign_progress("sealed kills", kills, "kills") as progress:
        for _ in range(kills):
            ...
            progress.advance()

The conftest hands this module pytest's capture manager (:func:`attach`); without it (the
module used outside pytest) the lines go to standard error as they are.  Under xdist, workers'
standard error is not shown: campaigns run in their own tox environments, without workers.
"""

from __future__ import annotations

import io
import sys
from typing import Any, TextIO, cast

from kiosk.kernel.progress import Progress

_capture: Any = None


def attach(capture_manager: Any) -> None:
    """pytest's ``capturemanager`` plugin, from the conftest's ``pytest_configure``."""
    global _capture
    _capture = capture_manager


class _Uncaptured(io.TextIOBase):
    """Standard error with pytest's capture suspended for each write."""

    def write(self, text: str) -> int:
        if _capture is None:
            return sys.stderr.write(text)
        with _capture.global_and_fixture_disabled():
            written = sys.stderr.write(text)
            sys.stderr.flush()
        return written

    def isatty(self) -> bool:
        return sys.__stderr__ is not None and sys.__stderr__.isatty()


def campaign_progress(label: str, total: int | None, unit: str, *, every: float = 5.0) -> Progress:
    """A :class:`Progress` of ``total`` ``unit`` for a campaign, past pytest's capture."""
    return Progress(label, total, unit, stream=cast(TextIO, _Uncaptured()), every=every)
