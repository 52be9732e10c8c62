"""A device's own serial line (its baud rate and parity), reopened when it goes away."""

from __future__ import annotations

import contextlib
import os
import termios

import serial

from kiosk.terminal.bridge.native import SerialSettings
from kiosk.terminal.devices.serial_port import monotonic_ms

REOPEN_MS = 500


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
            s = self.settings
            try:
                self._target = os.path.realpath(self.path)
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
