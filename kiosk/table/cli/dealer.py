"""``turbokiosk dealer --table ADDR``: the Dealer Terminal (docs/table.md, "The Dealer
Terminal").

The DT is a client of its table controller's ``DealerService`` over mutual TLS with its own
certificate ``dealer-<n>`` (``turbokiosk host issue-cert dealer-1``; ``--pki-dir``, default
``var/host/pki``, as ``table serve``).  It opens a window (1280x800 by default; 1920x1080 is the
other size it is laid out for), says so in one line, and runs until the window closes or
Ctrl-C (status 130).  With no display it refuses to start, as ``turbokiosk run`` does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kiosk.kernel.interrupts import AppInterrupt
from kiosk.terminal.cli.args import peer_address
from kiosk.terminal.cli.guard import EXIT_FAILED, EXIT_INTERRUPTED, CommandLineError
from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.identity import NAME_FORMS, Role


def dealer_name(text: str) -> str:
    """A Dealer Terminal's certificate name in its one canonical form (``dealer-1``)."""
    if not NAME_FORMS[Role.DEALER].fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text!r}: a Dealer Terminal is named dealer-<n> (n without leading zeros)"
        )
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    parser.add_argument(
        "--table", type=peer_address, required=True, metavar="HOST:PORT", help="the controller"
    )
    parser.add_argument("--pki-dir", type=Path, default=Path("var/host/pki"), metavar="DIR")
    parser.add_argument("--cert-name", type=dealer_name, default="dealer-1")
    parser.add_argument("--size", default="1280x800", metavar="WxH")
    parser.add_argument("--fullscreen", action="store_true", help="fill the display")


def run(args: argparse.Namespace) -> int:
    """Run the Dealer Terminal until its window closes (Ctrl-C: 130)."""
    with AppInterrupt() as interrupt:
        code = _run(args, interrupt)
    if interrupt.requested:
        raise CommandLineError(
            "interrupted (Ctrl-C): the Dealer Terminal stopped", EXIT_INTERRUPTED
        )
    return code


def _run(args: argparse.Namespace, interrupt: AppInterrupt) -> int:
    from kiosk.terminal.cli.run import check_display
    from ui.terminal import env

    try:
        size = env.parse_size(args.size)
    except ValueError as exc:
        raise CommandLineError(f"--size: {exc}") from None
    try:
        credentials = pki.credentials(args.pki_dir, args.cert_name)
    except pki.PkiError as exc:
        raise CommandLineError(f"--pki-dir: {exc}") from None
    where = check_display()
    env.prepare(size, fullscreen=args.fullscreen)
    from ui.terminal.display import DisplayError, open_window

    try:
        window = open_window(where)
    except DisplayError as exc:
        raise CommandLineError(str(exc), EXIT_FAILED) from None
    from kiosk.table.core.dealer_link import DealerLink
    from ui.table.app import DealerApp

    print(
        f"turbokiosk dealer: window {window[0]}x{window[1]} on {where}; table {args.table} as "
        f"{args.cert_name}; Ctrl-C here or close the window to stop",
        flush=True,
    )
    link = DealerLink(args.table, credentials)
    interrupt.arm()
    try:
        if not interrupt.requested:
            DealerApp(link).run()
    finally:
        link.close()
    if link.down and not interrupt.requested:
        print(f"turbokiosk dealer: {link.down}", file=sys.stderr, flush=True)
    return 0
