"""``turbokiosk events [--data-dir DIR] [--kind KIND ...] [--last N] [--json]``: the event log.

Power, integrity, configuration, money, handpays, tilts, doors, host enable and service
events, newest first.  The game rounds themselves are in ``turbokiosk recall``.
"""

from __future__ import annotations

import argparse
import json

from kiosk.kernel.paths import add_data_dir_argument, data_dir_of
from kiosk.terminal.cli.recall import _positive
from kiosk.terminal.store.journal import LOGGED_KINDS, Journal
from kiosk.terminal.textui.records import events_json, events_text, run_on_store


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    add_data_dir_argument(parser)
    parser.add_argument(
        "--kind",
        action="append",
        default=[],
        choices=sorted(LOGGED_KINDS),
        metavar="KIND",
        help="only events of this kind (repeatable): " + ", ".join(sorted(LOGGED_KINDS)),
    )
    parser.add_argument(
        "--last",
        type=_positive,
        default=50,
        metavar="N",
        help="how many events, newest first (default 50)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable (cents as ints)")


def run(args: argparse.Namespace) -> int:
    """Print the event log of the data directory's terminal (running or stopped)."""

    def show(journal: Journal) -> int:
        rows = journal.event_log(kinds=args.kind or None, last=args.last)
        if args.json:
            print(json.dumps(events_json(rows), indent=2))
        else:
            print("\n".join(events_text(rows)))
        return 0

    return run_on_store("events", data_dir_of(args), show)
