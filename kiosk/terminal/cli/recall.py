"""``turbokiosk recall [--data-dir DIR] [--last N] [--json]``: the last games, card by card."""

from __future__ import annotations

import argparse
import json

from kiosk.kernel.paths import add_data_dir_argument, data_dir_of
from kiosk.terminal.cli.args import int_type
from kiosk.terminal.store.journal import Journal
from kiosk.terminal.store.reader import current_state
from kiosk.terminal.textui.records import in_progress_record, named, recall_text, run_on_store

#: The most records a listing shows (a bound SQLite can take).
MAX_LAST = 1_000_000
#: ``--last N``: 1 to :data:`MAX_LAST`.
_positive = int_type(1, MAX_LAST)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    add_data_dir_argument(parser)
    parser.add_argument(
        "--last",
        type=_positive,
        default=10,
        metavar="N",
        help="how many games, newest first (default 10)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable (cents as ints)")


def run(args: argparse.Namespace) -> int:
    """Print the last games of the data directory's terminal (running or stopped)."""

    def show(journal: Journal) -> int:
        records = journal.recall(last=args.last)
        current = in_progress_record(current_state(journal).state)
        if args.json:
            out = {
                "in_progress": None if current is None else named(current),
                "games": [named(r) for r in records],
            }
            print(json.dumps(out, indent=2))
        else:
            print("\n".join(recall_text(records, current)).rstrip())
        return 0

    return run_on_store("recall", data_dir_of(args), show)
