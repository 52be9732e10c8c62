"""A host machine wired straight to a simulated device on a fake clock (no port)."""

from __future__ import annotations

from typing import Protocol

from kiosk.terminal.bridge.native import NativeEvent, NativeValidator


class Device(Protocol):
    def receive(self, data: bytes, now_ms: int) -> None: ...
    def transmit(self, now_ms: int) -> bytes: ...


class Rig:
    """Runs ``host`` against ``device``, 10 ms a tick, collecting the host's events."""

    def __init__(self, host: NativeValidator, device: Device) -> None:
        self.host = host
        self.device = device
        self.now = 0
        self.seen: list[NativeEvent] = []
        self.line_up = True

    def run(self, ms: int) -> list[NativeEvent]:
        """Advance ``ms``; the events that came out meanwhile."""
        start = len(self.seen)
        for _ in range(ms // 10):
            self.now += 10
            out = self.host.transmit(self.now)
            if out and self.line_up:
                self.device.receive(out, self.now)
            back = self.device.transmit(self.now)
            if back and self.line_up:
                self.host.receive(back, self.now)
            self.seen.extend(self.host.events())
        return self.seen[start:]

    def until(self, kind: type, ms: int = 5000) -> NativeEvent:
        """Run until an event of ``kind`` comes out (AssertionError after ``ms``)."""
        for _ in range(ms // 10):
            for event in self.run(10):
                if isinstance(event, kind):
                    return event
        raise AssertionError(f"no {kind.__name__} within {ms} ms; saw {self.seen}")
