"""What the bill validator and printer drivers share: the channel, link tilts, fault tilts.

A driver lives on the terminal's thread.  It takes link events from its channel only when the
terminal asks it something (``poll``, ``ready``, ``recover``...), turns device events into
terminal commands (reports) and keeps them until the next ``poll``.  Faults become
``RaiseTilt``/``ClearTilt`` reports: a tilt is raised once per reason and cleared when the
condition ends; after a terminal restart every condition the device reports as absent is
cleared once, so a tilt journaled before the restart does not outlive its cause.

A frame the link refused as tampering (:class:`~kiosk.terminal.devices.link.Tampered`: a good CRC,
but forged, rewritten, replayed or reordered) raises the device's tamper tilt
(``bill_validator_tampered`` / ``printer_tampered``), naming the device and the count of frames
refused; it needs an attendant, and its reason is brought up to date as the count reaches 1, 2,
5, 10, 20, 50, 100... (so a flood of forged frames does not flood the journal).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices.link import Delivered, LinkDown, LinkEvent, LinkUp, Tampered

log = logging.getLogger(__name__)


class Channel(Protocol):
    """A reliable link to one device (see
    :class:`kiosk.terminal.devices.serial_port.LinkChannel`)."""

    def send(self, payload: bytes) -> None:
        """Queue a payload for the device."""
        ...

    def get(self, timeout: float) -> LinkEvent | None:
        """The next link event, waiting at most ``timeout`` seconds."""
        ...


class DriverBase:
    """Channel handling and tilt bookkeeping; subclasses handle payloads and link-up."""

    link_tilt: str = TiltCode.DEVICE_LINK
    tamper_tilt: str = TiltCode.DEVICE_TAMPERED
    device_name = "device"

    def __init__(
        self,
        channel: Channel,
        *,
        clock: Callable[[], float] = time.monotonic,
        connect_grace: float = 3.0,
    ) -> None:
        self.channel = channel
        self.clock = clock
        self.connect_grace = connect_grace
        self.link_up = False
        self._started = clock()
        self._ever_up = False
        self._reports: list[c.Command] = []
        self._raised: dict[str, str] = {}  # tilt code -> reason reported in this lifetime
        self._settled: set[str] = set()  # codes whose state was reported in this lifetime
        self.tampered = 0  # frames the link refused as tampering

    # --- for subclasses -------------------------------------------------------------------

    def _on_payload(self, payload: bytes) -> None:
        raise NotImplementedError

    def _on_link_up(self, new_peer: bool) -> None:
        raise NotImplementedError

    def _send(self, payload: bytes) -> None:
        self.channel.send(payload)

    def _report(self, command: c.Command) -> None:
        self._reports.append(command)

    def _condition(self, code: str, active: bool, reason: str) -> None:
        """Report a fault condition's state (raise once per reason, clear once when over)."""
        if active:
            if self._raised.get(code) != reason:
                self._raised[code] = reason
                self._report(c.RaiseTilt(code=code, reason=reason))
        elif code in self._raised or code not in self._settled:
            self._raised.pop(code, None)
            self._report(c.ClearTilt(code=code, by=self.device_name))
        self._settled.add(code)

    # --- the channel ------------------------------------------------------------------------

    def _drain(self, timeout: float = 0.0) -> bool:
        """Handle the link events waiting (the first one waited for); False when none came."""
        event = self.channel.get(timeout)
        if event is None:
            self._check_connect()
            return False
        while event is not None:
            self._handle(event)
            event = self.channel.get(0)
        self._check_connect()
        return True

    def _wait_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Handle link events until ``done()`` or ``timeout`` seconds pass; ``done()``."""
        deadline = self.clock() + timeout
        while not done():
            left = deadline - self.clock()
            if left <= 0:
                return False
            self._drain(min(left, 0.05))
        return True

    def _handle(self, event: LinkEvent) -> None:
        if isinstance(event, Delivered):
            try:
                self._on_payload(event.payload)
            except Exception:  # a well-framed message we cannot use must not stop the terminal
                log.exception("%s: unusable message", self.device_name)
        elif isinstance(event, LinkUp):
            self.link_up = self._ever_up = True
            self._condition(self.link_tilt, False, "")
            self._on_link_up(event.new_peer)
        elif isinstance(event, LinkDown):
            self.link_up = False
            self._condition(self.link_tilt, True, f"{self.device_name} link lost")
        elif isinstance(event, Tampered):
            self._tampered(event)

    def _tampered(self, event: Tampered) -> None:
        self.tampered = event.count
        if event.count <= 10 or event.count % 1000 == 0:
            log.error(
                "%s link: frame refused (%s), %d refused so far",
                self.device_name,
                event.reason,
                event.count,
            )
        if _milestone(event.count):
            reason = (
                f"{self.device_name} link tampered: {event.count} frame"
                f"{'s' if event.count > 1 else ''} refused (last: {event.reason})"
            )
            self._report(c.RaiseTilt(code=self.tamper_tilt, reason=reason, needs_attendant=True))

    def _check_connect(self) -> None:
        if not self._ever_up and self.clock() - self._started >= self.connect_grace:
            reason = f"{self.device_name} not connected"
            where = getattr(self.channel, "port_problem", None)  # a serial link names its port
            self._condition(self.link_tilt, True, f"{reason}: {where()}" if where else reason)

    def _take_reports(self) -> list[c.Command]:
        out, self._reports = self._reports, []
        return out


def _milestone(count: int) -> bool:
    """1, 2, 5, 10, 20, 50, 100, 200, 500, 1000..."""
    while count >= 10 and count % 10 == 0:
        count //= 10
    return count in (1, 2, 5)
