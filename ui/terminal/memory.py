"""Keep the kiosk's resident memory down.

- :func:`trim`, after each game: software OpenGL allocates and frees large buffers while it
  draws; glibc keeps freed memory in its heaps, so a long-running kiosk's resident size creeps
  up although nothing leaks.  Trimming once a game returns it (a few milliseconds).  Elsewhere
  than glibc this does nothing.
- :func:`release_text_surfaces`, once: Kivy's SDL2 text provider keeps each label's rendered
  pixels (an SDL surface of the label's size) after copying them into the label's texture, so
  every label's text sits in memory twice; at 1920x1080 that is about 10 MB.
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


_released = False


def release_text_surfaces() -> bool:
    """Make Kivy's SDL2 labels let go of their rendered pixels once they are in the texture
    (the texture is all that is drawn; a label renders afresh whenever its text or size
    changes).  False where the SDL2 text provider is not in use."""
    global _released
    if _released:
        return True
    try:
        from kivy.core.text.text_sdl2 import LabelSDL2
    except ImportError:
        return False
    keep_surface = LabelSDL2._render_end

    def render_end(label: Any) -> Any:
        data = keep_surface(label)  # a copy of the surface's pixels
        label._surface = None
        return data

    LabelSDL2._render_end = render_end
    _released = True
    return True


def resident_mb() -> float:
    """This process's resident memory now, in MiB (Linux; 0.0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
