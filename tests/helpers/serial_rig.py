"""A terminal and its devices over real serial pseudo-terminals."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.terminal.app.peripherals import (
    SimulatedPeripherals,
    spawn_simulator,
    start_simulated_peripherals,
    wait_ready,
)
from kiosk.terminal.app.serial_wiring import SerialSetup
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.core.config import TerminalConfig

#: how long a condition may take to hold: generous, for a loaded machine (a simulator process
#: starting, a link noticing a dead peer); what the tests prove is the condition, never a time
CONDITION_SECONDS = 60.0


class Rig:
    def __init__(self, base: Path, config: TerminalConfig | None = None) -> None:
        self.base = base
        self.sims: SimulatedPeripherals = start_simulated_peripherals(
            base, timeout=CONDITION_SECONDS
        )
        self.terminal: Terminal = build_terminal(
            base / "terminal", devices=SerialSetup(self.sims.ports), config=config
        )
        self.runtime = self.terminal.runtime
        self.runtime.power_up()
        self.until(lambda: self.bv_status()["enabled"] and self.terminal.printer.ready())
        assert self.runtime.state.tilts == {}

    def until(self, done: Callable[[], bool], timeout: float = CONDITION_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"timed out; tilts {self.runtime.state.tilts}"
            self.runtime.pump()
            time.sleep(0.01)

    def bv(self, command: str) -> str:
        return self.sims.control("bill-validator", command)

    def printer(self, command: str) -> str:
        return self.sims.control("printer", command)

    def bv_status(self) -> dict[str, Any]:
        status: dict[str, Any] = json.loads(self.bv("status")[3:])
        return status

    def respawn(self, device: str) -> None:
        proc, ready = spawn_simulator(device, self.sims.directory)
        self.sims.processes[device] = proc
        self.sims.controls[device] = wait_ready(proc, ready, CONDITION_SECONDS)["control"]

    def close(self) -> None:
        self.terminal.close()
        self.sims.stop()
