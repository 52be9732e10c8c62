"""Give freed heap memory back to the system (glibc ``malloc_trim``), after each game.

Software OpenGL allocates and frees large buffers while it draws; glibc keeps freed memory in
its heaps, so a long-running kiosk's resident size creeps up although nothing leaks.  Trimming
once a game returns it (a few milliseconds).  Elsewhere than glibc this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from functools import cache
from typing import Any


@cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


def trim() -> bool:
    """Return free heap pages to the system; False where that is not available."""
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True


def resident_mb() -> float:
    """This process's resident memory now, in MiB (Linux; 0.0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
