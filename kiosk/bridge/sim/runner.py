"""The thin serial runner: a simulated device on a port, its script, its cash-box record."""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import serial

from kiosk.bridge.cashbox import CashboxRecord
from kiosk.bridge.native import SerialSettings
from kiosk.bridge.sim.script import ScriptStep, SimDevice, apply_step


def open_port(port_path: str, settings: SerialSettings) -> serial.Serial:
    """The device's end of the line, set up as the protocol wants it."""
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
) -> CashboxRecord:
    """Serve ``device`` on ``port_path`` until ``stop`` is set or ``duration_ms`` passes.

    Steps put on ``control`` are done at once, in the runner's thread (a live script).
    """
    pending = list(script)
    start = time.monotonic()
    record = device.cashbox
    if record_path is not None:
        write_record(record_path, record)
    with open_port(port_path, settings) as port:
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
    return device.cashbox
