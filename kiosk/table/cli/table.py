"""``turbokiosk table ...``: the table controller (docs/table.md).

    turbokiosk table serve --edition stadium-3cp [--mode one-deck|seat-shuffles] [--auto-deal S]
        [--card-source virtual|shuffler|manual] [--shuffler-port PATH] [--shuffler-key FILE]
    turbokiosk table recall GAME
    turbokiosk table meters [--json]
    turbokiosk table audit [--signer PATH] [--seat N=DIR ...] [--edition E --mode M]

``serve`` runs the controller of table ``--table-id`` (default ``T1``) on its journal
``DATA_DIR/table-<id>.sqlite3`` (``--data-dir``, default ``var/table``), over mutual TLS with the CA
certificate and the table controller's own certificate ``--cert-name`` (default ``table-<id>``, the
table-controller role; never the host's) of ``--pki-dir`` (default ``var/host/pki``, from
``turbokiosk host init-ca``/``issue-cert``); seats hold certificates named ``seat-<n>`` with the
seat role (decision 0035).  ``--robots N`` issues what is missing (the controller's and the robots'
certificates) with the CA that issued ``--pki-dir``'s CA certificate (``--ca-dir``, else beside the
host's directory): never a second CA.  Without a dealer terminal, ``--auto-deal S`` opens a round S
seconds after the last one ended and confirms a settled one after S seconds.  Dealer Terminals
connect to the same address with certificates named ``dealer-<n>`` (``DealerService``).  The cards
come from ``--card-source``: the certified deck (``virtual``), a card-reading shuffler on
``--shuffler-port`` paired with ``--shuffler-key`` (``shuffler``), or the dealer's entries
(``manual``, which needs a Dealer Terminal: no ``--auto-deal``).  ``recall`` prints a finished
round's record from the journal.

The journal's heads are signed by the table's own signer (decision 0036, ``--signer PATH`` or
``$TURBOKIOSK_TABLE_SIGNER``; else the development signer in ``DATA_DIR.signer/table-<id>``):
``serve`` refuses a journal that fails its verification (exit 3, one line), ``recall`` and
``meters`` show only a verified journal, and ``audit`` verifies it and reconciles each seat's
journal (``--seat N=DIR``: seat N's data directory) round by round (exit 0 only when all holds).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.kernel.games.base import RuleError
from kiosk.table.cli.table_audit import journal_path as journal_path
from kiosk.terminal.cli.args import check_bindable, float_type, int_type, listen_address
from kiosk.terminal.cli.guard import EXIT_LOCKED, CommandLineError
from kiosk.terminal.cli.seat_args import table_id
from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.identity import IdentityError, Role, check_name, seat_name, table_name
from kiosk.terminal.hostlink.tls_log import HandshakeLog

if TYPE_CHECKING:
    from collections.abc import Sequence

    from kiosk.table.core.controller import TableController
    from kiosk.table.core.server import TableServer
    from kiosk.table.core.shuffler_feed import ShufflerFeed
    from kiosk.table.progressive.feed import TableFeed

DEFAULT_LISTEN = "127.0.0.1:50071"
SECONDS = float_type(0.1, 3600)


def game_number(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) < 2**63:
        raise argparse.ArgumentTypeError(f"{text!r}: a game number is 1 or more")
    return int(text)


def seat_data(text: str) -> tuple[int, Path]:
    """``N=DIR``: seat N's data directory."""
    number, sep, directory = text.partition("=")
    if not sep or not number.isdigit() or not directory:
        raise argparse.ArgumentTypeError(f"{text!r}: N=DIR, seat N's data directory")
    return int(number), Path(directory)


def _signer_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--signer",
        dest="table_signer",
        type=Path,
        default=None,
        metavar="PATH",
        help="the table signer's socket (default $TURBOKIOSK_TABLE_SIGNER, else the "
        "development signer in DATA_DIR.signer/table-ID)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The sub-commands."""
    parser.add_argument("--table-id", type=table_id, default="T1")
    parser.add_argument("--data-dir", type=Path, default=Path("var/table"), metavar="DIR")
    sub = parser.add_subparsers(dest="table_command", metavar="COMMAND", required=True)
    serve = sub.add_parser("serve", help="run the table controller until SIGTERM or Ctrl-C")
    serve.add_argument("--edition", required=True, help="the game (an edition id)")
    _signer_option(serve)
    serve.add_argument("--mode", choices=("one-deck", "seat-shuffles"), default="one-deck")
    serve.add_argument("--pki-dir", type=Path, default=Path("var/host/pki"), metavar="DIR")
    serve.add_argument(
        "--cert-name",
        default=None,
        help="the controller's certificate (default table-<table id>: its own, not the host's)",
    )
    serve.add_argument(
        "--ca-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="--robots: the CA that issued --pki-dir's (default $TURBOKIOSK_CA_DIR or beside)",
    )
    serve.add_argument("--listen", type=listen_address, default=DEFAULT_LISTEN)
    serve.add_argument("--betting-seconds", type=SECONDS, default=15.0)
    serve.add_argument("--decision-seconds", type=SECONDS, default=10.0)
    serve.add_argument("--auto-deal", type=SECONDS, default=None, metavar="SECONDS")
    serve.add_argument(
        "--robots",
        type=int_type(0, 200),
        default=0,
        metavar="N",
        help="seat N robot seats (seat-0..seat-N-1, certificates issued by the CA tooling)",
    )
    serve.add_argument(
        "--card-source", choices=("virtual", "shuffler", "manual"), default="virtual"
    )
    serve.add_argument("--shuffler-port", metavar="PATH", help="the shuffler's serial port")
    serve.add_argument(
        "--shuffler-key",
        type=Path,
        metavar="FILE",
        help="the shuffler's pairing key (default /etc/turbokiosk/devices/shuffler.key)",
    )
    _progressive_options(serve)
    recall = sub.add_parser("recall", help="a finished round: every seat's wagers, cards, result")
    recall.add_argument("game", type=game_number)
    _signer_option(recall)
    meters = sub.add_parser("meters", help="the table's meters, and every seat's, from its journal")
    meters.add_argument("--json", action="store_true", help="one JSON object")
    _signer_option(meters)
    audit = sub.add_parser(
        "audit", help="verify the signed journal; reconcile each seat's journal round by round"
    )
    _signer_option(audit)
    audit.add_argument(
        "--seat",
        dest="seats",
        type=seat_data,
        action="append",
        default=[],
        metavar="N=DIR",
        help="seat N's data directory (repeat for every seat)",
    )
    audit.add_argument(
        "--edition", dest="replay_edition", help="the game to replay with (default: the journal's)"
    )
    audit.add_argument("--mode", dest="replay_mode", choices=("one-deck", "seat-shuffles"))
    parser.set_defaults(replay_edition=None, replay_mode=None)


def _progressive_options(serve: argparse.ArgumentParser) -> None:
    """``--progressive`` (docs/table.md "Progressives")."""
    serve.add_argument(
        "--progressive",
        metavar="NAME_OR_FILE",
        help="a progressive on a side wager: this table's own meter for its seats, or with "
        "--progressive-at the linked progressive controller's",
    )
    serve.add_argument("--progressive-at", metavar="ADDR", help="the progressive controller")
    serve.add_argument(
        "--handpay-limit",
        type=int_type(1, 10**11),
        default=120_000,
        metavar="CENTS",
        help="a progressive hit at or above this is paid by the attendant (default 120000)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the sub-command."""
    if args.table_command == "serve":
        return _serve(args)
    if args.table_command == "meters":
        return _meters(args)
    if args.table_command == "audit":
        from kiosk.table.cli.table_audit import audit

        return audit(args)
    return _recall(args)


def _serve(args: argparse.Namespace) -> int:
    from kiosk.table.core.controller import TableController
    from kiosk.table.core.core import CardSource, DealMode, TableConfig, TableConfigError
    from kiosk.table.core.record import TableRecordError, table_signer
    from kiosk.table.core.robot import RobotSeat
    from kiosk.table.core.server import TableServer
    from kiosk.terminal.runtime.deck import RngDeckFactory
    from rng import Csprng

    config = TableConfig(
        args.table_id,
        args.edition,
        mode=DealMode(args.mode),
        betting_ms=round(args.betting_seconds * 1000),
        decision_ms=round(args.decision_seconds * 1000),
        card_source=CardSource(args.card_source),
    )
    feed = _shuffler_feed(args)
    cert_name = _controller_name(args)
    robot_names = tuple(seat_name(n) for n in range(args.robots))
    if robot_names:
        try:
            pki.ensure_pki(args.pki_dir, (cert_name, *robot_names), None, _ca_dir(args))
        except (pki.PkiError, OSError) as exc:
            raise CommandLineError(f"--robots: cannot issue the certificates: {exc}") from exc
    try:
        creds = pki.credentials(args.pki_dir, cert_name)
    except pki.PkiError as exc:
        raise CommandLineError(
            f"--pki-dir: {exc} (the controller's own certificate: 'turbokiosk host issue-cert"
            f" {cert_name}')"
        ) from exc
    check_bindable(args.listen)
    rng = Csprng()
    if rng.failure is not None:
        raise CommandLineError(f"the RNG failed its self-tests: {rng.failure}", 3)
    Path(args.data_dir).mkdir(parents=True, exist_ok=True)
    signer = table_signer(args.data_dir, args.table_id, args.table_signer)
    try:
        controller = TableController(config, journal_path(args), RngDeckFactory(rng), signer)
    except (RuleError, TableConfigError) as exc:
        raise CommandLineError(f"--edition {args.edition}: {exc}") from exc
    except TableRecordError as exc:
        raise CommandLineError(f"table {args.table_id} locked: {exc}", EXIT_LOCKED) from exc
    for action in controller.recovery.actions:
        print(f"table {args.table_id}: {action}", flush=True)
    auto = None if args.auto_deal is None else round(args.auto_deal * 1000)
    server = TableServer(controller, creds, args.listen, auto_deal_ms=auto, card_feed=feed)
    progressive_feed = _progressive_feed(args, controller, creds, cert_name, server)
    if progressive_feed is not None:
        server.progressive = progressive_feed.shown
    server.start()
    robots = [
        RobotSeat(
            server.address, pki.credentials(args.pki_dir, name), args.table_id, n, args.edition
        )
        for n, name in enumerate(robot_names)
    ]

    def stop(_signum: int, _frame: object) -> None:
        server.server.stop(0.5)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    HandshakeLog(f"table {args.table_id}").install()  # a refused handshake: one line
    print(f"table {args.table_id}: serving on {server.address}", flush=True)
    server.server.wait_for_termination()
    for robot in robots:
        print(robot.summary(), flush=True)
        robot.close()
    server.stop(0)
    if progressive_feed is not None and not progressive_feed.stop():
        print(f"table {args.table_id}: progressive rounds wait to be booked", flush=True)
    controller.close()
    if server.locked is not None:
        raise CommandLineError(f"table {args.table_id} locked: {server.locked}", EXIT_LOCKED)
    print(f"table {args.table_id}: stopped", flush=True)
    return 0


def _progressive_feed(
    args: argparse.Namespace,
    controller: TableController,
    creds: pki.Credentials,
    source: str,
    server: TableServer,
) -> TableFeed | None:
    """The feed of this table's settled rounds to its progressive (None: no progressive); the
    hits it books are sent to their seats by ``server`` (decision 0066)."""
    if args.progressive is None:
        if args.progressive_at is not None:
            raise CommandLineError("--progressive-at needs --progressive NAME_OR_FILE")
        return None
    from kiosk.kernel.games import progressive
    from kiosk.kernel.games.paytable import PaytableError
    from kiosk.table.progressive.client import ProgressiveUnavailableError, RemoteProgressive
    from kiosk.table.progressive.feed import TableFeed
    from kiosk.terminal.progressive.controller import ProgressiveBook, ProgressiveController
    from kiosk.terminal.progressive.journal import BookedRound

    try:
        settings = progressive.load(args.progressive)
    except PaytableError as exc:
        raise CommandLineError(f"--progressive: {exc}") from exc
    book: ProgressiveBook
    if args.progressive_at is None:
        path = Path(args.data_dir) / f"progressive-{settings.name}-{args.table_id}.sqlite3"
        book = ProgressiveController(settings, path)
    else:
        book = RemoteProgressive(args.progressive_at, creds, source)

    def hits(rows: Sequence[BookedRound]) -> None:
        for row in rows:
            server.offer_hits(settings.name, settings.outcome, row.hits, source)

    feed = TableFeed(book, source, settings, args.handpay_limit, hits)
    if isinstance(book, ProgressiveController):  # its own journal: every hit it ever booked
        hits(book.rounds())
    feed.start()
    events = list(controller.journal.events())
    try:
        feed.catch_up(events)
    except ProgressiveUnavailableError:  # booked again from the start: idempotent
        feed.after(events)
    controller.hooks.append(feed.after)
    print(f"table {args.table_id}: progressive {settings.name} ({settings.mode.value})", flush=True)
    return feed


def _controller_name(args: argparse.Namespace) -> str:
    """``--cert-name`` (a table controller's name), else ``table-<table id>``."""
    name: str = args.cert_name or table_name(args.table_id)
    try:
        check_name(Role.TABLE, name)
    except IdentityError as exc:
        raise CommandLineError(f"--cert-name: {exc}") from exc
    return name


def _ca_dir(args: argparse.Namespace) -> Path:
    """``--ca-dir``, else ``$TURBOKIOSK_CA_DIR``, else the CA that issued ``--pki-dir``'s
    certificate, else where ``host init-ca`` would make it (beside the host's directory)."""
    if args.ca_dir is not None:
        return Path(args.ca_dir)
    env = os.environ.get("TURBOKIOSK_CA_DIR", "").strip()
    if env:
        return Path(env)
    pki_dir = Path(args.pki_dir)
    return pki.find_ca(pki_dir) or pki.ca_dir_candidates(pki_dir)[0]


def _shuffler_feed(args: argparse.Namespace) -> ShufflerFeed | None:
    """The shuffler's link for ``--card-source shuffler`` (its options checked first)."""
    from kiosk.table.core.shuffler_feed import ShufflerFeed
    from kiosk.terminal.devices.pairing import (
        DEFAULT_KEY_DIR,
        PairingKeyError,
        key_path,
        load_pairing_key,
    )

    source = args.card_source
    if source != "shuffler":
        if args.shuffler_port or args.shuffler_key:
            raise CommandLineError(f"--shuffler-port/--shuffler-key: the cards are {source}")
        if source == "manual" and args.auto_deal is not None:
            raise CommandLineError("--auto-deal: manual cards are entered by a dealer")
        return None
    if not args.shuffler_port:
        raise CommandLineError("--card-source shuffler needs --shuffler-port PATH")
    try:
        key = load_pairing_key(args.shuffler_key or key_path(DEFAULT_KEY_DIR, "shuffler"))
    except PairingKeyError as exc:
        raise CommandLineError(f"--shuffler-key: {exc}") from exc
    return ShufflerFeed(args.shuffler_port, key)


def _recall(args: argparse.Namespace) -> int:
    from kiosk.table.cli.table_audit import verified

    journal = verified(args)
    try:
        record = journal.recall(args.game)
    finally:
        journal.close()
    if record is None:
        raise CommandLineError(f"game {args.game} is not a finished round of {args.table_id}")
    print(json.dumps(dataclasses.asdict(record), indent=2, sort_keys=True))
    return 0


def _meters(args: argparse.Namespace) -> int:
    from kiosk.table.cli.table_audit import verified
    from kiosk.table.core.meters import table_meters

    journal = verified(args)
    try:
        books = table_meters(journal.events())
    finally:
        journal.close()
    if args.json:
        print(json.dumps(dataclasses.asdict(books), indent=2, sort_keys=True))
        return 0
    print(f"table {args.table_id}")
    for name, value in dataclasses.asdict(books.table).items():
        print(f"  {name:<14} {value}")
    for seat, m in sorted(books.seats.items()):
        print(
            f"  seat {seat}: rounds {m.rounds} wagered {m.wagered} paid {m.paid} "
            f"voided {m.voided_rounds} returned {m.returned}"
        )
    return 0
