"""``turbokiosk run`` works the simulator programs over their serial links by default.

The SIMULATOR panel's actions reach the simulator programs through their control channels
(:class:`kiosk.terminal.app.simulator.SimulatorPrograms`), and the real command, run headless,
starts both simulators itself: a note inserted through the bill validator simulator's control
channel becomes credit on the running terminal, and SIGTERM stops the kiosk and its simulators.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.terminal.app.duties import TerminalDuties
from kiosk.terminal.app.kiosk import PERIPHERALS_FILE
from kiosk.terminal.app.peripherals import start_simulated_peripherals
from kiosk.terminal.app.serial_wiring import SerialSetup
from kiosk.terminal.app.simulator import DeviceSimulator, SimulatorPrograms
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices.sim.program import control

REPO = Path(__file__).resolve().parents[2]


def _until(check: Callable[[], bool], timeout: float, what: str, step: float = 0.05) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(step)


@pytest.fixture
def serial_terminal(tmp_path: Path) -> Iterator[tuple[Terminal, DeviceSimulator]]:
    with start_simulated_peripherals(tmp_path) as peripherals:
        terminal = build_terminal(tmp_path, devices=SerialSetup(peripherals.ports))
        try:
            terminal.runtime.power_up()
            yield (
                terminal,
                DeviceSimulator(terminal, SimulatorPrograms(peripherals, terminal.serial.printer)),
            )
        finally:
            terminal.close()


def test_the_panel_works_the_simulator_programs(
    serial_terminal: tuple[Terminal, DeviceSimulator],
) -> None:
    terminal, sim = serial_terminal
    rt = terminal.runtime

    def pumped(check: Callable[[], bool]) -> Callable[[], bool]:
        def step() -> bool:
            rt.pump()
            return check()

        return step

    _until(pumped(lambda: terminal.printer.ready()), 15, "the printer link")
    assert sim.paper_in()
    log = ""

    def insert() -> bool:
        nonlocal log
        rt.pump()
        log = sim.insert_note(2_000)
        return log == "note 20 inserted"

    _until(insert, 15, "the validator to take a note", step=0.2)  # enabled once its link is up
    _until(pumped(lambda: rt.state.credits == [2_000]), 15, "the credit")
    assert sim.insert_note(300) == "note 3 refused"  # not a note the validator knows

    assert sim.toggle_paper() == "paper out"
    _until(pumped(lambda: not sim.paper_in()), 15, "the printer's paper-out status")
    assert "paper_out" in rt.state.tilts  # raised by the printer driver, not the duties
    TerminalDuties(terminal)()
    assert TiltCode.PRINTER not in rt.state.tilts
    assert sim.toggle_paper() == "paper in"
    _until(pumped(lambda: "paper_out" not in rt.state.tilts), 15, "the paper-out tilt to clear")
    assert sim.paper_in()


def _meters(data_dir: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "kiosk", "meters", "--data-dir", str(data_dir), "--json"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def test_run_starts_both_simulators_and_takes_a_note_from_them(tmp_path: Path) -> None:
    data_dir = tmp_path / "terminal"
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "offscreen",
        "SDL_AUDIODRIVER": "dummy",
        "KIVY_NO_ARGS": "1",
        "KIVY_HOME": str(tmp_path / "kivy"),
    }
    command = [sys.executable, "-m", "kiosk", "run", "--data-dir", str(data_dir)]
    proc = subprocess.Popen(
        command,
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    status = data_dir / PERIPHERALS_FILE
    try:
        _until(lambda: status.exists() or proc.poll() is not None, 60, PERIPHERALS_FILE)
        assert proc.poll() is None, proc.stderr.read().decode()[-3000:] if proc.stderr else ""
        info = json.loads(status.read_text(encoding="utf-8"))
        assert set(info["controls"]) == {"bill-validator", "printer"}
        for device, port in info["ports"].items():
            assert Path(port).resolve().name.isdigit(), f"{device}: {port} is not a pty link"
        reply = ""

        def insert() -> bool:
            nonlocal reply
            reply = control(info["controls"]["bill-validator"], "insert 2000")
            return reply.startswith("ok escrow")

        _until(insert, 20, "the validator to be enabled", step=0.3)
        _until(lambda: _meters(data_dir)["credits"] == [2_000], 20, "the credit", step=0.3)
        assert _meters(data_dir)["lifetime"]["bills_in"] == 2_000
        ready = sorted((data_dir / "peripherals").glob("*.ready.json"))
        pids = [int(json.loads(f.read_text(encoding="utf-8"))["pid"]) for f in ready]
        assert len(pids) == 2
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    assert not status.exists()
    _until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in pids), 10, "the simulators")
