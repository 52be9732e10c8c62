"""A real terminal with its SAS link on a port, driven line by line (a test program).

    python -m tests.sas.host.sas_terminal --data-dir D --sas-port LINK --address N [--serial]

It builds the terminal the way ``turbokiosk run`` does
(:func:`kiosk.terminal.app.wiring.build_terminal` with ``sas=``: its journal, signer, devices and
SAS link), powers it up (recovering whatever a kill left), starts the SAS link on ``LINK`` and reads
commands on standard input, one a line, answering each with one line ``ok ...`` or ``error ...``
(JSON after the word).  Between commands it pumps the runtime every few milliseconds, so the SAS
host's commands (posted to the terminal's thread) are carried out while it waits.  ``--serial`` puts
the bill validator and the printer on their simulators (other processes, sealed serial links): the
validator then takes tickets.

Commands: ``robot GAMES SEED [FAULT_RATE]``, ``play GAMES SEED`` (the robot without its
cash-outs), ``bill CENTS``, ``ticket NUMBER``, ``cashout``,
``door open|close``, ``paper in|out``, ``attendant``, ``wait SECONDS``, ``state``, ``quit``.
"""

from __future__ import annotations

import argparse
import json
import random
import select
import sys
import time
from pathlib import Path
from typing import Any

from kiosk.terminal.app.peripherals import SimulatedPeripherals, start_simulated_peripherals
from kiosk.terminal.app.serial_wiring import SerialSetup
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.state import Phase
from kiosk.terminal.robot import Robot
from kiosk.terminal.sas.link import SasSettings


class Driver:
    """The terminal and what the commands do to it."""

    def __init__(self, terminal: Terminal, peripherals: SimulatedPeripherals | None) -> None:
        self.terminal = terminal
        self.rt = terminal.runtime
        self.peripherals = peripherals

    def pump(self, seconds: float = 0.0) -> None:
        end = time.monotonic() + seconds
        while True:
            self.rt.pump()
            if time.monotonic() >= end:
                return
            time.sleep(0.005)

    def state(self) -> dict[str, Any]:
        s = self.rt.state
        return {
            "credits": list(s.credits),
            "phase": s.phase.value,
            "handpay": None if s.handpay is None else s.handpay.value,
            "disabled": s.disabled,
            "tilts": sorted(str(t) for t in s.tilts),
            "doors_open": sorted(s.doors_open),
            "ticket_escrow": None if s.ticket_escrow is None else str(s.ticket_escrow),
        }

    def robot(self, games: int, seed: int, fault_rate: float) -> dict[str, Any]:
        sim = self.terminal.simulated
        robot = Robot(
            self.rt, sim.validator, sim.printer, random.Random(seed), fault_rate=fault_rate
        )
        while robot.stats.games < games:
            robot.play_game()
            self.rt.pump()
        robot.settle_lockups()
        return robot.stats.__dict__

    def play(self, games: int, seed: int) -> dict[str, Any]:
        """The robot's games without its cash-outs (each waits for the SAS host's number)."""
        sim = self.terminal.simulated
        robot = Robot(self.rt, sim.validator, sim.printer, random.Random(seed), fault_rate=0.0)
        while robot.stats.games < games:
            robot.settle_lockups()
            robot.finish_round()
            robot._fund()  # the robot's own steps, minus the cash-out
            if robot._wager():
                try:
                    self.rt.execute(c.Deal())
                except CommandError:
                    self.rt.execute(c.ClearWagers())
                    continue
                robot.settle_lockups()
                robot.finish_round()
                robot.stats.games += 1
            robot.check_invariants()
            self.rt.pump()
        return robot.stats.__dict__

    def bill(self, cents: int) -> dict[str, Any]:
        if self.peripherals is not None:
            self.peripherals.control("bill-validator", f"insert {cents}")
            self._until(lambda: self.rt.state.phase is not Phase.CASHOUT, 3.0)
            self.pump(1.0)
        else:
            self.terminal.simulated.validator.insert(cents)
            self.pump(0.05)
        return self.state()

    def ticket(self, number: str) -> dict[str, Any]:
        if self.peripherals is None:
            raise CommandError("tickets need --serial (the validator simulator takes them)")
        before = list(self.rt.state.credits)
        self.peripherals.control("bill-validator", f"ticket {number}")
        self.pump(0.3)
        self._until(lambda: self.rt.state.ticket_escrow is None, 12.0)
        self.pump(0.5)
        return {**self.state(), "credited": self.rt.state.credits[0] - before[0]}

    def cashout(self) -> dict[str, Any]:
        before = self.rt.state.credits[0]
        self.rt.cash_out()
        self._until(lambda: self.rt.state.phase is not Phase.CASHOUT, 12.0)
        self.pump(0.3)
        return {**self.state(), "cashed_out": before - self.rt.state.credits[0]}

    def _until(self, done: Any, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.rt.pump()
            if done():
                return
            time.sleep(0.01)

    def do(self, words: list[str]) -> dict[str, Any]:
        name, args = words[0], words[1:]
        if name == "robot":
            rate = float(args[2]) if len(args) > 2 else 0.02
            return self.robot(int(args[0]), int(args[1]), rate)
        if name == "play":
            return self.play(int(args[0]), int(args[1]))
        if name == "bill":
            return self.bill(int(args[0]))
        if name == "ticket":
            return self.ticket(args[0])
        if name == "cashout":
            return self.cashout()
        if name == "door":
            self.rt.execute(c.SetDoor(door="main", open=args[0] == "open"))
            self.pump(0.05)
            return self.state()
        if name == "paper":
            self.terminal.simulated.printer.paper = args[0] == "in"
            return self.state()
        if name == "attendant":
            if self.rt.state.handpay is not None:
                self.rt.execute(c.AttendantReset(by="test attendant"))
            self.pump(0.05)
            return self.state()
        if name == "wait":
            self.pump(float(args[0]))
            return self.state()
        if name == "state":
            return self.state()
        raise CommandError(f"unknown command {name!r}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--sas-port", required=True)
    parser.add_argument("--address", type=int, default=1)
    parser.add_argument("--serial", action="store_true")
    parser.add_argument("--terminal-id", default="")
    args = parser.parse_args()
    args.data_dir.mkdir(parents=True, exist_ok=True)
    peripherals = start_simulated_peripherals(args.data_dir) if args.serial else None
    setup: dict[str, Any] = {}
    if peripherals is not None:
        setup["devices"] = SerialSetup(peripherals.ports)
    terminal = build_terminal(
        args.data_dir, sas=SasSettings(port=args.sas_port, address=args.address), **setup
    )
    report = terminal.runtime.power_up()
    assert terminal.sas_link is not None
    terminal.sas_link.start()
    driver = Driver(terminal, peripherals)
    print(f"ready {json.dumps({'critical': report.critical, **driver.state()})}", flush=True)
    try:
        while True:
            ready, _, _ = select.select([sys.stdin], [], [], 0.005)
            if not ready:
                terminal.runtime.pump()
                continue
            line = sys.stdin.readline()
            if not line or line.strip() == "quit":
                break
            words = line.split()
            if not words:
                continue
            try:
                result = driver.do(words)
            except (CommandError, ValueError, IndexError) as exc:
                print(f"error {json.dumps(str(exc))}", flush=True)
                continue
            print(f"ok {json.dumps(result)}", flush=True)
    finally:
        terminal.close()
        if peripherals is not None:
            peripherals.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
