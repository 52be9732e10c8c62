"""A device's own serial line (its baud rate and parity), reopened when it goes away."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import stat
import termios

import serial

from kiosk.terminal.bridge.native import SerialSettings
from kiosk.terminal.devices.serial_port import monotonic_ms

REOPEN_MS = 500

#: Linux's major device numbers of pseudo-terminal ends (Unix 98 pty slaves)
PTY_MAJORS = range(136, 144)


def is_pty(path: str) -> bool:
    """Whether ``path`` names a pseudo-terminal (a simulator's line, a ``socat`` pair)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISCHR(st.st_mode) and os.major(st.st_rdev) in PTY_MAJORS


def line_settings(path: str, settings: SerialSettings) -> SerialSettings:
    """The settings to open ``path`` with: the protocol's, but 8 data bits without parity on a
    pseudo-terminal.  A pty has no UART: Linux keeps it at 8 bits, no parity, whatever is
    asked, and glibc's ``tcsetattr`` then reports the setting refused (EINVAL), except on the
    very first open of a new pty (which changes its speed too).  So a 7E1 (EBDS) or 8E1
    (ID-003) line on a pty opened once and never again: a restarted bridge never heard its
    simulator.  The bytes are the same either way (EBDS sends none above 0x7F)."""
    if settings.parity == "N" and settings.bytesize == 8:
        return settings
    if not is_pty(path):
        return settings
    return dataclasses.replace(settings, parity="N", bytesize=8)


class DeviceLine:
    """A USB serial adapter (or a simulator's pty) at ``path``, raw, exclusive."""

    def __init__(self, path: str, settings: SerialSettings) -> None:
        self.path = path
        self.settings = settings
        self.problem = ""  # why it is not open, "" when it is
        self._port: serial.Serial | None = None
        self._target = ""
        self._next_open = 0

    def fileno(self) -> int | None:
        """The port's descriptor, opening it when due; None while it is not there."""
        if self._port is not None and os.path.realpath(self.path) != self._target:
            self.close()  # the path names another device now (replugged, a new pty)
        if self._port is None and monotonic_ms() >= self._next_open:
            self._next_open = monotonic_ms() + REOPEN_MS
            try:
                self._target = os.path.realpath(self.path)
                s = line_settings(self._target, self.settings)
                self._port = serial.Serial(
                    self.path,
                    s.baudrate,
                    bytesize=s.bytesize,
                    parity=s.parity,
                    stopbits=s.stopbits,
                    timeout=0,
                    write_timeout=0.5,
                    exclusive=True,
                )
                self.problem = ""
            except (OSError, serial.SerialException, ValueError, termios.error) as exc:
                # termios.error: a pty whose other end just went away refuses its settings
                self.problem = f"{self.path}: {exc}"
        return int(self._port.fileno()) if self._port is not None else None

    def read(self) -> bytes:
        """What arrived (b"" when nothing or the port went away)."""
        if self._port is None:
            return b""
        try:
            data: bytes = self._port.read(4096)
        except (OSError, serial.SerialException, termios.error) as exc:
            self.problem = f"{self.path}: {exc}"
            self.close()
            return b""
        return data

    def write(self, data: bytes) -> None:
        """Send (dropped while the port is not there)."""
        if self._port is None or not data:
            return
        try:
            self._port.write(data)
        except serial.SerialTimeoutException:
            return
        except (OSError, serial.SerialException, termios.error) as exc:
            self.problem = f"{self.path}: {exc}"
            self.close()

    def close(self) -> None:
        """Close the port (idempotent)."""
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(OSError, serial.SerialException):
                port.close()
