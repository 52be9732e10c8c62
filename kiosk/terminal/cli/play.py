"""``turbokiosk play [--data-dir DIR] [--edition E]``: play the full game in a terminal.

For technicians over SSH and for trying rules without the touchscreen; scriptable by piping
commands (one a line) into standard input.  It *is* the terminal for the data directory it
opens: never point it at the data directory of a terminal that is running.  A terminal its
power-up locks up (critical memory, storage full) is one line on standard error and exit
status 3 at once, without waiting for a line of input (decision 0040).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from kiosk.kernel.games.registry import edition_ids
from kiosk.kernel.interrupts import LineInterrupt
from kiosk.kernel.paths import add_data_dir_argument, data_dir_of
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.cli.args import check_data_dir
from kiosk.terminal.cli.guard import EXIT_INTERRUPTED, EXIT_LOCKED, CommandLineError
from kiosk.terminal.cli.sas_options import add_sas_arguments, sas_settings
from kiosk.terminal.cli.seat_args import add_table_arguments, seat_at_table
from kiosk.terminal.core.config import ConfigError
from kiosk.terminal.textui.session import PlaySession
from kiosk.terminal.textui.wording import not_enabled


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    add_data_dir_argument(parser)
    parser.add_argument("--edition", metavar="E", help="the game to start with, e.g. stadium-3cp")
    add_sas_arguments(parser)
    add_table_arguments(parser)


def _prompted_lines() -> Iterator[str]:
    while True:
        try:
            yield input("> ")
        except EOFError:
            print()
            return


def run(args: argparse.Namespace) -> int:
    """Play until ``quit`` or the end of the input; Ctrl-C ends the session between two
    commands (exit status 130)."""
    with LineInterrupt() as interrupt:
        code = _play(args, interrupt)
    if interrupt.requested:
        raise CommandLineError(
            "interrupted (Ctrl-C): the session ended, the journal is closed", EXIT_INTERRUPTED
        )
    return code


def _play(args: argparse.Namespace, interrupt: LineInterrupt) -> int:
    if args.edition is not None and args.edition not in edition_ids():
        known = ", ".join(edition_ids())
        raise CommandLineError(f"--edition: unknown edition {args.edition!r}; known: {known}")
    sas = sas_settings(args)
    data_dir = check_data_dir(data_dir_of(args), write=True)
    terminal = build_terminal(data_dir, sas=sas)
    session = PlaySession(terminal, lambda text: print(text, flush=True))
    try:
        try:
            session.start(args.edition)
        except ConfigError as exc:
            print(f"turbokiosk play: --edition: {not_enabled(str(exc))}", file=sys.stderr)
            return 2
        if terminal.sas_link is not None:
            from kiosk.terminal.sas.transport import PortError

            try:
                terminal.sas_link.start()
            except PortError as exc:
                print(f"turbokiosk play: {exc}", file=sys.stderr)
                return 2
        state = terminal.runtime.state
        if state.storage_full is not None or state.critical is not None:
            return _locked(terminal)  # power-up locked it: no line it could read would play
        if args.table is not None:
            session.table = seat_at_table(terminal.runtime, args)
        interactive = sys.stdin.isatty()
        lines = interrupt.lines(_prompted_lines() if interactive else sys.stdin)
        try:
            session.run(lines, echo=not interactive)
        except KeyboardInterrupt:
            print()
    finally:
        if session.table is not None:
            session.table.close()
        terminal.close()
    return _locked(terminal)


def _locked(terminal: Terminal) -> int:
    """One line and exit status 3 when the terminal is locked up, else 0."""
    state = terminal.runtime.state
    locked = state.storage_full or state.critical
    if locked is not None:  # the terminal refused to play: say so in one line
        print(f"turbokiosk play: terminal locked: {locked}", file=sys.stderr)
        return EXIT_LOCKED
    return 0
