"""systemd's service watchdog: ``READY=1`` once the event loop runs, then ``WATCHDOG=1`` pings.

The kiosk unit (``deploy/systemd/turbokiosk.service``) is ``Type=notify`` with ``WatchdogSec``;
systemd passes ``NOTIFY_SOCKET`` and ``WATCHDOG_USEC``.  The pings come from the Kivy clock, so
a hung event loop stops them and systemd restarts the kiosk.  Outside systemd (no
``NOTIFY_SOCKET``) every function here does nothing.  The protocol is sd_notify(3): one
datagram of ``KEY=VALUE`` lines to a Unix socket (``@`` names an abstract socket).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

#: Pings per watchdog period (systemd advises at least two).
PINGS_PER_PERIOD = 3


def notify(message: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Send ``message`` to systemd's notification socket; False when there is none."""
    address = environ.get("NOTIFY_SOCKET", "")
    if not address or address[0] not in "/@":
        return False
    target = "\0" + address[1:] if address[0] == "@" else address
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
        sock.sendto(message.encode("utf-8"), target)
    return True


def ping_interval(environ: Mapping[str, str] = os.environ, pid: int | None = None) -> float | None:
    """Seconds between pings, or None when systemd watches no watchdog for this process."""
    usec = environ.get("WATCHDOG_USEC", "")
    owner = environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if owner and owner != str(os.getpid() if pid is None else pid):
        return None
    return int(usec) / 1_000_000 / PINGS_PER_PERIOD


def feed_from_kivy_clock(environ: Mapping[str, str] = os.environ) -> None:
    """Schedule on Kivy's clock: ``READY=1`` and a ping on its first tick, then a ping every
    :func:`ping_interval`.  Call before the app runs, after :func:`ui.terminal.env.prepare`."""
    if not environ.get("NOTIFY_SOCKET"):
        return
    from kivy.clock import Clock

    interval = ping_interval(environ)

    def first(_dt: float) -> None:
        notify("READY=1\nSTATUS=kiosk event loop running\nWATCHDOG=1", environ)
        if interval is not None:
            Clock.schedule_interval(lambda _dt: notify("WATCHDOG=1", environ), interval)

    Clock.schedule_once(first, 0)
