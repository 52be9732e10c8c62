"""``turbokiosk soak``: a robot plays a real terminal and checks the invariants every game.

Every argument is checked before the data directory is touched: a bad one creates nothing.
A terminal that will not play (locked at power-up, a note it does not credit, no game dealt
try after try) is one line saying why, at once: exit status 3 when its store is locked up,
else 1 (decision 0040).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from kiosk.kernel.interrupts import StepInterrupt
from kiosk.kernel.paths import add_signer_argument
from kiosk.kernel.progress import Progress
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.cli.guard import EXIT_INTERRUPTED
from kiosk.terminal.robot import InvariantError, NotPlayingError, Robot
from kiosk.terminal.store.journal import StoreError
from kiosk.terminal.textui.wording import enable_hint

#: The most games one soak run plays (days at the robot's few hundred games a second).
MAX_GAMES = 100_000_000
#: The most committed steps between two state snapshots.
MAX_SNAPSHOT_EVERY = 1_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``turbokiosk soak``."""
    from kiosk.terminal.cli.args import float_type, int_type

    parser.add_argument("--data-dir", type=Path, required=True, help="terminal data directory")
    parser.add_argument("--games", type=int_type(0, MAX_GAMES), required=True, help="games to play")
    parser.add_argument("--edition", action="append", help="edition(s) to play (default: all)")
    parser.add_argument(
        "--seed", type=int_type(0), help="seed of the robot's choices (not the cards)"
    )
    parser.add_argument(
        "--fault-rate",
        type=float_type(0.0, 1.0),
        default=0.02,
        help="chance of a fault (door, paper out...) per game, 0 to 1",
    )
    parser.add_argument(
        "--snapshot-every",
        type=int_type(1, MAX_SNAPSHOT_EVERY),
        default=25,
        help="games between state snapshots",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="only the final line (no progress on stderr)"
    )
    add_signer_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Power up (recovering whatever a power cut left), then play ``--games`` games."""
    from kiosk.kernel.games.registry import edition_ids
    from kiosk.terminal.cli.args import check_data_dir
    from kiosk.terminal.cli.guard import CommandLineError

    known = edition_ids()
    for edition in args.edition or ():
        if edition not in known:
            raise CommandLineError(
                f"--edition: unknown edition {edition!r}; known: {', '.join(known)}"
            )
    check_data_dir(args.data_dir, write=True)
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
    enabled = [ed.edition for ed in terminal.runtime.state.config.editions]
    for edition in args.edition or ():
        if edition not in enabled:  # known, but this terminal's configuration does not offer it
            terminal.close()
            hint = enable_hint(edition)
            print(f"soak: {edition!r} is not enabled on this terminal; {hint}", file=sys.stderr)
            return 2
    robot = Robot(
        terminal.runtime,
        terminal.simulated.validator,
        terminal.simulated.printer,
        random.Random(seed),
        editions=args.edition,
        fault_rate=args.fault_rate,
    )
    start = time.perf_counter()
    progress = Progress("soak", args.games, "games", enabled=not args.quiet)
    stop = StepInterrupt()
    try:
        with stop:  # Ctrl-C: the game under way ends, then the report of the games played
            while robot.stats.games < args.games and not stop.requested:
                robot.play_game()
                progress.update(robot.stats.games)
    except InvariantError as exc:
        print(f"soak: INVARIANT BROKEN after {robot.stats.games} games: {exc}", file=sys.stderr)
        return 1
    except NotPlayingError as exc:  # a lockup no attendant's reset ends: say why, stop
        state = terminal.runtime.state
        locked = state.critical is not None or state.storage_full is not None
        print(
            f"soak: the terminal will not play (after {robot.stats.games} games): {exc}",
            file=sys.stderr,
        )
        return 3 if locked else 1
    except StoreError:  # the terminal locked itself up (storage full, critical memory)
        state = terminal.runtime.state
        reason = state.storage_full or state.critical or "store failure"
        print(f"soak: terminal locked after {robot.stats.games} games: {reason}", file=sys.stderr)
        return 3
    finally:
        progress.close()
        terminal.close()
    interrupted = stop.requested
    elapsed = time.perf_counter() - start
    rate = robot.stats.games / elapsed if elapsed > 0 else 0.0
    print(
        f"soak: {robot.stats.games} games in {elapsed:.2f} s ({rate:.1f} games/s), "
        f"{robot.stats.notes} notes, {robot.stats.cashouts} cash-outs, "
        f"{robot.stats.handpays} handpays, {robot.stats.faults} faults; invariants held"
        + (f"; INTERRUPTED after {robot.stats.games} of {args.games} games" if interrupted else "")
    )
    return EXIT_INTERRUPTED if interrupted else 0
