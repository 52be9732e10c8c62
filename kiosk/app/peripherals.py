"""Start the simulated bill validator and printer as their own processes, on pseudo-terminals.

``turbokiosk run`` calls :func:`start_simulated_peripherals` when no hardware is configured:
each simulator (``turbokiosk sim ...``) creates a pty, links its terminal end under
``<data dir>/peripherals/`` and keeps its non-volatile memory (and the printed vouchers, as
PNG) beside it.  The returned handle says where the ports and the control channels are, and
stops both processes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from kiosk.app.serial_wiring import SerialPorts
from kiosk.devices.sim.program import control

DEVICES = ("bill-validator", "printer")


class PeripheralsError(RuntimeError):
    """A simulator did not start."""


@dataclass
class SimulatedPeripherals:
    """Two running simulators."""

    ports: SerialPorts
    controls: dict[str, str]  # device -> control address HOST:PORT
    directory: Path
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def control(self, device: str, command: str) -> str:
        """Send a control command (``insert 2000``, ``fault paper-out``...); the reply."""
        return control(self.controls[device], command)

    def vouchers_dir(self) -> Path:
        """Where the printer simulator puts the PNG of every voucher it prints."""
        return self.directory / "printer" / "vouchers"

    def stop(self, timeout: float = 3.0) -> None:
        """Stop both simulators (SIGTERM, then SIGKILL after ``timeout``)."""
        for proc in self.processes.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.processes.values():
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def __enter__(self) -> SimulatedPeripherals:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def spawn_simulator(
    device: str, directory: Path, *, extra: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], Path]:
    """Start one simulator process; it and the file its ready JSON will be written to."""
    directory.mkdir(parents=True, exist_ok=True)
    ready = directory / f"{device}.ready.json"
    ready.unlink(missing_ok=True)
    log = open(directory / f"{device}.log", "ab")  # noqa: SIM115 - handed to the child
    command = [
        sys.executable,
        "-m",
        "kiosk",
        "sim",
        device,
        "--port",
        str(directory / f"{device}.tty"),
        "--create-pty",
        "--state-dir",
        str(directory / device),
        "--ready-file",
        str(ready),
        "--exit-with-parent",
        *extra,
    ]
    try:
        # a process group of its own: Ctrl-C at the kiosk's terminal reaches the kiosk, which
        # stops its simulators in order (they still end with it: --exit-with-parent)
        proc = subprocess.Popen(
            command, stdout=log, stderr=log, stdin=subprocess.DEVNULL, process_group=0
        )
    finally:
        log.close()
    return proc, ready


def wait_ready(proc: subprocess.Popen[bytes], ready: Path, timeout: float) -> dict[str, str]:
    """The simulator's ready JSON (port, control), or PeripheralsError."""
    deadline = time.monotonic() + timeout
    while not ready.exists():
        if proc.poll() is not None:
            raise PeripheralsError(f"{ready.name}: simulator exited with {proc.returncode}")
        if time.monotonic() > deadline:
            proc.kill()
            raise PeripheralsError(f"{ready.name}: simulator not ready in {timeout} s")
        time.sleep(0.02)
    info: dict[str, str] = json.loads(ready.read_text(encoding="utf-8"))
    return info


def start_simulated_peripherals(data_dir: Path, *, timeout: float = 15.0) -> SimulatedPeripherals:
    """Start the bill validator and printer simulators for the terminal of ``data_dir``."""
    directory = Path(data_dir) / "peripherals"
    started: dict[str, tuple[subprocess.Popen[bytes], Path]] = {
        device: spawn_simulator(device, directory) for device in DEVICES
    }
    handle = SimulatedPeripherals(
        ports=SerialPorts(
            bill_validator=str(directory / "bill-validator.tty"),
            printer=str(directory / "printer.tty"),
        ),
        controls={},
        directory=directory,
        processes={device: proc for device, (proc, _) in started.items()},
    )
    try:
        for device, (proc, ready) in started.items():
            handle.controls[device] = wait_ready(proc, ready, timeout)["control"]
    except PeripheralsError:
        handle.stop()
        raise
    return handle
