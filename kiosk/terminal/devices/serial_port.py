"""The thin transport: a serial port (pyserial) and a thread that runs a Link over it.

:class:`SerialLine` opens a port by path in raw 8N1 mode and reads whatever has arrived
(reads are partial: a frame may come in several pieces, or several frames in one).  When the
port goes away (a USB adapter unplugged, a simulator's pseudo-terminal closed) it raises
:class:`LineClosedError`, and :class:`LinkChannel` keeps trying to open the path again, so a device
plugged back in is found by itself.  A path that comes to name another device while open (a
symlink re-pointed: the old pseudo-terminal's number reused by another program, the new one
elsewhere) is closed and opened again.

:class:`LinkChannel` is the terminal side of one device: a background thread owns the line and
the sans-IO :class:`~kiosk.terminal.devices.link.Link`, sealed with the device's pairing key (the
terminal's role); the driver sends payloads and takes link events
through thread-safe queues, so the link keeps its heartbeats and retransmissions going however
rarely the terminal polls.
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import select
import termios
import threading
import time

import serial

from kiosk.terminal.devices.link import Link, LinkConfig, LinkEvent
from kiosk.terminal.devices.seal import Role

BAUDRATE = 115_200


class LineClosedError(Exception):
    """The port cannot be opened, or went away."""


def monotonic_ms() -> int:
    """Milliseconds of the monotonic clock (what links are driven with)."""
    return time.monotonic_ns() // 1_000_000


def new_session() -> int:
    """A random non-zero 32-bit link session id."""
    return secrets.randbits(32) or 1


class SerialLine:
    """A serial port opened by path (pyserial), raw 8N1, exclusive."""

    def __init__(self, path: str, baudrate: int = BAUDRATE) -> None:
        self.path = path
        self.baudrate = baudrate
        self.target = ""  # what the path named when it was opened
        self._port: serial.Serial | None = None

    @property
    def is_open(self) -> bool:
        """Whether the port is open."""
        return self._port is not None

    def open(self) -> None:
        """Open the port (LineClosedError when it is not there)."""
        self.target = os.path.realpath(self.path)
        try:
            self._port = serial.Serial(
                self.path, self.baudrate, timeout=0, write_timeout=0.5, exclusive=True
            )
        except (OSError, serial.SerialException, ValueError, termios.error) as exc:
            # termios.error: a pty whose other end just went away refuses its settings
            raise LineClosedError(f"{self.path}: {exc}") from exc

    def moved(self) -> bool:
        """Whether the path now names another device than the one open (a symlink re-pointed:
        a device plugged in again, a simulator restarted on a new pseudo-terminal)."""
        return os.path.realpath(self.path) != self.target

    def fileno(self) -> int:
        """The file descriptor to wait on."""
        if self._port is None:
            raise LineClosedError(f"{self.path} is not open")
        return int(self._port.fileno())

    def read(self) -> bytes:
        """Whatever has arrived (possibly nothing)."""
        if self._port is None:
            raise LineClosedError(f"{self.path} is not open")
        try:
            data: bytes = self._port.read(4096)
        except (OSError, serial.SerialException) as exc:
            self.close()
            raise LineClosedError(f"{self.path}: {exc}") from exc
        return data

    def write(self, data: bytes) -> None:
        """Send bytes (a line nobody reads may time out: the link sends again)."""
        if self._port is None:
            raise LineClosedError(f"{self.path} is not open")
        try:
            self._port.write(data)
        except serial.SerialTimeoutException:
            return
        except (OSError, serial.SerialException) as exc:
            self.close()
            raise LineClosedError(f"{self.path}: {exc}") from exc

    def close(self) -> None:
        """Close the port (idempotent)."""
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(OSError, serial.SerialException):
                port.close()


def port_problem(path: str) -> str | None:
    """Why the serial port ``path`` cannot be used now (missing, not ours), or None."""
    if not os.path.exists(path):
        return f"{path} does not exist"
    if not os.access(path, os.R_OK | os.W_OK):
        return f"{path} is not readable and writable by this user"
    return None


class LinkChannel:
    """A link to one device over a serial port, run by a background thread."""

    REOPEN_MS = 500

    def __init__(
        self, path: str, *, key: bytes, name: str = "device", config: LinkConfig | None = None
    ) -> None:
        self.path = path
        self.name = name
        self.line = SerialLine(path)
        self.link = Link(new_session(), monotonic_ms(), config, key=key, role=Role.TERMINAL)
        self.line_error = ""
        self._outbox: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self._inbox: queue.SimpleQueue[LinkEvent] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._thread = threading.Thread(target=self._run, name=f"link-{name}", daemon=True)

    def start(self) -> LinkChannel:
        """Start the thread; returns self."""
        self._thread.start()
        return self

    def send(self, payload: bytes) -> None:
        """Queue a payload for the device (any thread)."""
        self._outbox.put(payload)
        with contextlib.suppress(BlockingIOError):
            os.write(self._wake_w, b"x")

    def get(self, timeout: float) -> LinkEvent | None:
        """The next link event, waiting at most ``timeout`` seconds."""
        try:
            if timeout <= 0:
                return self._inbox.get_nowait()
            return self._inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    def stats(self) -> dict[str, int]:
        """The link's and the frame decoder's counters."""
        with self._lock:
            out = dict(vars(self.link.stats))
            out.update({f"frames_{k}": v for k, v in vars(self.link.decoder.stats).items()})
        return out

    def port_problem(self) -> str:
        """Why no device answers, naming the port (for the lockup): missing, not ours, cannot
        be opened, or open with nothing answering."""
        missing = port_problem(self.path)
        if missing is not None:
            return missing
        if not self.line.is_open:
            return f"{self.path} cannot be opened ({self.line_error or 'not yet'})"
        return f"no answer on {self.path}"

    def close(self) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        with contextlib.suppress(BlockingIOError):
            os.write(self._wake_w, b"x")
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.line.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _run(self) -> None:
        next_open = 0
        while not self._stop.is_set():
            now = monotonic_ms()
            if self.line.is_open and now >= next_open:
                next_open = now + self.REOPEN_MS
                if self.line.moved():  # e.g. a stale link whose pty number was reused
                    self.line.close()
                    next_open = now
            if not self.line.is_open and now >= next_open:
                try:
                    self.line.open()
                    self.line_error = ""
                except LineClosedError as exc:
                    self.line_error = str(exc)
                    next_open = now + self.REOPEN_MS
            with self._lock:
                while True:
                    try:
                        self.link.send(self._outbox.get_nowait(), now)
                    except queue.Empty:
                        break
                self.link.tick(now)
                out = self.link.data_to_send()
                events = self.link.events()
                deadline = self.link.next_deadline()
            for event in events:
                self._inbox.put(event)
            if out and self.line.is_open:
                with contextlib.suppress(LineClosedError):
                    self.line.write(out)
            self._wait(max(0, min(deadline - now, 100)) / 1000)

    def _wait(self, timeout: float) -> None:
        fds = [self._wake_r]
        if self.line.is_open:
            fds.append(self.line.fileno())
        ready, _, _ = select.select(fds, [], [], timeout)
        if self._wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake_r, 4096)
        if self.line.is_open and self.line.fileno() in ready:
            try:
                data = self.line.read()
            except LineClosedError as exc:
                self.line_error = str(exc)
                return
            if data:
                with self._lock:
                    self.link.receive(data, monotonic_ms())
