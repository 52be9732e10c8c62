"""``turbokiosk soak``: a robot plays a real terminal and checks the invariants every game."""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from kiosk.app.wiring import build_terminal
from kiosk.robot import InvariantError, Robot
from kiosk.store.journal import StoreError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``turbokiosk soak``."""
    parser.add_argument("--data-dir", type=Path, required=True, help="terminal data directory")
    parser.add_argument("--games", type=int, required=True, help="games to play")
    parser.add_argument("--edition", action="append", help="edition(s) to play (default: all)")
    parser.add_argument("--seed", type=int, help="seed of the robot's choices (not the cards)")
    parser.add_argument("--fault-rate", type=float, default=0.02, help="doors, paper out...")
    parser.add_argument(
        "--snapshot-every", type=int, default=25, help="games between state snapshots"
    )
    parser.add_argument("--quiet", action="store_true", help="only the final line")


def run(args: argparse.Namespace) -> int:
    """Power up (recovering whatever a power cut left), then play ``--games`` games."""
    if args.games < 0:
        print("soak: --games must be 0 or more", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    terminal = build_terminal(args.data_dir, snapshot_every=args.snapshot_every)
    report = terminal.runtime.power_up()
    if report.critical:
        print(f"soak: terminal locked: {report.critical}", file=sys.stderr)
        return 3
    if not args.quiet:
        for action in report.actions:
            print(f"recovered: {action}")
        print(f"ready: seed {seed}", flush=True)
    robot = Robot(
        terminal.runtime,
        terminal.validator,
        terminal.printer,
        random.Random(seed),
        editions=args.edition,
        fault_rate=args.fault_rate,
    )
    start = time.perf_counter()
    try:
        while robot.stats.games < args.games:
            robot.play_game()
    except InvariantError as exc:
        print(f"soak: INVARIANT BROKEN after {robot.stats.games} games: {exc}", file=sys.stderr)
        return 1
    except StoreError:  # the terminal locked itself up (storage full, critical memory)
        state = terminal.runtime.state
        reason = state.storage_full or state.critical or "store failure"
        print(f"soak: terminal locked after {robot.stats.games} games: {reason}", file=sys.stderr)
        return 3
    finally:
        terminal.close()
    elapsed = time.perf_counter() - start
    rate = robot.stats.games / elapsed if elapsed > 0 else 0.0
    print(
        f"soak: {robot.stats.games} games in {elapsed:.2f} s ({rate:.1f} games/s), "
        f"{robot.stats.notes} notes, {robot.stats.cashouts} cash-outs, "
        f"{robot.stats.handpays} handpays, {robot.stats.faults} faults; invariants held"
    )
    return 0
