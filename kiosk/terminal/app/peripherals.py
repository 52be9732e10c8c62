"""Start the simulated bill validator and printer as their own processes, on pseudo-terminals.

``turbokiosk run`` calls :func:`start_simulated_peripherals` when no hardware is configured:
each simulator (``turbokiosk sim ...``) creates a pty, links its terminal end under
``<data dir>/peripherals/`` and keeps its non-volatile memory (and the printed vouchers, as
PNG) beside it.  The returned handle says where the ports and the control channels are, and
stops both processes.

The development kiosk pairs its simulators by itself: the first start makes a pairing key per
device, the simulator's copy in its state directory and the terminal's under
``<data dir>/peripherals/keys/`` (a field terminal keeps its copies outside the data
directory; docs/devices.md, "Pairing").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from kiosk.terminal.app.serial_wiring import SerialPorts
from kiosk.terminal.devices.pairing import SIM_KEY_NAME, key_path, new_pairing
from kiosk.terminal.devices.sim.program import control

DEVICES = ("bill-validator", "printer")


class PeripheralsError(RuntimeError):
    """A simulator did not start."""


@dataclass
class SimulatedPeripherals:
    """Two running simulators."""

    ports: SerialPorts
    controls: dict[str, str]  # device -> control address HOST:PORT
    directory: Path
    key_dir: Path  # the terminal's copies of the pairing keys
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    protocols: dict[str, str] = field(default_factory=dict)  # device -> native protocol

    def control(self, device: str, command: str) -> str:
        """Send a control command (``insert 2000``, ``fault paper-out``...); the reply."""
        return control(self.controls[device], command)

    def vouchers_dir(self) -> Path:
        """Where the printer simulator puts the PNG of every voucher it prints."""
        if self.protocols.get("printer"):
            return self.directory / SIMULATORS[self.protocols["printer"]] / "vouchers"
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
    pair_simulator(directory, device)
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


def pair_simulator(directory: Path, device: str) -> Path:
    """Pair the simulator of ``device`` under ``directory`` unless it has a key already; the
    terminal's copy of its key."""
    terminal_copy = key_path(directory / "keys", device)
    device_copy = directory / device / SIM_KEY_NAME
    if not (device_copy.exists() and terminal_copy.exists()):
        new_pairing(terminal_copy, device_copy, replace=True)
    return terminal_copy


#: what ``$TURBOKIOSK_VALIDATOR`` / ``$TURBOKIOSK_PRINTER`` may name: the protobuf simulator
#: (default) or a native protocol's simulator behind a bridge process
VALIDATOR_ENV, PRINTER_ENV = "TURBOKIOSK_VALIDATOR", "TURBOKIOSK_PRINTER"
NATIVE_VALIDATORS = ("id003", "essp", "ebds")
NATIVE_PRINTERS = ("tcl",)
#: protocol -> its simulator (``turbokiosk sim NAME``)
SIMULATORS = {"id003": "id003", "essp": "essp", "ebds": "ebds", "tcl": "tcl-printer"}
#: simulators that take a script and a cash-box record rather than a state directory
SCRIPTED = ("essp", "ebds")


def spawn_bridged(
    device: str,
    protocol: str,
    directory: Path,
    *,
    sim_extra: tuple[str, ...] = (),
    bridge_extra: tuple[str, ...] = (),
) -> tuple[subprocess.Popen[bytes], Path, subprocess.Popen[bytes], Path]:
    """A native simulator (``turbokiosk sim PROTOCOL``) and the bridge in front of it, whose
    sealed link is linked where the terminal expects ``device``; both processes and ready
    files (the simulator's control is the bezel's, the bridge's its status)."""
    directory.mkdir(parents=True, exist_ok=True)
    pair_simulator(directory, device)  # the bridge holds the device's copy
    sim, sim_ready = spawn_native_simulator(protocol, directory, extra=sim_extra)
    bridge, bridge_ready = spawn_bridge(device, protocol, directory, extra=bridge_extra)
    return sim, sim_ready, bridge, bridge_ready


def spawn_native_simulator(
    protocol: str, directory: Path, *, extra: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], Path]:
    """``turbokiosk sim id003|essp|ebds|tcl-printer`` on its own pty under ``directory``."""
    simulator = SIMULATORS[protocol]
    ready = directory / f"{simulator}.ready.json"
    ready.unlink(missing_ok=True)
    port = directory / f"{simulator}.tty"
    state: list[str] = ["--state-dir", str(directory / simulator)]
    if simulator in SCRIPTED:
        state = ["--record", str(directory / f"{simulator}-cashbox.json"), "--control", ":0"]
    proc = _spawn(
        directory / f"{simulator}.log",
        ["sim", simulator, "--port", str(port), "--create-pty"],
        [*state, "--ready-file", str(ready), *extra],
    )
    return proc, ready


def spawn_bridge(
    device: str, protocol: str, directory: Path, *, extra: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], Path]:
    """``turbokiosk bridge validator|printer`` between the native simulator's pty and the
    terminal's port for ``device`` (its journal and pairing key in ``directory/device``)."""
    ready = directory / f"{device}-bridge.ready.json"
    ready.unlink(missing_ok=True)
    kind = "validator" if device == "bill-validator" else "printer"
    proc = _spawn(
        directory / f"{device}-bridge.log",
        ["bridge", kind, "--protocol", protocol],
        [
            "--device",
            str(directory / f"{SIMULATORS[protocol]}.tty"),
            "--link",
            str(directory / f"{device}.tty"),
            "--state-dir",
            str(directory / device),
            "--ready-file",
            str(ready),
            *extra,
        ],
    )
    return proc, ready


def _spawn(log_path: Path, head: list[str], tail: list[str]) -> subprocess.Popen[bytes]:
    log = open(log_path, "ab")  # noqa: SIM115 - handed to the child
    command = [sys.executable, "-m", "kiosk", *head, *tail, "--exit-with-parent"]
    try:
        return subprocess.Popen(
            command, stdout=log, stderr=log, stdin=subprocess.DEVNULL, process_group=0
        )
    finally:
        log.close()


def chosen_protocols() -> tuple[str, str]:
    """The validator's and printer's protocols the environment asks for ("" : protobuf)."""
    validator = os.environ.get(VALIDATOR_ENV, "")
    printer = os.environ.get(PRINTER_ENV, "")
    if validator not in ("", "sim", *NATIVE_VALIDATORS):
        raise PeripheralsError(
            f"${VALIDATOR_ENV}={validator!r}: expected one of sim, {', '.join(NATIVE_VALIDATORS)}"
        )
    if printer not in ("", "sim", *NATIVE_PRINTERS):
        raise PeripheralsError(
            f"${PRINTER_ENV}={printer!r}: expected one of sim, {', '.join(NATIVE_PRINTERS)}"
        )
    return validator.replace("sim", ""), printer.replace("sim", "")


def start_simulated_peripherals(
    data_dir: Path,
    *,
    timeout: float = 15.0,
    validator: str | None = None,
    printer: str | None = None,
    extra: dict[str, tuple[str, ...]] | None = None,
) -> SimulatedPeripherals:
    """Start the bill validator and printer simulators for the terminal of ``data_dir``; a
    native protocol (``validator="id003"``; default ``$TURBOKIOSK_VALIDATOR``...) starts its
    simulator behind a bridge (``extra``: more arguments for a process, by its control name).
    Controls: ``bill-validator`` / ``printer`` (the simulated
    device) and, when bridged, ``bill-validator-bridge`` / ``printer-bridge``."""
    directory = Path(data_dir) / "peripherals"
    key_dir = directory / "keys"
    env_validator, env_printer = chosen_protocols()
    protocols = {
        "bill-validator": env_validator if validator is None else validator,
        "printer": env_printer if printer is None else printer,
    }
    started: dict[str, tuple[subprocess.Popen[bytes], Path]] = {}
    for device in DEVICES:
        protocol = protocols[device]
        if protocol:
            more = extra or {}
            sim, sim_ready, bridge, bridge_ready = spawn_bridged(
                device,
                protocol,
                directory,
                sim_extra=more.get(device, ()),
                bridge_extra=more.get(f"{device}-bridge", ()),
            )
            started[device] = (sim, sim_ready)
            started[f"{device}-bridge"] = (bridge, bridge_ready)
        else:
            started[device] = spawn_simulator(
                device, directory, extra=(extra or {}).get(device, ())
            )
    handle = SimulatedPeripherals(
        ports=SerialPorts(
            bill_validator=str(directory / "bill-validator.tty"),
            printer=str(directory / "printer.tty"),
            validator_key=key_path(key_dir, "bill-validator"),
            printer_key=key_path(key_dir, "printer"),
        ),
        controls={},
        directory=directory,
        key_dir=key_dir,
        processes={device: proc for device, (proc, _) in started.items()},
        protocols={device: protocol for device, protocol in protocols.items() if protocol},
    )
    try:
        for device, (proc, ready) in started.items():
            handle.controls[device] = wait_ready(proc, ready, timeout)["control"]
    except PeripheralsError:
        handle.stop()
        raise
    return handle
