"""The SAS host's serial line: a port in raw mode at 19,200 baud, and the wakeup bit.

SAS marks the first byte of every poll (the address byte) with a ninth, *wakeup* bit.

- **A real UART** (``WakeupMode.PARITY``): the host sends the address byte with *mark* parity
  and the rest with *space* parity (``PARENB | CMSPAR``, ``PARODD`` for mark), draining the
  output between the two so the parity change falls between those bytes.  The machine's
  answer carries no wakeup bit and is read as it comes.
- **A pseudo-terminal** (``WakeupMode.GAP``, tests and simulators): there is no ninth bit;
  the gaming machine frames by the address-byte rule of :mod:`kiosk.terminal.sas.framing` (the first
  byte after a quiet line is an address byte, a poll ends at its known length).  The host
  writes each poll in one write, so its bytes never leave a gap, and waits for the answer or
  its timeout before the next poll.
"""

from __future__ import annotations

import contextlib
import os
import pty
import select
import termios
import time
import tty
from enum import Enum
from pathlib import Path

from kiosk.terminal.sas.wire import BAUD_RATE

#: termios flag for stick (mark/space) parity; Linux value where the module lacks it
CMSPAR = getattr(termios, "CMSPAR", 0o10000000000)


class WakeupMode(Enum):
    """How the wakeup bit of the address byte reaches the machine."""

    PARITY = "parity"  # a real UART: mark parity for the address byte
    GAP = "gap"  # a pty: plain bytes, framed by the machine's address-byte rule


class LineError(Exception):
    """The port cannot be opened or used (the one line the host tool shows)."""


def _is_pty(fd: int) -> bool:
    try:
        name = os.ttyname(fd)
    except OSError:
        return False
    return name.startswith("/dev/pts/")


class HostLine:
    """One serial port, opened by path (or a pty the host creates), used by one SAS host."""

    def __init__(self, path: str, mode: WakeupMode | None = None, *, fd: int | None = None) -> None:
        self.path = path
        self._kept_slave: int | None = None
        self._link: Path | None = None
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK) if fd is None else fd
        except OSError as exc:
            raise LineError(f"{path}: {exc.strerror or exc}") from None
        try:
            if not os.isatty(self._fd):
                raise LineError(f"{path}: not a serial port or terminal")
            tty.setraw(self._fd)
            attrs = termios.tcgetattr(self._fd)
            speed = getattr(termios, f"B{BAUD_RATE}")
            attrs[4] = attrs[5] = speed
            attrs[2] &= ~(termios.CSIZE | termios.PARENB | termios.PARODD | CMSPAR)
            attrs[2] |= termios.CS8 | termios.CLOCAL | termios.CREAD
            termios.tcsetattr(self._fd, termios.TCSANOW, attrs)
            self._attrs = attrs
        except (OSError, termios.error) as exc:
            os.close(self._fd)
            raise LineError(f"{path}: cannot set up the port ({exc})") from None
        except LineError:
            os.close(self._fd)
            raise
        self.mode = mode or (WakeupMode.GAP if _is_pty(self._fd) else WakeupMode.PARITY)

    @classmethod
    def create_pty(cls, link: Path) -> HostLine:
        """A new pty: the host keeps its master side, the machine opens ``link``.

        The far side is held open too, so the line stays up while the machine's program is
        restarted (a SIGKILL, a power cut); ``link`` is replaced atomically and removed by
        :meth:`close` if it still points at this pty.
        """
        master, slave = pty.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        tmp = link.with_name(link.name + ".new")
        try:
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(os.ttyname(slave))
            tmp.replace(link)
        except OSError as exc:
            os.close(master)
            os.close(slave)
            raise LineError(f"{link}: {exc.strerror or exc}") from None
        line = cls(str(link), WakeupMode.GAP, fd=master)
        line._kept_slave, line._link = slave, link
        return line

    def fileno(self) -> int:
        """The descriptor to wait on."""
        return self._fd

    def close(self) -> None:
        """Close the port (and a pty this line created, with its link)."""
        if self._link is not None and self._kept_slave is not None:
            with contextlib.suppress(OSError):
                if os.readlink(self._link) == os.ttyname(self._kept_slave):
                    self._link.unlink()
        for fd in (self._fd, self._kept_slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def send(self, frame: bytes) -> None:
        """Write a poll: ``frame[0]`` with the wakeup bit, the rest without."""
        if self.mode is WakeupMode.GAP:
            self._write(frame)
            return
        self._set_parity(mark=True)
        self._write(frame[:1])
        termios.tcdrain(self._fd)
        self._set_parity(mark=False)
        self._write(frame[1:])

    def read(self, timeout_s: float) -> bytes:
        """What arrived within ``timeout_s`` (b"" if nothing)."""
        ready, _, _ = select.select([self._fd], [], [], max(0.0, timeout_s))
        if not ready:
            return b""
        try:
            return os.read(self._fd, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            raise LineError(f"{self.path}: {exc.strerror or exc}") from None

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        deadline = time.monotonic() + 1.0
        while view:
            try:
                written = os.write(self._fd, view)
            except BlockingIOError:
                written = 0
            except OSError as exc:
                raise LineError(f"{self.path}: {exc.strerror or exc}") from None
            view = view[written:]
            if view:
                if time.monotonic() > deadline:
                    raise LineError(f"{self.path}: the line does not take data")
                select.select([], [self._fd], [], 0.05)

    def _set_parity(self, *, mark: bool) -> None:
        attrs = list(self._attrs)
        attrs[2] |= termios.PARENB | CMSPAR
        if mark:
            attrs[2] |= termios.PARODD
        else:
            attrs[2] &= ~termios.PARODD
        termios.tcsetattr(self._fd, termios.TCSANOW, attrs)
