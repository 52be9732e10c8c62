"""The SAS host's loop: the poller and the casino logic driven over a :class:`HostLine`.

One thread, the monotonic clock: expire an overdue poll, send the next poll, wait for bytes
until the poller's next deadline, hand them in.  ``on_transmit``/``on_answer`` let a benchmark
time each exchange to the microsecond without changing the loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kiosk.host.sas.casino import CasinoHost
from kiosk.host.sas.line import HostLine
from kiosk.host.sas.poller import HostEvent, Transmit

#: the longest the loop sleeps in one wait (so a stop request is seen promptly)
MAX_WAIT_MS = 50.0


def monotonic_ms() -> float:
    """Milliseconds of the monotonic clock, with sub-millisecond precision."""
    return time.monotonic_ns() / 1_000_000


def run_host(
    line: HostLine,
    casino: CasinoHost,
    should_stop: Callable[[], bool],
    *,
    on_transmit: Callable[[Transmit], None] | None = None,
    on_events: Callable[[list[HostEvent]], None] | None = None,
) -> None:
    """Poll until ``should_stop()`` says so."""
    poller = casino.poller
    while not should_stop():
        now = monotonic_ms()
        expired = poller.expire(now)
        if expired:
            casino.handle(expired)
            if on_events is not None:
                on_events(expired)
        transmit = poller.tick(now)
        if transmit is not None:
            casino.stats["polls"] += 1
            line.send(transmit.data)
            if on_transmit is not None:
                on_transmit(transmit)
        wait = min(MAX_WAIT_MS, max(0.0, poller.next_wakeup_ms() - monotonic_ms()))
        data = line.read(wait / 1000)
        if data:
            events = poller.receive(data, monotonic_ms())
            casino.handle(events)
            if on_events is not None:
                on_events(events)
