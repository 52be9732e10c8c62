"""A simulator process: one device machine on a serial line, plus its control channel.

The line is either an existing serial port (``--port PATH``: a USB adapter, one end of a
``socat`` pair) or a pseudo-terminal the simulator creates itself (``--create-pty``: the
terminal's end is linked at PATH, and disappears when the simulator stops, like a device
unplugged).  The control channel is a line-based TCP socket on 127.0.0.1: one command per line,
one reply line per command, starting ``ok`` or ``error``.  Besides the machine's own commands:

``garbage N``  write N random bytes on the line; ``disconnect`` / ``reconnect``  stop and resume
all traffic (a cable pulled and put back); ``tamper rewrite`` / ``tamper replay``  write, with a
good CRC, a copy of the last frame sent with one byte of its sealed packet changed, or the
oldest frame still remembered, as it was (a man on the cable: the terminal refuses both and
raises its tamper tilt); ``stats``  link counters; ``quit``  stop.

The link is sealed with the device's pairing key (:mod:`kiosk.terminal.devices.seal`, the device's
role).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import pty
import selectors
import socket
import tty
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from cobs import cobs

from kiosk.terminal.devices.framing import CRC_BYTES, encode_frame
from kiosk.terminal.devices.link import Delivered, Link, LinkConfig, LinkDown, LinkUp
from kiosk.terminal.devices.seal import HEADER_BYTES, Role
from kiosk.terminal.devices.serial_port import (
    LineClosedError,
    SerialLine,
    monotonic_ms,
    new_session,
)
from kiosk.terminal.devices.sim.process import SimProcess


class Machine(Protocol):
    """A device's firmware (sans-IO)."""

    def on_link_up(self, new_peer: bool, now: int) -> None: ...
    def on_link_down(self, now: int) -> None: ...
    def on_command(self, payload: bytes, now: int) -> None: ...
    def control(self, words: list[str], now: int) -> str: ...
    def tick(self, now: int) -> None: ...
    def next_deadline(self) -> int | None: ...
    def take_outgoing(self) -> list[bytes]: ...


class PtyLine:
    """A pseudo-terminal whose other end (linked at ``path``) the terminal opens."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.master, self._slave = pty.openpty()
        tty.setraw(self._slave)  # kept open: the line stays up between terminal (re)opens
        os.set_blocking(self.master, False)
        tmp = path.with_name(path.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(self._slave))
        tmp.replace(path)

    def fileno(self) -> int:
        """The master side."""
        return self.master

    def read(self) -> bytes:
        """What the terminal wrote (possibly nothing)."""
        try:
            return os.read(self.master, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b""
            raise

    def write(self, data: bytes) -> None:
        """Send; bytes that do not fit (nobody reading) are lost, as on a wire."""
        with contextlib.suppress(BlockingIOError):
            os.write(self.master, data)

    def close(self) -> None:
        """Close both sides and remove the link if it is still ours."""
        with contextlib.suppress(OSError):
            if os.readlink(self.path) == os.ttyname(self._slave):
                self.path.unlink()
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class PortLine:
    """An existing serial port, reopened when it goes away."""

    def __init__(self, path: str) -> None:
        self.line = SerialLine(path)
        self._next_open = 0

    def fileno(self) -> int | None:
        """The port's descriptor, opening it if due; None while it is not there."""
        if not self.line.is_open and monotonic_ms() >= self._next_open:
            try:
                self.line.open()
            except LineClosedError:
                self._next_open = monotonic_ms() + 500
                return None
        return self.line.fileno() if self.line.is_open else None

    def read(self) -> bytes:
        """What arrived."""
        try:
            return self.line.read()
        except LineClosedError:
            return b""

    def write(self, data: bytes) -> None:
        """Send (dropped while the port is not there)."""
        with contextlib.suppress(LineClosedError):
            self.line.write(data)

    def close(self) -> None:
        """Close the port."""
        self.line.close()


class SimProgram(SimProcess):
    """Runs a machine on a line until ``quit`` or SIGTERM."""

    def __init__(
        self,
        make_machine: Callable[[int], Machine],
        *,
        key: bytes,
        port: str,
        create_pty: bool,
        control: tuple[str, int] = ("127.0.0.1", 0),
        ready_file: Path | None = None,
        config: LinkConfig | None = None,
        exit_with_parent: bool = False,
    ) -> None:
        now = monotonic_ms()
        self.machine = make_machine(now)
        self.link = Link(new_session(), now, config, key=key, role=Role.DEVICE)
        self._sent: deque[bytes] = deque(maxlen=64)  # the last frames written (for tamper)
        self.line: PtyLine | PortLine = PtyLine(Path(port)) if create_pty else PortLine(port)
        self.port = port
        self.connected = True  # the "cable"
        self.open_control(port, control, ready_file, exit_with_parent)

    def _step(self) -> None:
        now = monotonic_ms()
        self.machine.tick(now)
        self.link.tick(now)
        self._flush(now)
        deadlines = [self.link.next_deadline()]
        machine_deadline = self.machine.next_deadline()
        if machine_deadline is not None:
            deadlines.append(machine_deadline)
        timeout = max(0, min(min(deadlines) - now, 100)) / 1000
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
                if self.connected and data:
                    self.link.receive(data, monotonic_ms())
            elif key.data == "accept":
                self._accept()
            else:
                self._client(key.fileobj)  # type: ignore[arg-type]
        self._flush(monotonic_ms())

    def _flush(self, now: int) -> None:
        for event in self.link.events():
            if isinstance(event, Delivered):
                self.machine.on_command(event.payload, now)
            elif isinstance(event, LinkUp):
                self.machine.on_link_up(event.new_peer, now)
            elif isinstance(event, LinkDown):
                self.machine.on_link_down(now)
        for payload in self.machine.take_outgoing():
            self.link.send(payload, now)
        out = self.link.data_to_send()
        if out and self.connected:
            self.line.write(out)
            self._sent.extend(f + b"\x00" for f in out.split(b"\x00")[:-1])

    def command(self, words: list[str]) -> str:
        """One control command; the reply line."""
        now = monotonic_ms()
        match words:
            case ["garbage", n] if n.isdigit():
                if self.connected:
                    self.line.write(os.urandom(int(n)))
                return "ok"
            case ["disconnect"]:
                self.connected = False
                return "ok"
            case ["reconnect"]:
                self.connected = True
                return "ok"
            case ["tamper", "rewrite" | "replay" as how]:
                return self._tamper(how)
            case ["stats"]:
                stats = {**vars(self.link.stats), **vars(self.link.decoder.stats)}
                return "ok " + json.dumps(stats, sort_keys=True)
            case ["quit"]:
                self.stop()
                return "ok"
            case []:
                return "error empty command"
        reply = self.machine.control(words, now)
        self._flush(now)
        return reply

    def _tamper(self, how: str) -> str:
        if not self._sent:
            return "error nothing sent yet"
        if how == "replay":
            frame = self._sent[0]
            self.line.write(frame)
            return f"ok replayed a frame of {len(frame)} bytes"
        body = bytearray(cobs.decode(self._sent[-1][:-1])[:-CRC_BYTES])
        body[HEADER_BYTES] ^= 0x01  # the first byte of the sealed packet
        self.line.write(encode_frame(bytes(body), self.link.frame_limit))
        return f"ok rewrote a frame of {len(body)} bytes"


def control(address: str, line: str, timeout: float = 5.0) -> str:
    """Send one control command to a simulator at ``HOST:PORT``; its reply line."""
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(line.encode() + b"\n")
        buf = b""
        while not buf.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            buf += chunk
    return buf.decode("utf-8", "replace").strip()
