"""``--sas-port PATH --sas-address N [--sas-wakeup parity|gap|auto]`` for ``run`` and ``play``.

With ``--sas-port`` the terminal is also a SAS 6.02 gaming machine on that serial port
(docs/sas.md); the gRPC host link, when configured, runs beside it.
"""

from __future__ import annotations

import argparse
import os
import stat

from kiosk.terminal.cli.args import int_type
from kiosk.terminal.cli.guard import CommandLineError
from kiosk.terminal.sas.link import DEFAULT_TRANSFER_LIMIT, SasSettings
from kiosk.terminal.sas.wire import MAX_ADDRESS, MIN_ADDRESS


def add_sas_arguments(parser: argparse.ArgumentParser) -> None:
    """The SAS options, in a group of their own."""
    group = parser.add_argument_group("SAS", "the terminal as a SAS 6.02 gaming machine")
    group.add_argument("--sas-port", metavar="PATH", help="the SAS serial port (19,200 baud)")
    group.add_argument(
        "--sas-address",
        type=int_type(MIN_ADDRESS, MAX_ADDRESS),
        default=1,
        metavar="N",
        help="the SAS address of a new link, 1-127 (default 1; a technician's change in the "
        "service menu is kept and wins)",
    )
    group.add_argument(
        "--sas-asset",
        type=int_type(0, 0xFFFFFFFF),
        default=0,
        metavar="N",
        help="the AFT asset number (default: the SAS address)",
    )
    group.add_argument(
        "--sas-transfer-limit",
        type=int_type(1, 9_999_999_999),
        default=DEFAULT_TRANSFER_LIMIT,
        metavar="CENTS",
        help="the most one AFT transfer or legacy bonus may move, in cents (default 100000)",
    )
    group.add_argument(
        "--sas-wakeup",
        choices=("auto", "parity", "gap"),
        default="auto",
        help="how the wakeup bit is read: parity (a real UART), gap (a pty: decision 0026), "
        "auto (gap on a pty)",
    )


def sas_settings(args: argparse.Namespace) -> SasSettings | None:
    """The SAS settings the options give (None without --sas-port); CommandLineError for a
    port that is not a character device."""
    if args.sas_port is None:
        return None
    try:
        mode = os.stat(args.sas_port).st_mode
    except OSError as exc:
        raise CommandLineError(f"--sas-port {args.sas_port}: {exc.strerror}") from None
    if not stat.S_ISCHR(mode):
        raise CommandLineError(f"--sas-port {args.sas_port}: not a serial port")
    return SasSettings(
        port=args.sas_port,
        address=args.sas_address,
        wakeup=args.sas_wakeup,
        asset=args.sas_asset,
        transfer_limit=args.sas_transfer_limit,
    )
