"""A deterministic stand-in for the serial link: a driver wired straight to a device machine.

The real link delivers every payload once and in order while both ends live, holds traffic
while the line is down, and loses what was in flight to an end that restarts; :class:`Wire`
does exactly that, on a fake clock, so whole-system properties run fast and repeatably.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from kiosk.terminal.devices.link import Delivered, LinkDown, LinkEvent, LinkUp
from kiosk.terminal.devices.ports import Voucher
from kiosk.terminal.hostlink.ports import TicketValidation


class Clock:
    """Fake time: epoch ms for the runtime, seconds for drivers, ms for machines."""

    def __init__(self) -> None:
        self.ms = 1_800_000_000_000

    def __call__(self) -> int:
        return self.ms

    def seconds(self) -> float:
        return self.ms / 1000

    def advance(self, ms: int) -> None:
        self.ms += ms


class Wire:
    """The driver's channel, connected to one machine."""

    def __init__(self, clock: Clock, machine: Any, *, up: bool = True) -> None:
        self.clock = clock
        self.machine = machine
        self.to_device: list[bytes] = []
        self.events: deque[LinkEvent] = deque()
        self.up = False
        self.fresh = True  # no session yet: the first connection is a new peer for both
        if up:
            self.connect(new_peer=True)

    # Channel
    def send(self, payload: bytes) -> None:
        self.to_device.append(payload)

    def get(self, timeout: float) -> LinkEvent | None:
        self.run()
        if not self.events and timeout > 0:
            self.clock.advance(max(1, int(timeout * 1000)))
            self.run()
        return self.events.popleft() if self.events else None

    def run(self) -> None:
        now = self.clock.ms
        self.machine.tick(now)
        if not self.up:
            return
        while self.to_device:
            self.machine.on_command(self.to_device.pop(0), now)
        self.events.extend(Delivered(p) for p in self.machine.take_outgoing())

    # the line
    def connect(self, *, new_peer: bool) -> None:
        new_peer = new_peer or self.fresh
        self.up, self.fresh = True, False
        self.machine.on_link_up(new_peer, self.clock.ms)
        self.events.append(LinkUp(new_peer=new_peer))

    def disconnect(self) -> None:
        if self.up:
            self.up = False
            self.machine.on_link_down(self.clock.ms)
            self.events.append(LinkDown("cable pulled"))

    def device_restarted(self, machine: Any) -> None:
        """The device lost power: what was in flight is gone; a new session starts."""
        self.machine = machine
        self.to_device.clear()
        self.events.append(LinkDown("device restarted"))
        self.connect(new_peer=True)


def terminal_restarted(wire: Wire, clock: Clock) -> Wire:
    """The terminal died: its commands in flight and the device's queued events are lost."""
    machine = wire.machine
    machine.take_outgoing()
    if wire.up:
        return Wire(clock, machine)
    machine.on_link_down(clock.ms)
    return Wire(clock, machine, up=False)


class FakeHost:
    """The host's ticket records: each voucher redeemable once."""

    def __init__(self, tickets: dict[str, int]) -> None:
        self.values = dict(tickets)
        self.reserved: set[str] = set()
        self.redeemed: list[str] = []
        self.numbers = 0

    def validation_number(self, value: int) -> str:
        self.numbers += 1
        return f"{self.numbers:018d}"

    def validate_ticket(self, number: str) -> TicketValidation:
        if number not in self.values:
            return TicketValidation(False, reason="unknown voucher")
        if number in self.redeemed:
            return TicketValidation(False, reason="already redeemed")
        self.reserved.add(number)
        return TicketValidation(True, value=self.values[number])

    def ticket_stacked(self, number: str) -> None:
        assert number not in self.redeemed, f"{number} redeemed twice"
        self.redeemed.append(number)
        self.reserved.discard(number)

    def ticket_returned(self, number: str) -> None:
        assert number not in self.redeemed, f"{number} released after it was redeemed"
        self.reserved.discard(number)


def state_dir(base: Path, name: str) -> Path:
    path = base / name
    path.mkdir(parents=True, exist_ok=True)
    return path


VOUCHER = Voucher("001234567890123456", 123_456, "TK-0001", "Demo Casino", 1_764_000_000_000, 30, 7)
