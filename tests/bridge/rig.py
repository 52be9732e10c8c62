"""A terminal on real ptys with a native simulator behind a bridge process (and the same
terminal on the protobuf simulator, the baseline)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.terminal.app.peripherals import SimulatedPeripherals, start_simulated_peripherals
from kiosk.terminal.app.serial_wiring import SerialSetup
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.core.config import TerminalConfig

#: generous, for a loaded machine; what the tests prove is the condition, never a time
CONDITION_SECONDS = 60.0


class BridgeRig:
    def __init__(
        self,
        base: Path,
        *,
        validator: str = "id003",
        printer: str = "",
        config: TerminalConfig | None = None,
    ) -> None:
        self.base = base
        self.protocol = validator
        self.sims: SimulatedPeripherals = start_simulated_peripherals(
            base, timeout=CONDITION_SECONDS, validator=validator, printer=printer
        )
        self.terminal: Terminal = build_terminal(
            base / "terminal", devices=SerialSetup(self.sims.ports), config=config
        )
        self.runtime = self.terminal.runtime
        self.runtime.power_up()
        self.until(self.bv_enabled)
        self.until(self.terminal.printer.ready)

    def bv_enabled(self) -> bool:
        driver = self.terminal.serial.validator
        if driver.status is None or not driver.status.enabled or self.runtime.state.tilts:
            return False
        device = self.device_status()
        if self.protocol != "id003":  # eSSP, EBDS: the device accepts, the bridge hears it
            return bool(device["enabled"] and self.bridge_status()["device_up"])
        if device["phase"] != "idle" or device["inhibited"]:
            return False
        return bool(self.bridge_status()["device_status"] == 0x11)  # the bridge saw it idle too

    def until(self, done: Callable[[], bool], timeout: float = CONDITION_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"timed out; tilts {self.runtime.state.tilts}"
            self.runtime.pump()
            time.sleep(0.01)

    def bv(self, command: str) -> str:
        return self.sims.control("bill-validator", command)

    def bridge_status(self) -> dict[str, Any]:
        status: dict[str, Any] = json.loads(
            self.sims.control("bill-validator-bridge", "status")[3:]
        )
        return status

    def device_status(self) -> dict[str, Any]:
        status: dict[str, Any] = json.loads(self.bv("status")[3:])
        return status

    def tilted(self, code: str, on: bool = True) -> Callable[[], bool]:
        """A condition: the tilt ``code`` is raised (``on``) or not."""
        return lambda: (code in self.runtime.state.tilts) is on

    def printer(self, command: str) -> str:
        return self.sims.control("printer", command)

    def close(self) -> None:
        self.terminal.close()
        self.sims.stop()
