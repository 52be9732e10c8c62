"""The ``turbokiosk`` command line.

Each sub-command lives in its own module, which provides ``add_arguments(parser)`` and
``run(args) -> int``.  Modules are imported only when their command runs, so a technician's
``turbokiosk meters`` never pays for importing Kivy.

Errors follow one contract (:mod:`kiosk.terminal.cli.guard`, decision 0011): one line on standard
error and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from kiosk import __version__

if TYPE_CHECKING:  # the protocol lives with the commands; importing it here would load them
    from kiosk.terminal.cli.args import CommandModule

# command name -> (module providing add_arguments/run, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "par-sheet": ("kiosk.tools.cli.par_sheet", "exact par sheet of an edition"),
    "simulate": ("kiosk.tools.cli.simulate", "simulate games to confirm the par sheet"),
    "rng": ("kiosk.terminal.cli.rng", "RNG evidence: raw output dump, dealt decks, self-tests"),
    "play": ("kiosk.terminal.cli.play", "play the full game in a terminal (text)"),
    "meters": ("kiosk.terminal.cli.meters", "the terminal's lifetime and period meters"),
    "recall": ("kiosk.terminal.cli.recall", "the last games, card by card"),
    "events": ("kiosk.terminal.cli.events", "the event log, newest first"),
    "audit": ("kiosk.terminal.cli.audit", "verify the journal and the meters (exit 0 iff ok)"),
    "soak": ("kiosk.tools.cli.soak", "robot play with invariant checks after every game"),
    "sim": (
        "kiosk.tools.cli.sim",
        "simulated bill validator, printer and shuffler on a serial port",
    ),
    "bridge": (
        "kiosk.terminal.cli.bridge",
        "a real bill validator or printer behind the device link",
    ),
    "devices": (
        "kiosk.terminal.cli.devices",
        "pair a bill validator or printer with this terminal",
    ),
    "run": ("kiosk.terminal.cli.run", "the touchscreen kiosk (simulated devices by default)"),
    "screenshots": ("kiosk.tools.cli.screenshots", "screenshots of every screen at both sizes"),
    "service": (
        "kiosk.terminal.cli.service",
        "service menu for attendants, technicians and operators",
    ),
    "host": (
        "kiosk.host.cli.host",
        "the accounting host: CA, certificates, serve, records, commands",
    ),
    "software": ("kiosk.terminal.cli.software", "software signature, manifest and seeded HMAC"),
    "signer": (
        "kiosk.terminal.cli.signer",
        "the terminal's signer: key, anchor, Unix socket server",
    ),
    "table": (
        "kiosk.table.cli.table",
        "the table controller: serve a multi-seat table, its recall",
    ),
    "lab-package": ("kiosk.tools.cli.lab_package", "the test laboratory's submission bundle"),
    "sas": ("kiosk.host.cli.sas", "SAS 6.02: the host tool that polls a gaming machine"),
    "dealer": ("kiosk.table.cli.dealer", "the Dealer Terminal of a table (Kivy touchscreen)"),
    "progressive": (
        "kiosk.table.cli.progressive",
        "a linked table progressive's controller, its meters and reconciliation",
    ),
    "seat": (
        "kiosk.terminal.cli.seat",
        "a terminal seated at a table, played headless (tests, soak)",
    ),
}


#: the extra that installs each deployable's commands (a plain install is the terminal)
EXTRAS = {"kiosk.table.": "table", "kiosk.host.": "host", "kiosk.tools.": "lab"}


def _load(name: str) -> CommandModule:
    """The command's module; one line naming the extra when its deployable is not installed."""
    module = COMMANDS[name][0]
    try:
        return cast("CommandModule", importlib.import_module(module))
    except ModuleNotFoundError as exc:
        if exc.name is None or not module.startswith(exc.name):
            raise
        from kiosk.terminal.cli.guard import CommandLineError

        extra = next((e for prefix, e in EXTRAS.items() if module.startswith(prefix)), None)
        hint = f" (pip install turbokiosk[{extra}])" if extra else ""
        raise CommandLineError(f"{name}: not installed on this machine{hint}") from None


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The top-level parser (its errors one line); only the sub-command named is imported."""
    from kiosk.terminal.cli.guard import OneLineParser

    parser = OneLineParser(prog="turbokiosk", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"turbokiosk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    wanted = next((a for a in argv if not a.startswith("-")), None)
    for name, (_module, help_text) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        if name == wanted:
            _load(name).add_arguments(command_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``turbokiosk`` console script: :func:`_main` under the error contract."""
    from kiosk.terminal.cli.guard import run_guarded

    return run_guarded("turbokiosk", lambda: _main(argv))


def _main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``turbokiosk`` console script."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(args_list).parse_args(args_list)
    if getattr(args, "signer", None) is not None:  # --signer PATH: the signer program's socket
        from kiosk.terminal.signer.client import configure

        configure(args.signer)
    try:
        return _load(args.command).run(args)
    except BrokenPipeError:  # output piped into `head` and the like
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
