"""A native device simulator process (``turbokiosk sim id003``, ``sim tcl-printer``): a
wire-exact device machine on a serial line, plus the control channel.

The line is an existing port opened with the protocol's settings (``--port PATH``) or a pty the
simulator creates (``--create-pty``: the other end linked at PATH).  The control channel is the
simulators' line-based TCP socket (``ok``/``error`` replies); besides the machine's commands:
``garbage N`` (N random bytes on the line), ``quit``.
"""

from __future__ import annotations

import os
import selectors
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from kiosk.terminal.bridge.line import DeviceLine
from kiosk.terminal.bridge.native import SerialSettings
from kiosk.terminal.devices.serial_port import monotonic_ms
from kiosk.terminal.devices.sim.process import SimProcess
from kiosk.terminal.devices.sim.program import PtyLine


class DeviceMachine(Protocol):
    """A native device's firmware (sans-IO)."""

    def receive(self, data: bytes, now: int) -> None: ...
    def take_output(self) -> bytes: ...
    def tick(self, now: int) -> None: ...
    def next_deadline(self) -> int | None: ...
    def control(self, words: list[str], now: int) -> str: ...


class NativeSimProgram(SimProcess):
    """Runs a native device machine on a line until ``quit`` or SIGTERM."""

    def __init__(
        self,
        make_machine: Callable[[int], DeviceMachine],
        *,
        port: str,
        create_pty: bool,
        settings: SerialSettings,
        control: tuple[str, int] = ("127.0.0.1", 0),
        ready_file: Path | None = None,
        exit_with_parent: bool = False,
    ) -> None:
        self.machine = make_machine(monotonic_ms())
        self.line: PtyLine | DeviceLine = (
            PtyLine(Path(port)) if create_pty else DeviceLine(port, settings)
        )
        self.open_control(port, control, ready_file, exit_with_parent)

    def _step(self) -> None:
        now = monotonic_ms()
        self.machine.tick(now)
        self._flush()
        deadline = self.machine.next_deadline()
        timeout = 0.1 if deadline is None else max(0, min(deadline - now, 100)) / 1000
        fd = self.line.fileno()
        if fd is not None:
            self.sel.register(fd, selectors.EVENT_READ, "line")
        try:
            ready = self.sel.select(timeout)
        finally:
            if fd is not None:
                self.sel.unregister(fd)
        for key, _ in ready:
            if key.data == "line":
                data = self.line.read()
                if data:
                    self.machine.receive(data, monotonic_ms())
            elif key.data == "accept":
                self._accept()
            else:
                self._client(key.fileobj)  # type: ignore[arg-type]
        self._flush()

    def _flush(self) -> None:
        out = self.machine.take_output()
        if out:
            self.line.write(out)

    def command(self, words: list[str]) -> str:
        """One control command; the reply line."""
        match words:
            case ["garbage", n] if n.isdigit() and int(n) <= 65536:
                self.line.write(os.urandom(int(n)))
                return "ok"
            case ["quit"]:
                self.stop()
                return "ok"
            case []:
                return "error empty command"
        reply = self.machine.control(words, monotonic_ms())
        self._flush()
        return reply
