"""``turbokiosk progressive ...``: the progressive controller of the table deployable.

    turbokiosk progressive serve --progressive NAME_OR_FILE [--listen ADDR] [--pki-dir DIR]
        [--cert-name table-progressive]
    turbokiosk progressive meters --progressive NAME_OR_FILE [--json]
    turbokiosk progressive reconcile --progressive NAME_OR_FILE --table ID=JOURNAL ...
    turbokiosk progressive retire --progressive NAME_OR_FILE --to NAME_OR_FILE --by OPERATOR
        [--reason TEXT] [--to-journal PATH]

``serve`` runs the meter of a linked progressive (``mode = "linked"``; docs/table.md
"Progressives") on its journal ``DATA_DIR/progressive-<name>.sqlite3`` (``--data-dir``, default
``var/table``), over mutual TLS with a table-controller certificate (``--cert-name``, default
``table-progressive``) of ``--pki-dir``; only table controllers may book, each under its own
certificate name.  Tables join with ``turbokiosk table serve --progressive NAME
--progressive-at ADDR``.  ``meters`` prints the meters from the journal (chain checked);
``reconcile`` checks every settled round of each table journal (``--table T1=PATH``, the
journal of table T1, booked as ``table-T1``) against the progressive's journal to the
micro-cent (exit 0 only when all reconcile).  ``--journal PATH`` names the meter's journal
instead (a table's own meter: ``DATA_DIR/progressive-<name>-<table id>.sqlite3``).
``retire`` (with the meter's controller stopped) moves the meter's whole liability (meter,
hidden and overflow) to the successor ``--to`` (its journal ``DATA_DIR/progressive-<to>.sqlite3``
or ``--to-journal``), journaled in both with the operator's name and reason (decision 0066);
the retired meter books nothing more.  Run again after an interruption, it finishes the same
transfer once.
"""

from __future__ import annotations

import argparse
import json
import signal
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.kernel.games import progressive
from kiosk.kernel.games.paytable import PaytableError
from kiosk.kernel.games.progressive import (
    MICRO,
    MeterState,
    ProgressiveError,
    ProgressiveSettings,
)
from kiosk.terminal.cli.args import check_bindable, listen_address
from kiosk.terminal.cli.guard import EXIT_LOCKED, CommandLineError
from kiosk.terminal.hostlink import pki
from kiosk.terminal.progressive.journal import BookedRound
from kiosk.terminal.store.faults import StoreError

if TYPE_CHECKING:
    from kiosk.terminal.progressive.controller import ProgressiveController

DEFAULT_LISTEN = "127.0.0.1:50081"


def table_journal(text: str) -> tuple[str, Path]:
    """``ID=PATH``: a table's id and its journal."""
    table, sep, path = text.partition("=")
    if not sep or not table or not path:
        raise argparse.ArgumentTypeError(f"{text!r}: --table wants ID=JOURNAL")
    return table, Path(path)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The sub-commands."""
    parser.add_argument("--data-dir", type=Path, default=Path("var/table"), metavar="DIR")
    parser.add_argument("--progressive", required=True, metavar="NAME_OR_FILE")
    parser.add_argument(
        "--journal",
        type=Path,
        default=None,
        metavar="PATH",
        help="the meter's journal (default DATA_DIR/progressive-<name>.sqlite3; a table's own "
        "meter: DATA_DIR/progressive-<name>-<table id>.sqlite3)",
    )
    sub = parser.add_subparsers(dest="progressive_command", metavar="COMMAND", required=True)
    serve = sub.add_parser("serve", help="serve a linked progressive until SIGTERM or Ctrl-C")
    serve.add_argument("--pki-dir", type=Path, default=Path("var/host/pki"), metavar="DIR")
    serve.add_argument("--cert-name", default="table-progressive")
    serve.add_argument("--listen", type=listen_address, default=DEFAULT_LISTEN)
    meters = sub.add_parser("meters", help="the meters, from the journal")
    meters.add_argument("--json", action="store_true", help="one JSON object")
    rec = sub.add_parser("reconcile", help="every table's settled rounds against the journal")
    rec.add_argument("--table", dest="tables", type=table_journal, action="append", required=True)
    retire = sub.add_parser("retire", help="move the meter's liability to a successor, retire it")
    retire.add_argument("--to", required=True, metavar="NAME_OR_FILE", help="the successor")
    retire.add_argument("--to-journal", type=Path, default=None, metavar="PATH")
    retire.add_argument("--by", required=True, metavar="OPERATOR")
    retire.add_argument("--reason", default="", metavar="TEXT")


def settings_of(args: argparse.Namespace) -> ProgressiveSettings:
    """The ``--progressive`` settings (one line when unusable)."""
    try:
        return progressive.load(args.progressive)
    except PaytableError as exc:
        raise CommandLineError(f"--progressive: {exc}") from exc


def journal_path(data_dir: Path, settings: ProgressiveSettings, suffix: str = "") -> Path:
    """``DATA_DIR/progressive-<name>[-<suffix>].sqlite3``."""
    tail = f"-{suffix}" if suffix else ""
    return Path(data_dir) / f"progressive-{settings.name}{tail}.sqlite3"


def run(args: argparse.Namespace) -> int:
    """Run the sub-command."""
    from kiosk.terminal.progressive.controller import ProgressiveController

    settings = settings_of(args)
    path = args.journal or journal_path(args.data_dir, settings)
    if args.progressive_command != "serve" and not path.is_file():
        raise CommandLineError(f"no progressive journal at {path}")
    if args.progressive_command == "serve":
        return _serve(args, settings, path)
    try:
        controller = ProgressiveController(settings, path)
    except StoreError as exc:
        raise CommandLineError(f"progressive {settings.name} locked: {exc}", EXIT_LOCKED) from exc
    try:
        if args.progressive_command == "meters":
            print(meters_text(settings, controller.meters(), as_json=args.json))
            return 0
        if args.progressive_command == "retire":
            return _retire(args, controller)
        return _reconcile(args, settings, controller.rounds())
    finally:
        controller.close()


def meters_text(settings: ProgressiveSettings, s: MeterState, *, as_json: bool = False) -> str:
    """The meters for people (or one JSON object)."""
    if as_json:
        return json.dumps({"name": settings.name, "meter_cents": s.meter_cents, **vars(s)})

    def cents(u: int) -> str:
        return f"{u / MICRO / 100:,.6f}"

    return "\n".join(
        (
            f"progressive {settings.name} ({settings.wager}: {settings.outcome})",
            f"  meter        {s.meter_cents / 100:,.2f}",
            f"  hidden       {cents(s.hidden)}",
            f"  overflow     {cents(s.overflow)}",
            f"  contributed  {cents(s.contributed)}  ({s.wagers} wagers)",
            f"  seeded       {cents(s.seeded)}",
            f"  paid         {s.paid_cents / 100:,.2f}  ({s.hits} hits)",
            *((f"  transferred in   {cents(s.transferred_in)}",) if s.transferred_in else ()),
            *((f"  transferred out  {cents(s.transferred_out)}",) if s.transferred_out else ()),
            *((f"  RETIRED to   {s.retired_to}",) if s.retired_to else ()),
            f"  balanced     {'yes' if s.balanced() else 'NO'}",
        )
    )


def _retire(args: argparse.Namespace, controller: ProgressiveController) -> int:
    from kiosk.terminal.progressive.controller import ProgressiveController

    if not args.by.strip():
        raise CommandLineError("--by: name the operator who retires the meter")
    try:
        successor_settings = progressive.load(args.to)
    except PaytableError as exc:
        raise CommandLineError(f"--to: {exc}") from exc
    if successor_settings.name == controller.settings.name:
        raise CommandLineError("--to: a meter is retired to another progressive, not itself")
    path = args.to_journal or journal_path(args.data_dir, successor_settings)
    try:
        successor = ProgressiveController(successor_settings, path)
    except StoreError as exc:
        raise CommandLineError(f"--to: progressive {successor_settings.name}: {exc}") from exc
    try:
        out, incoming = controller.retire_to(successor, args.by, args.reason)
    except ProgressiveError as exc:
        raise CommandLineError(f"retire: {exc}") from exc
    except StoreError as exc:
        raise CommandLineError(f"retire: {exc}", EXIT_LOCKED) from exc
    finally:
        after = successor.meters()
        successor.close()
    print(
        f"progressive {out.retired} retired to {out.successor} by {out.by}: "
        f"{out.total / MICRO / 100:,.6f} moved (meter {incoming.to_meter / MICRO / 100:,.6f}, "
        f"hidden {incoming.to_hidden / MICRO / 100:,.6f}, "
        f"overflow {incoming.to_overflow / MICRO / 100:,.6f}); "
        f"{out.successor} shows {after.meter_cents / 100:,.2f}"
    )
    return 0


def _serve(args: argparse.Namespace, settings: ProgressiveSettings, path: Path) -> int:
    from kiosk.table.progressive import server
    from kiosk.terminal.progressive.controller import ProgressiveController

    try:
        creds = pki.credentials(args.pki_dir, args.cert_name)
    except pki.PkiError as exc:
        raise CommandLineError(f"--pki-dir: {exc}") from exc
    check_bindable(args.listen)
    Path(args.data_dir).mkdir(parents=True, exist_ok=True)
    try:
        controller = ProgressiveController(settings, path)
    except StoreError as exc:
        raise CommandLineError(f"progressive {settings.name} locked: {exc}", EXIT_LOCKED) from exc
    running, address = server.serve(controller, args.listen, creds)

    def stop(_signum: int, _frame: object) -> None:
        running.stop(0.5)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"progressive {settings.name}: serving on {address}", flush=True)
    running.wait_for_termination()
    controller.close()
    print(f"progressive {settings.name}: stopped", flush=True)
    return 0


def _reconcile(
    args: argparse.Namespace, settings: ProgressiveSettings, booked: list[BookedRound]
) -> int:
    from kiosk.table.core.journal import TableJournal
    from kiosk.table.progressive.feed import reconcile

    tables = {}
    for table, path in args.tables:
        try:
            journal = TableJournal(path, table, readonly=True)
        except StoreError as exc:
            raise CommandLineError(f"--table {table}={path}: {exc}") from exc
        try:
            tables[f"table-{table}"] = list(journal.events())
        finally:
            journal.close()
    books = reconcile(settings, tables, booked)
    for book in books:
        print(book.line())
    return 0 if all(book.balanced for book in books) else 1
