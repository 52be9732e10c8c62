"""Attract mode's CPU against an idle Kivy window: ``python -m kiosk.tools.bench_attract``.

Both run as their own processes on the same renderer (SDL ``offscreen``, Mesa's software
OpenGL by default), one after the other in the same run:

- **the kiosk**: ``turbokiosk run`` as ``deploy/tox -e kiosk`` starts it (the embedded
  accounting host, the two device simulators on pseudo-terminals; ``--no-simulator``, so the
  window is the player's screen alone), waited for until it shows attract mode with its links
  up, then sampled;
- **an idle Kivy window**: a bare Kivy app of the same size and frame-rate setting with one
  widget on it that never changes.

The figure is the CPU time of the process (every thread: llvmpipe renders on threads of its
own) over the sampled seconds, as a percentage of one core.  The simulator programs are
separate processes, reported beside it.  Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: the goal: attract mode at most this share of one core at 800x480 (issue 13)
GOAL_PERCENT = 10.0
_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system, every thread) that process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def children_of(pid: int) -> list[int]:
    """The direct children of ``pid``."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out.extend(int(child) for child in text)
    return out


def sample(pids: list[int], seconds: float) -> float:
    """Percentage of one core the processes ``pids`` used together over ``seconds``."""
    before, start = sum(cpu_seconds(p) for p in pids), time.monotonic()
    time.sleep(seconds)
    used = sum(cpu_seconds(p) for p in pids) - before
    return 100.0 * used / (time.monotonic() - start)


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "offscreen")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    env["KIVY_NO_ARGS"] = "1"
    return env


def _wait_for(path: Path, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if process.poll() is not None:
            raise RuntimeError(f"the process ended first (status {process.returncode})")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{path.name} did not appear in {timeout:.0f} s")
        time.sleep(0.2)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(2)  # Ctrl-C: the kiosk stops in order
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def kiosk_at_attract(size: str, seconds: float, settle: float) -> dict[str, Any]:
    """``turbokiosk run`` at attract mode: its CPU and its simulators' CPU."""
    with tempfile.TemporaryDirectory(prefix="turbokiosk-attract-") as tmp:
        dump = Path(tmp) / "attract.json"
        command = [sys.executable, "-m", "kiosk", "run", "--data-dir", f"{tmp}/terminal"]
        command += ["--size", size, "--no-simulator", "--dump-screen", str(dump)]
        process = subprocess.Popen(
            command, env=_environment(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        try:
            _wait_for(dump, process, 120)
            shown = json.loads(dump.read_text())
            if shown["screen"] != "attract" or not all(shown["links"].values()):
                raise RuntimeError(f"not at attract mode with its links up: {shown}")
            time.sleep(settle)
            simulators = children_of(process.pid)
            before = {pid: cpu_seconds(pid) for pid in simulators}
            kiosk = sample([process.pid], seconds)
            used = sum(cpu_seconds(pid) - before[pid] for pid in simulators)
        finally:
            _stop(process)
    return {
        "kiosk_attract_cpu_percent": kiosk,
        "simulators_cpu_percent": 100.0 * used / seconds,
        "simulator_processes": len(simulators),
    }


IDLE_WINDOW = """
import sys
from pathlib import Path
from ui.terminal import env
env.prepare(env.parse_size(sys.argv[1]), headless=True)
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.label import Label

class Idle(App):
    def load_kv(self, filename=None):
        return None

    def build(self):
        Clock.schedule_once(lambda _dt: Path(sys.argv[2]).write_text("up"), 0.5)
        return Label(text="idle")

Idle().run()
"""


def idle_window(size: str, seconds: float, settle: float) -> float:
    """A bare Kivy window of ``size`` doing nothing: its CPU."""
    with tempfile.TemporaryDirectory(prefix="turbokiosk-idle-") as tmp:
        ready = Path(tmp) / "ready"
        process = subprocess.Popen(
            [sys.executable, "-c", IDLE_WINDOW, size, str(ready)],
            env=_environment(),
            cwd=Path(__file__).resolve().parents[2],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            _wait_for(ready, process, 60)
            time.sleep(settle)
            return sample([process.pid], seconds)
        finally:
            _stop(process)


def measure(size: str = "800x480", seconds: float = 10.0, settle: float = 3.0) -> dict[str, Any]:
    """Both figures, the idle window first (the same run, the same renderer)."""
    idle = idle_window(size, seconds, settle)
    figures: dict[str, Any] = {"size": size, "seconds": seconds, "idle_window_cpu_percent": idle}
    figures.update(kiosk_at_attract(size, seconds, settle))
    figures["goal_percent"] = GOAL_PERCENT
    return figures


def main(argv: list[str] | None = None) -> int:
    """``python -m kiosk.tools.bench_attract [--size WxH] [--seconds S]``: the figures as JSON."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.size, args.seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
