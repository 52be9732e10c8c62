"""The SAS serial port: 19,200 baud, 8 data bits, the wakeup bit, one stop bit (pyserial).

**On a real UART** (:attr:`~kiosk.terminal.sas.framing.WakeupMode.PARITY`) the 9th bit is the parity
bit: the port is opened with *space* parity (every byte the machine sends has the bit clear,
as SAS wants), and the kernel is told to check parity and *mark* errors (termios
``INPCK | PARMRK``, ``IGNPAR`` and ``ISTRIP`` off).  A host byte sent with the wakeup bit set is
then a parity error and arrives as ``FF 00 byte``, which :class:`~kiosk.terminal.sas.framing.
ParmrkDecoder` turns back into (byte, wakeup).

**On a pseudo-terminal** there is no 9th bit (and no parity): the port is opened 8N1 and the
receiver applies the address-byte framing rule (:attr:`~kiosk.terminal.sas.framing.WakeupMode.GAP`,
decision 0026).  ``auto`` picks GAP for a pty (``/dev/pts/*`` or a symlink to one) and PARITY
for anything else.

:class:`SasPortLoop` is the thread's body: wait for bytes (select, 2 ms), feed the machine,
write each reply at once (its exceptions already marked sent by the machine); it measures the time
from a poll's last byte to the end of the reply's write (:class:`Latency`).
"""

from __future__ import annotations

import os
import select
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import serial

from kiosk.terminal.sas import wire
from kiosk.terminal.sas.framing import ParmrkDecoder, WakeupMode
from kiosk.terminal.sas.machine import SasMachine


class PortError(Exception):
    """The SAS port cannot be opened or used: one line why."""


def is_pty(path: str) -> bool:
    """Whether ``path`` is (a link to) a pseudo-terminal's device."""
    real = os.path.realpath(path)
    return real.startswith("/dev/pts/") or Path(real).name.startswith("pty")


def choose_mode(path: str, wakeup: str) -> WakeupMode:
    """``parity``, ``gap`` or ``auto`` (GAP on a pty, PARITY otherwise)."""
    if wakeup == "auto":
        return WakeupMode.GAP if is_pty(path) else WakeupMode.PARITY
    return WakeupMode(wakeup)


def open_port(path: str, mode: WakeupMode) -> serial.Serial:
    """The port at 19,200 baud, ready for ``mode`` (PortError when it cannot be)."""
    parity = serial.PARITY_SPACE if mode is WakeupMode.PARITY else serial.PARITY_NONE
    try:
        port = serial.Serial(
            path,
            baudrate=wire.BAUD_RATE,
            bytesize=serial.EIGHTBITS,
            parity=parity,
            stopbits=serial.STOPBITS_ONE,
            timeout=0,
            exclusive=True,
        )
    except (serial.SerialException, OSError, ValueError) as exc:
        raise PortError(f"SAS port {path}: {exc}") from exc
    if mode is WakeupMode.PARITY:
        try:
            fd = port.fileno()
            attrs = termios.tcgetattr(fd)
            attrs[0] |= termios.INPCK | termios.PARMRK
            attrs[0] &= ~(termios.IGNPAR | termios.ISTRIP)
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
        except termios.error as exc:
            port.close()
            raise PortError(f"SAS port {path}: cannot mark parity errors: {exc}") from exc
    return port


@dataclass
class Latency:
    """Poll-to-reply times (seconds): the last 10,000, and how many broke the 20 ms limit."""

    samples: list[float] = field(default_factory=list)
    over_limit: int = 0

    def add(self, seconds: float) -> None:
        """One reply written ``seconds`` after its poll's last byte."""
        self.samples.append(seconds)
        if seconds > wire.RESPONSE_LIMIT_S:
            self.over_limit += 1
        if len(self.samples) > 10_000:
            del self.samples[:5_000]

    def percentile(self, fraction: float) -> float | None:
        """The ``fraction`` quantile of the kept samples (None before any)."""
        if not self.samples:
            return None
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class SasPortLoop:
    """Feed a :class:`SasMachine` from a port and write its replies (runs on its own thread)."""

    def __init__(
        self,
        port: serial.Serial,
        machine: SasMachine,
        mode: WakeupMode,
    ) -> None:
        self.port = port
        self.machine = machine
        self.mode = mode
        self.latency = Latency()
        self.error: str | None = None
        self.on_second: Callable[[], None] | None = None  # housekeeping, once a second
        self._decoder = ParmrkDecoder()
        self._stop = threading.Event()

    def stop(self) -> None:
        """Ask the loop to end (it does within a few milliseconds)."""
        self._stop.set()

    def run(self) -> None:
        """Until :meth:`stop`: read, answer, mark sent."""
        fd = self.port.fileno()
        next_second = time.monotonic() + 1
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([fd], [], [], 0.002)
                now = time.monotonic()
                if now >= next_second and self.on_second is not None:
                    next_second = now + 1
                    self.on_second()
                if not ready:
                    self.machine.expire(now)
                    chirp = self.machine.chirp(now)  # nobody polls: announce the address
                    if chirp is not None:
                        os.write(fd, chirp)
                    continue
                data = os.read(fd, 4096)
            except OSError as exc:  # the other end went away (a pty closed): wait for it
                self.error = str(exc)
                self._stop.wait(0.05)
                continue
            if not data:
                self._stop.wait(0.01)
                continue
            if self.mode is WakeupMode.PARITY:
                pairs = self._decoder.feed(data)
                replies = self.machine.feed(bytes(b for b, _ in pairs), now, [w for _, w in pairs])
            else:
                replies = self.machine.feed(data, now)
            for reply in replies:
                try:
                    os.write(fd, reply.data)
                except OSError as exc:
                    self.error = str(exc)
                    continue
                self.latency.add(time.monotonic() - now)
