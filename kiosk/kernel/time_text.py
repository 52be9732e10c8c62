"""Time to text, written once: epoch milliseconds as local time.

The player's screen (recall, the voucher), the text UI, the service menu, the host's command
line and the floor dashboard show moments with these functions (decision 0045); none of
them formats a timestamp of its own.
"""

from __future__ import annotations

import time
from datetime import datetime

__all__ = ["clock_time", "date_time", "local_stamp", "local_time"]


def local_time(epoch_ms: int) -> str:
    """ISO 8601 local time with its UTC offset, to the second."""
    return datetime.fromtimestamp(epoch_ms / 1000).astimezone().isoformat(timespec="seconds")


def clock_time(epoch_ms: int) -> str:
    """Local wall-clock time ``HH:MM:SS``."""
    return datetime.fromtimestamp(epoch_ms / 1000).astimezone().strftime("%H:%M:%S")


def date_time(epoch_ms: int) -> str:
    """Local ``YYYY-MM-DD HH:MM:SS`` (a recalled game, a voucher's issue)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(epoch_ms / 1000))


def local_stamp(epoch_ms: int) -> str:
    """Local ``YYYY-MM-DD HH:MM:SS`` of a record's column; ``"-"`` for 0 (a moment that never
    came: never seen, never done)."""
    return date_time(epoch_ms) if epoch_ms else "-"
