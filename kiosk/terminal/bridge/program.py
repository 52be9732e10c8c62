"""The bridge process: the terminal's sealed link on one line, the device on another.

:class:`BridgeProgram` is the simulator program
(:class:`~kiosk.terminal.devices.sim.program.SimProgram`: the sealed link under the device's pairing
key, the control channel) whose machine is a bridge
(:class:`~kiosk.terminal.bridge.validator.BridgeValidator`,
:class:`~kiosk.terminal.bridge.printer.BridgePrinter`) with a second line to the real device.  While
the device does not answer, the bridge holds the sealed link silent, so the terminal sees its device
link lost (its ``..._link`` tilt) exactly as with a device unplugged.
"""

from __future__ import annotations

import grp
import os
import selectors
from typing import Protocol

from kiosk.terminal.bridge.line import DeviceLine
from kiosk.terminal.devices.serial_port import monotonic_ms
from kiosk.terminal.devices.sim.program import Machine, SimProgram


def share_pty(path: str, group: str) -> None:
    """Give ``group`` read and write on the pty at ``path`` (the bridge is a member of it)."""
    os.chown(path, -1, grp.getgrnam(group).gr_gid)
    os.chmod(path, 0o660)


class BridgeMachine(Machine, Protocol):
    """A sealed-link machine with a device behind it."""

    device_up: bool

    def device_receive(self, data: bytes, now: int) -> None: ...
    def device_transmit(self, now: int) -> bytes: ...


class BridgeProgram(SimProgram):
    """Runs a bridge machine between the terminal's line and the device's line."""

    machine: BridgeMachine

    def __init__(
        self, *args: object, device: DeviceLine, link_group: str = "", **kwargs: object
    ) -> None:
        self.device = device
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.ready["device"] = device.path
        if link_group:  # the kiosk (another user, in this group) opens the link's pty
            share_pty(os.path.realpath(self.port), link_group)
        self.connected = False  # towards the terminal: only once the device answers

    def command(self, words: list[str]) -> str:
        """Control commands: the simulator program's, ``status`` the bridge's."""
        if words in (["disconnect"], ["reconnect"], ["garbage"]) or words[:1] == ["tamper"]:
            return "error not on a bridge"
        return super().command(words)

    def _step(self) -> None:
        if self._parent is not None and os.getppid() != self._parent:
            self.stop()
            return
        now = monotonic_ms()
        self.machine.tick(now)
        self.link.tick(now)
        self._device_out(now)
        self._flush(now)
        deadlines = [self.link.next_deadline()]
        machine_deadline = self.machine.next_deadline()
        if machine_deadline is not None:
            deadlines.append(machine_deadline)
        timeout = max(0, min(min(deadlines) - now, 100)) / 1000
        registered = []
        for fd, name in ((self.line.fileno(), "line"), (self.device.fileno(), "device")):
            if fd is not None:
                self.sel.register(fd, selectors.EVENT_READ, name)
                registered.append(fd)
        try:
            ready = self.sel.select(timeout)
        finally:
            for fd in registered:
                self.sel.unregister(fd)
        for key, _ in ready:
            if key.data == "line":
                data = self.line.read()
                if self.connected and data:
                    self.link.receive(data, monotonic_ms())
            elif key.data == "device":
                data = self.device.read()
                if data:
                    self.machine.device_receive(data, monotonic_ms())
            elif key.data == "accept":
                self._accept()
            else:
                self._client(key.fileobj)  # type: ignore[arg-type]
        now = monotonic_ms()
        self._device_out(now)
        self._flush(now)

    def _device_out(self, now: int) -> None:
        out = self.machine.device_transmit(now)
        if out:
            self.device.write(out)
        self.connected = self.machine.device_up

    def close(self) -> None:
        """Release both lines and the sockets."""
        super().close()
        self.device.close()
