"""The simulated CPI (MEI) acceptor (EBDS) on a serial port."""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from pathlib import Path

from kiosk.terminal.bridge.cashbox import CashboxRecord
from kiosk.terminal.bridge.ebds.device import EbdsDevice
from kiosk.terminal.bridge.ebds.host import EbdsValidator
from kiosk.terminal.bridge.sim import runner
from kiosk.terminal.bridge.sim.script import ScriptStep


def run_simulator(
    port_path: str,
    script: Sequence[ScriptStep] = (),
    *,
    device: EbdsDevice | None = None,
    record_path: Path | None = None,
    stop: threading.Event | None = None,
    duration_ms: int | None = None,
    control: queue.Queue[ScriptStep] | None = None,
    line: runner.Line | None = None,
) -> CashboxRecord:
    """Serve a simulated CPI acceptor on ``port_path`` (9600 7E1); its cash box at the end."""
    sim = device if device is not None else EbdsDevice()
    return runner.run(
        port_path,
        sim,
        EbdsValidator.settings,
        sim.insert_rejected,
        script=script,
        record_path=record_path,
        stop=stop,
        duration_ms=duration_ms,
        control=control,
        line=line,
    )
