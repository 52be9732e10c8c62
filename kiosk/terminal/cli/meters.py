"""``turbokiosk meters [--data-dir DIR] [--json]``: lifetime and period meters, read-only."""

from __future__ import annotations

import argparse
import json

from kiosk.kernel.paths import add_data_dir_argument, data_dir_of
from kiosk.terminal.store.journal import Journal
from kiosk.terminal.store.reader import created_at, current_state
from kiosk.terminal.textui.records import (
    meters_json,
    meters_text,
    period_meters_since,
    run_on_store,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    add_data_dir_argument(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable (cents as ints)")


def run(args: argparse.Namespace) -> int:
    """Print the meters of the data directory's terminal (running or stopped)."""
    data_dir = data_dir_of(args)

    def show(journal: Journal) -> int:
        view = current_state(journal)
        since = period_meters_since(journal, created_at(journal))
        if args.json:
            print(json.dumps(meters_json(view.state, view.seq, since), indent=2))
        else:
            print("\n".join(meters_text(view.state, view.seq, since, data_dir)))
        return 0

    return run_on_store("meters", data_dir, show)
