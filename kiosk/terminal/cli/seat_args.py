"""The ``--table ADDR`` arguments of ``turbokiosk run`` and ``play`` (a terminal as a seat)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from kiosk.terminal.cli.args import int_type
from kiosk.terminal.cli.guard import CommandLineError
from kiosk.terminal.hostlink import pki
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.seat.client import SeatClient
from kiosk.terminal.seat.runtime import SeatRuntime, TableSeating

_TABLE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")


def table_id(text: str) -> str:
    """A table's id (``--table-id``, the seat's and the controller's): 1 to 32 characters."""
    if not _TABLE_ID.match(text):
        raise argparse.ArgumentTypeError(f"{text!r}: 1 to 32 letters, digits, '.', '_' or '-'")
    return text


def table_address(text: str) -> str:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r}: the table's HOST:PORT")
    return text


def add_table_arguments(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    group = parser.add_argument_group("a seat of a table (docs/table.md)")
    group.add_argument(
        "--table",
        type=table_address,
        default=None,
        required=required,
        metavar="ADDR",
        help="sit at the table controller at HOST:PORT (money stays on this terminal)",
    )
    group.add_argument("--table-id", type=table_id, default="T1")
    group.add_argument("--seat", type=int_type(0, 10_000), default=None, metavar="N")
    group.add_argument(
        "--table-pki-dir",
        type=Path,
        default=Path("var/host/pki"),
        metavar="DIR",
        help="where the seat's certificate seat-N and the CA certificate are",
    )


def seat_at_table(runtime: TerminalRuntime, args: argparse.Namespace) -> SeatRuntime:
    """The terminal seated at ``--table`` (after its power-up)."""
    if args.seat is None:
        raise CommandLineError("--table needs --seat N (the seat's certificate is seat-N)")
    try:
        creds = pki.credentials(args.table_pki_dir, f"seat-{args.seat}")
    except pki.PkiError as exc:
        raise CommandLineError(f"--table-pki-dir: {exc}") from exc
    address = args.table
    return SeatRuntime(
        runtime,
        args.table_id,
        args.seat,
        connect=lambda join: SeatClient(address, creds, join).start(),
    )


def table_seating(args: argparse.Namespace) -> TableSeating | None:
    """Where ``run --table`` seats the terminal (None without ``--table``); the certificate is
    checked here, so a missing one is one line and exit 2 before any window opens."""
    if args.table is None:
        return None
    if args.seat is None:
        raise CommandLineError("--table needs --seat N (the seat's certificate is seat-N)")
    try:
        pki.credentials(args.table_pki_dir, f"seat-{args.seat}")
    except pki.PkiError as exc:
        raise CommandLineError(f"--table-pki-dir: {exc}") from exc
    return TableSeating(args.table, args.table_id, args.seat, args.table_pki_dir)
