"""The simulated ITL validator (SSP/eSSP) on a serial port."""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from pathlib import Path

from kiosk.terminal.bridge.cashbox import CashboxRecord
from kiosk.terminal.bridge.essp.device import EsspDevice
from kiosk.terminal.bridge.essp.host import EsspValidator
from kiosk.terminal.bridge.sim import runner
from kiosk.terminal.bridge.sim.script import ScriptError, ScriptStep


def reject_code(arg: str) -> int:
    """A last-reject code from a script argument (``0x06`` or ``6``)."""
    try:
        code = int(arg, 0)
    except ValueError:
        raise ScriptError(f"reject code {arg!r}: expected a number such as 0x06") from None
    if not 0 <= code <= 0xFF:
        raise ScriptError(f"reject code {arg!r}: expected 0-255")
    return code


def run_simulator(
    port_path: str,
    script: Sequence[ScriptStep] = (),
    *,
    device: EsspDevice | None = None,
    record_path: Path | None = None,
    stop: threading.Event | None = None,
    duration_ms: int | None = None,
    control: queue.Queue[ScriptStep] | None = None,
    line: runner.Line | None = None,
) -> CashboxRecord:
    """Serve a simulated ITL validator on ``port_path`` (9600 8N2); its cash box at the end."""
    sim = device if device is not None else EsspDevice()
    for step in script:
        if step.action == "reject":
            reject_code(step.arg)  # refuse a bad script before the port opens
    return runner.run(
        port_path,
        sim,
        EsspValidator.settings,
        lambda arg: sim.insert_rejected(reject_code(arg)),
        script=script,
        record_path=record_path,
        stop=stop,
        duration_ms=duration_ms,
        control=control,
        line=line,
    )
