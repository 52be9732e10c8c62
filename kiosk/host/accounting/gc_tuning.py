"""The garbage collector of a long-lived host process.

A host lives for months and holds a large, stable heap after start-up (modules, gRPC, the pay
tables, the registry); the per-report garbage is short-lived protobuf messages and tuples.
Python's default thresholds (700 allocations) run a young collection every few reports and,
now and then, an old-generation pass over that whole stable heap.  After start-up
:func:`tune` therefore

* collects once and **freezes** what survived (``gc.freeze()``): the start-up heap moves to a
  permanent generation that no later collection walks (and that forked children share
  copy-on-write);
* raises the thresholds (:data:`THRESHOLDS`): a young collection every 50,000 allocations,
  older generations rarely.  Reference counting frees almost all of the per-report garbage
  anyway; the collector only has cycles to find.

:func:`set_switch_interval` shortens the interpreter's switch interval (``host serve
--switch-interval-ms``, default :data:`SWITCH_INTERVAL_MS`): how long the group commit's writer
waits for the event loop to hand the interpreter back after each reply from the database.

``turbokiosk host serve --gc default`` keeps Python's defaults (the floor bench measures both:
docs/host.md, "Floor scale figures").
"""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass

#: (young, middle, old) collection thresholds of a tuned host
THRESHOLDS = (50_000, 20, 100)
#: the host's interpreter switch interval (ms; Python's default is 5)
SWITCH_INTERVAL_MS = 1.0


@dataclass(frozen=True)
class GcState:
    """What :func:`tune` did: the thresholds now and how many objects it froze."""

    thresholds: tuple[int, int, int]
    frozen: int


def tune(thresholds: tuple[int, int, int] = THRESHOLDS) -> GcState:
    """Collect, freeze the survivors and raise the thresholds (call once serving began)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    young, middle, old = gc.get_threshold()
    return GcState((young, middle, old), gc.get_freeze_count())


def set_switch_interval(ms: float) -> float:
    """Set how long a thread that wants the interpreter lock waits before the holder must give
    it up (``sys.setswitchinterval``); the interval now, in ms.

    The group commit's writer gives the lock up at every reply from the database and then
    waits for the event loop, which under load holds it for the whole interval: a PostgreSQL
    group of a few statements waited that long for each (docs/host.md, "Issue 27, third
    pass")."""
    sys.setswitchinterval(ms / 1000)
    return sys.getswitchinterval() * 1000
