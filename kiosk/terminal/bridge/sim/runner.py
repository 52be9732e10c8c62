"""The thin serial runner: a simulated device on a port, its script, its cash-box record."""

from __future__ import annotations

import os
import pty
import queue
import select
import threading
import time
import tty
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import serial

from kiosk.terminal.bridge.cashbox import CashboxRecord
from kiosk.terminal.bridge.line import line_settings
from kiosk.terminal.bridge.native import SerialSettings
from kiosk.terminal.bridge.sim.script import ScriptStep, SimDevice, apply_step


class Line(Protocol):
    """A byte line: a pyserial port or a pty's master end."""

    @property
    def in_waiting(self) -> int: ...
    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes, /) -> int | None: ...
    def close(self) -> None: ...


class PtyMaster:
    """A pseudo-terminal made here, its terminal end linked at ``path`` (``--create-pty``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.master, self._slave = pty.openpty()
        tty.setraw(self._slave)
        tmp = path.with_name(path.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(self._slave))
        tmp.replace(path)

    @property
    def in_waiting(self) -> int:
        return 0

    def read(self, size: int = 1) -> bytes:
        ready, _, _ = select.select([self.master], [], [], 0.005)
        return os.read(self.master, 4096) if ready else b""

    def write(self, data: bytes, /) -> int | None:
        return os.write(self.master, data)

    def close(self) -> None:
        self.path.unlink(missing_ok=True)
        os.close(self.master)
        os.close(self._slave)


def open_port(port_path: str, settings: SerialSettings) -> serial.Serial:
    """The device's end of the line, set up as the protocol wants it (a pty: 8N, see
    :func:`~kiosk.terminal.bridge.line.line_settings`)."""
    settings = line_settings(port_path, settings)
    return serial.Serial(
        port_path,
        baudrate=settings.baudrate,
        parity=settings.parity,
        stopbits=settings.stopbits,
        bytesize=settings.bytesize,
        timeout=0.005,
    )


def write_record(path: Path, record: CashboxRecord) -> None:
    """The cash-box record, replaced whole (a reader never sees half of it)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(record.to_json())
    os.replace(tmp, path)


def run(
    port_path: str,
    device: SimDevice,
    settings: SerialSettings,
    reject: Callable[[str], None],
    *,
    script: Sequence[ScriptStep] = (),
    record_path: Path | None = None,
    stop: threading.Event | None = None,
    duration_ms: int | None = None,
    control: queue.Queue[ScriptStep] | None = None,
    line: Line | None = None,
) -> CashboxRecord:
    """Serve ``device`` on ``port_path`` (or on ``line``) until ``stop`` or ``duration_ms``.

    Steps put on ``control`` are done at once, in the runner's thread (a live script).
    """
    pending = list(script)
    start = time.monotonic()
    record = device.cashbox
    if record_path is not None:
        write_record(record_path, record)
    port: Line = line if line is not None else open_port(port_path, settings)
    try:
        while not (stop is not None and stop.is_set()):
            now = int((time.monotonic() - start) * 1000)
            if duration_ms is not None and now >= duration_ms:
                break
            while pending and pending[0].at_ms <= now:
                apply_step(device, pending.pop(0), reject)
            while control is not None and not control.empty():
                apply_step(device, control.get_nowait(), reject)
            data = port.read(port.in_waiting or 1)
            if data:
                device.receive(data, now)
            out = device.transmit(now)
            if out:
                port.write(out)
            if record_path is not None and device.cashbox != record:
                record = device.cashbox
                write_record(record_path, record)
    finally:
        port.close()
    return device.cashbox
