"""Bench: the device bridge against today's direct simulator, measured in the same run.

    python -m tests.bridge.bench_bridge [--notes N] [--idle-seconds S] [--poll-ms MS ...]

1. A note from the bezel to the credit shown (the terminal's credit meter): through the
   ID-003 simulator and the bridge (its idle poll at each ``--poll-ms``), and through the
   protobuf simulator the terminal talks to directly (the baseline); both take 150 ms to
   stack and the ID-003 acceptor none to accept, so the difference is the bridge's.  p50 and
   p99 of N notes, and the ratio of the p99s (goal: at most 1.2 x the baseline + 5 ms).
2. CPU while the device is idle: the bridge process polling the ID-003 acceptor, against the
   protobuf simulator (its link heartbeats), over the same seconds; in % of one core (goal:
   the bridge at most 1 %).

Prints one JSON document (``tests/bridge/test_bench_bridge.py`` runs it small under
``-m bench``; docs/devices.md has the figures).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from kiosk.terminal.app.peripherals import SimulatedPeripherals, start_simulated_peripherals
from kiosk.terminal.app.serial_wiring import SerialSetup
from kiosk.terminal.app.wiring import build_terminal

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def note_latencies(
    base: Path, protocol: str, notes: int, poll_ms: int
) -> tuple[list[float], list[float]]:
    """For each note: seconds from ``insert`` to the credit, and from the instant the device
    put it in the cash box (its ``last_stacked_at``, the same monotonic clock) to the credit."""
    extra: dict[str, tuple[str, ...]] = {"bill-validator": ("--stack-ms", "150")}
    if protocol:
        extra = {
            "bill-validator": ("--stack-ms", "150", "--accept-ms", "0"),
            "bill-validator-bridge": ("--poll-ms", str(poll_ms)),
        }
    sims: SimulatedPeripherals = start_simulated_peripherals(
        base, timeout=60, validator=protocol, printer="", extra=extra
    )
    terminal = build_terminal(base / "terminal", devices=SerialSetup(sims.ports))
    runtime = terminal.runtime
    try:
        runtime.power_up()
        _until(runtime, lambda: _accepting(terminal, sims, protocol))
        samples, stacked = [], []
        for _ in range(notes):
            before = runtime.state.credits[0]
            start = time.monotonic()
            sims.control("bill-validator", "insert 100")
            while runtime.state.credits[0] == before:
                runtime.pump()
                time.sleep(0.001)
                assert time.monotonic() - start < 30, "no credit"
            credited = time.monotonic()
            samples.append(credited - start)
            device = json.loads(sims.control("bill-validator", "status")[3:])
            stacked.append(credited - device["last_stacked_at"] / 1000)
            _until(runtime, lambda: _accepting(terminal, sims, protocol))
        return samples, stacked
    finally:
        terminal.close()
        sims.stop()


def idle_cpu(base: Path, protocol: str, seconds: float, poll_ms: int) -> float:
    """% of a core the process facing the terminal uses while the acceptor is idle."""
    extra: dict[str, tuple[str, ...]] = (
        {"bill-validator-bridge": ("--poll-ms", str(poll_ms))} if protocol else {}
    )
    sims = start_simulated_peripherals(
        base, timeout=60, validator=protocol, printer="", extra=extra
    )
    terminal = build_terminal(base / "terminal", devices=SerialSetup(sims.ports))
    runtime = terminal.runtime
    try:
        runtime.power_up()
        _until(runtime, lambda: _accepting(terminal, sims, protocol))
        pid = sims.processes["bill-validator-bridge" if protocol else "bill-validator"].pid
        first, start = cpu_seconds(pid), time.monotonic()
        while time.monotonic() - start < seconds:
            runtime.pump()
            time.sleep(0.05)
        return 100 * (cpu_seconds(pid) - first) / (time.monotonic() - start)
    finally:
        terminal.close()
        sims.stop()


def _accepting(terminal: Any, sims: SimulatedPeripherals, protocol: str) -> bool:
    driver = terminal.serial.validator
    if driver.status is None or not driver.status.enabled or terminal.runtime.state.escrow:
        return False
    if not protocol:
        status = json.loads(sims.control("bill-validator", "status")[3:])
        return bool(status["escrow"] is None and not status["unacked"])
    device = json.loads(sims.control("bill-validator", "status")[3:])
    bridge = json.loads(sims.control("bill-validator-bridge", "status")[3:])
    return bool(
        device["phase"] == "idle"
        and not device["inhibited"]
        and bridge["device_status"] == 0x11
        and not bridge["unacked"]
    )


def _until(runtime: Any, done: Any, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline
        runtime.pump()
        time.sleep(0.01)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench(notes: int, idle_seconds: float, polls: list[int]) -> dict[str, Any]:
    """Every figure, the baseline first (same run)."""
    out: dict[str, Any] = {"notes": notes, "idle_seconds": idle_seconds}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        direct, direct_stacked = note_latencies(base / "direct", "", notes, 0)
        out["direct_ms"] = _summary(direct)
        out["direct_stacked_to_credit_ms"] = _summary(direct_stacked)
        out["direct_idle_cpu_pct"] = round(idle_cpu(base / "direct-idle", "", idle_seconds, 0), 3)
        for poll in polls:
            bridged, bridged_stacked = note_latencies(base / f"bridge-{poll}", "id003", notes, poll)
            summary: dict[str, Any] = _summary(bridged)
            summary["p99_ratio"] = round(summary["p99"] / out["direct_ms"]["p99"], 2)
            summary["p99_goal_ms"] = round(1.2 * out["direct_ms"]["p99"] + 5, 1)
            base_stacked = out["direct_stacked_to_credit_ms"]
            after = _summary(bridged_stacked)
            after["p99_ratio"] = round(after["p99"] / base_stacked["p99"], 2)
            after["p99_goal_ms"] = round(1.2 * base_stacked["p99"] + 5, 1)
            summary["stacked_to_credit"] = after
            summary["idle_cpu_pct"] = round(
                idle_cpu(base / f"bridge-idle-{poll}", "id003", idle_seconds, poll), 3
            )
            out[f"bridge_poll_{poll}ms"] = summary
    return out


def _summary(samples: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in samples]
    return {
        "p50": round(statistics.median(ms), 1),
        "p99": round(percentile(ms, 0.99), 1),
        "max": round(max(ms), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bridge.bench_bridge")
    parser.add_argument("--notes", type=int, default=50)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--poll-ms", type=int, nargs="+", default=[100, 20])
    args = parser.parse_args()
    print(json.dumps(bench(args.notes, args.idle_seconds, args.poll_ms), indent=1))


if __name__ == "__main__":
    main()
