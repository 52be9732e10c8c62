"""``turbokiosk sas ...``: SAS 6.02 tools.

    turbokiosk sas host --port /dev/ttyUSB0 --address 1 --sweep          # read every meter
    turbokiosk sas host --port P --address 1 --disable                     # shut the machine down
    turbokiosk sas host --port P --address 1 --follow --tickets t.sqlite3  # a casino system

Each action lives in its own module (``SUBCOMMANDS``), imported only when it runs.
"""

from __future__ import annotations

import argparse
import importlib
from typing import cast

from kiosk.terminal.cli.args import CommandModule

#: action -> (module providing add_arguments/run, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "host": ("kiosk.host.cli.sas_host", "poll a gaming machine like a casino system"),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The actions and, for the one named, its arguments."""
    sub = parser.add_subparsers(dest="sas_command", metavar="ACTION", required=True)
    for name, (module, help_text) in SUBCOMMANDS.items():
        action = sub.add_parser(name, help=help_text, description=help_text)
        cast(CommandModule, importlib.import_module(module)).add_arguments(action)


def run(args: argparse.Namespace) -> int:
    """Run the action named."""
    module = SUBCOMMANDS[args.sas_command][0]
    return cast(CommandModule, importlib.import_module(module)).run(args)
