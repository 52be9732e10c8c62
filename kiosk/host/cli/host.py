"""``turbokiosk host ...``: the reference accounting host and its records.

    turbokiosk host init-ca                       # a CA in CA_DIR, its certificate in HOST_DIR/pki
    turbokiosk host issue-cert TK-0001            # a terminal certificate (--server: the host's)
    turbokiosk host check-credentials --ca C --cert T --key K   # before a terminal gets them
    turbokiosk host serve [--listen ADDR]         # run the host (SQLite, or --db postgresql://...)
    turbokiosk host terminals enroll|retire TK-0001   # the registry: whom the host serves
    turbokiosk host terminals [list]|meters|events|vouchers [--json]
    turbokiosk host vouchers release 123456789012345678 --reason "terminal replaced"
    turbokiosk host vouchers audit [--alarms]     # releases, late reports, double redemptions
    turbokiosk host alarms [--terminal T]         # RAM clears, meters backwards, stores behind
    turbokiosk host send TK-0001 disable --reason "count room"   # a command to a terminal
    turbokiosk host send TK-0001 confirm-records --tilt printer_reconcile --operator ann

``HOST_DIR`` is ``--host-dir``, else ``$TURBOKIOSK_HOST_DIR``, else ``var/host``; the records are
``HOST_DIR/host.sqlite3`` unless ``--db`` names another SQLite file or a PostgreSQL URL.
``CA_DIR`` (the CA's private key, never read by ``serve``) is ``--ca-dir``, else
``$TURBOKIOSK_CA_DIR``, else ``HOST_DIR`` with ``-ca`` appended (``var/host-ca``).
"""

from __future__ import annotations

import argparse
import getpass
import json
import logging
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kiosk.host.accounting import gc_tuning
from kiosk.host.accounting.bounds import BoundsError, Limits
from kiosk.host.accounting.db import (
    RELEASE_QUIET_MINUTES,
    VOUCHER_STATES,
    HostDb,
    HostDbError,
    now_ms,
    open_db,
)
from kiosk.host.accounting.group_commit import SERVE_GATHER_MS
from kiosk.host.accounting.rate_limit import RateLimitError, RateLimits
from kiosk.host.accounting.records import CommandState
from kiosk.host.cli import host_web
from kiosk.host.cli.host_processes import fixed_address, refuse_unsafe, supervise
from kiosk.host.cli.host_records import connect as connect
from kiosk.host.cli.host_records import opened as opened
from kiosk.host.cli.host_records import redacted as redacted
from kiosk.kernel.money_text import dollars
from kiosk.kernel.time_text import local_stamp as when
from kiosk.terminal.cli.args import check_bindable, float_type, int_type, listen_address
from kiosk.terminal.cli.guard import CommandLineError
from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.command_kinds import HostCommandKind
from kiosk.terminal.hostlink.identity import IdentityError, Role, check_name

if TYPE_CHECKING:
    from kiosk.host.accounting.server import HostSettings

HOST_DIR_ENV = "TURBOKIOSK_HOST_DIR"
CA_DIR_ENV = "TURBOKIOSK_CA_DIR"
#: the ``host send`` actions and the command kind each queues
SEND_KINDS = {
    "enable": HostCommandKind.SET_ENABLED,
    "disable": HostCommandKind.SET_ENABLED,
    "meters": HostCommandKind.REQUEST_METERS,
    "authenticate": HostCommandKind.AUTHENTICATE_SOFTWARE,
    "set-time": HostCommandKind.SET_TIME,
    "message": HostCommandKind.PLAYER_MESSAGE,
    "confirm-records": HostCommandKind.CONFIRM_DEVICE_RECORDS,
}


#: Certificate validity: a day to a hundred years.
DAYS = int_type(1, 36_500)
#: How many records a listing shows.
MAX_COUNT = 1_000_000
COUNT = int_type(1, MAX_COUNT)
#: RPC threads of ``host serve``.
MAX_WORKERS = 10_000
#: A terminal id or certificate name: it names files in the PKI directory.
_CERT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


T = TypeVar("T")


def certificate_name(text: str) -> str:
    """A terminal id or certificate name (letters, digits, ``.``, ``_``, ``-``; no path)."""
    if not _CERT_NAME.match(text):
        raise argparse.ArgumentTypeError(
            f"{text!r}: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    return text


def terminal_name(text: str) -> str:
    """A terminal id in its one canonical form (``TK-0001``)."""
    try:
        return check_name(Role.TERMINAL, text)
    except IdentityError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def hex_seed(text: str) -> str:
    """A software-authentication seed: 1 to 64 bytes as hex digits."""
    from kiosk.kernel.integrity import parse_seed

    try:
        return parse_seed(text).hex()
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def host_dir(args: argparse.Namespace) -> Path:
    """The host's directory."""
    given: Path | None = args.host_dir
    if given is not None:
        return given
    env = os.environ.get(HOST_DIR_ENV, "").strip()
    return Path(env) if env else Path("var/host")


def db_target(args: argparse.Namespace) -> str:
    """The records: ``--db`` or HOST_DIR/host.sqlite3."""
    return str(args.db) if args.db else str(host_dir(args) / "host.sqlite3")


def pki_dir(args: argparse.Namespace) -> Path:
    """The PKI directory: ``--pki`` or HOST_DIR/pki."""
    given: Path | None = args.pki
    return given if given is not None else host_dir(args) / "pki"


def ca_dir(args: argparse.Namespace) -> Path:
    """The CA directory (the CA's private key): ``--ca-dir``, ``$TURBOKIOSK_CA_DIR`` or
    HOST_DIR-ca, beside the host's directory and never inside it."""
    given: Path | None = getattr(args, "ca_dir", None)
    if given is not None:
        return given
    env = os.environ.get(CA_DIR_ENV, "").strip()
    if env:
        return Path(env)
    home = host_dir(args).resolve()
    return home.parent / f"{home.name}-ca"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Sub-commands of ``turbokiosk host``."""
    common = _common()
    sub = parser.add_subparsers(dest="host_command", metavar="ACTION", required=True)

    p = sub.add_parser(
        "init-ca", parents=[common], help="create the CA (key in CA_DIR, certificate also in PKI)"
    )
    p.add_argument("--name", default="TurboKiosk Host CA", help="the CA's common name")
    p.add_argument("--days", type=DAYS, default=3650, help="validity in days")

    p = sub.add_parser(
        "issue-cert",
        parents=[common],
        help="issue a certificate with its role (terminal, seat, dealer, table controller, host)",
    )
    p.add_argument(
        "name",
        type=certificate_name,
        help="canonical name: TK-0001, seat-1, dealer-1, table-T1, host, dashboard",
    )
    p.add_argument(
        "--role",
        choices=[str(r) for r in Role],
        help="the role (default: the one the name's form says)",
    )
    p.add_argument("--server", action="store_true", help="a server's certificate (the host's)")
    p.add_argument(
        "--san", action="append", default=[], help="a server's address, added to the defaults"
    )
    p.add_argument("--days", type=DAYS, default=825, help="validity in days")
    p.add_argument("--out", type=Path, help="where to write NAME.crt/.key (default: the PKI)")
    p.add_argument(
        "--replace", action="store_true", help="issue again over an existing NAME.crt/.key"
    )

    p = sub.add_parser(
        "check-credentials",
        help="check a terminal's CA, certificate and key before they are installed",
    )
    p.add_argument("--ca", type=Path, required=True, help="the host link's CA certificate")
    p.add_argument("--cert", type=Path, required=True, help="the terminal's certificate")
    p.add_argument("--key", type=Path, required=True, help="the terminal's private key")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("serve", parents=[common], help="run the accounting host")
    p.add_argument(
        "--listen",
        type=listen_address,
        default="127.0.0.1:50051",
        help="address:port to listen on (port 1-65535; 0: a free port, printed when serving)",
    )
    p.add_argument(
        "--cert-name",
        type=certificate_name,
        default="host",
        help="the host's certificate in the PKI",
    )
    p.add_argument(
        "--meter-period", type=int_type(1, 86_400), default=60, help="seconds between snapshots"
    )
    p.add_argument("--voucher-expiry-days", type=int_type(1, 3650), default=30)
    p.add_argument(
        "--max-workers",
        type=int,
        default=16,
        help="database threads for the calls other than Report (the server itself is asyncio)",
    )
    p.add_argument(
        "--writers",
        type=int_type(1, 64),
        default=None,
        help="group-commit writer threads, each with its own connection (default 1)",
    )
    p.add_argument(
        "--gather-ms",
        type=float_type(0, 100),
        default=SERVE_GATHER_MS,
        help="start a group commit at most this often, so each carries more reports (each "
        f"report waits at most this long more; default {SERVE_GATHER_MS:g}; 0: at once)",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="host processes sharing the port and the records (PostgreSQL only above 1)",
    )
    p.add_argument(
        "--gc",
        choices=["tuned", "default"],
        default="tuned",
        help="tuned: freeze the start-up heap and collect rarely (default); default: Python's",
    )
    p.add_argument(
        "--switch-interval-ms",
        type=float_type(0.05, 100),
        default=gc_tuning.SWITCH_INTERVAL_MS,
        help="how long a thread waiting for the interpreter (the group commit's writer after "
        "each database reply) may wait for the event loop "
        f"(default {gc_tuning.SWITCH_INTERVAL_MS:g}; Python's is 5)",
    )
    p.add_argument(
        "--progress-seconds",
        type=float_type(0, 3600),
        default=10.0,
        help="log throughput and queue depth this often (0: never)",
    )
    limits = Limits()
    p.add_argument(
        "--ticket-out-limit-cents",
        type=int,
        default=limits.ticket_out_limit,
        help="the largest voucher the host issues (cents)",
    )
    p.add_argument(
        "--ticket-in-limit-cents",
        type=int,
        default=limits.ticket_in_limit,
        help="the largest voucher a terminal may redeem (cents)",
    )
    p.add_argument(
        "--largest-bill-cents",
        type=int,
        default=limits.largest_bill,
        help="the largest note a terminal may report stacked (cents)",
    )
    rates = RateLimits()
    p.add_argument(
        "--report-rate",
        type=float,
        default=rates.messages_per_second,
        help="messages a second each terminal may report, sustained (default %(default)g)",
    )
    p.add_argument(
        "--report-burst",
        type=int,
        default=rates.burst,
        help="messages a terminal may report at once above the rate (default %(default)d)",
    )
    p.add_argument(
        "--require-device-counts",
        action="store_true",
        help="refuse a stacked note reported without its validator's count (alarm)",
    )

    host_web.add_web_options(p, "--web", None)  # the floor dashboard beside the host

    host_web.add_parsers(sub, common, _common(suppress=True))

    p = sub.add_parser(
        "terminals", parents=[common], help="terminals the host knows; enrol, retire, list"
    )
    p.add_argument("--json", action="store_true")
    _terminal_actions(p)

    p = sub.add_parser(
        "alarms",
        parents=[common],
        help="RAM clears, meters that went backwards, stores behind their anchor, newest first",
    )
    p.add_argument("--terminal", help="only this terminal")
    p.add_argument("--alarms", action="store_true", help="only alarms (not RAM clear records)")
    p.add_argument("--last", type=int, default=50)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("meters", parents=[common], help="a terminal's meters (newest snapshot)")
    p.add_argument("terminal", nargs="?", help="terminal id (default: every terminal)")
    p.add_argument("--history", type=COUNT, default=1, help="this many snapshots, newest first")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("events", parents=[common], help="recorded events, newest first")
    p.add_argument("--terminal", help="only this terminal")
    p.add_argument("--kind", help="only this kind (bill_stacked, game_played, ...)")
    p.add_argument("--last", type=COUNT, default=50)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("vouchers", parents=[common], help="vouchers and their states")
    p.add_argument("--state", choices=list(VOUCHER_STATES))
    p.add_argument("--terminal", help="only those issued by this terminal")
    p.add_argument("--last", type=COUNT, default=50)
    p.add_argument("--json", action="store_true")
    _voucher_actions(p)

    p = sub.add_parser("send", parents=[common], help="queue a command for a terminal")
    p.add_argument("terminal", help="terminal id")
    p.add_argument("action", choices=sorted(SEND_KINDS))
    p.add_argument("text", nargs="?", default="", help="message: the text to show")
    p.add_argument(
        "--reason",
        default="",
        help="disable: the reason shown; confirm-records: the dispute's reason as seen",
    )
    p.add_argument(
        "--tilt",
        choices=("bill_validator_reconcile", "printer_reconcile"),
        help="confirm-records: the device records dispute confirmed",
    )
    p.add_argument("--operator", help="confirm-records: who confirms it (recorded both ends)")
    p.add_argument(
        "--seed", type=hex_seed, help="authenticate: seed as hex (default: 32 random bytes)"
    )
    p.add_argument(
        "--epoch-ms",
        type=int_type(0, 2**63 - 1),
        help="set-time: the time (default: the host's now)",
    )
    p.add_argument(
        "--seconds",
        type=int_type(0, 86_400),
        default=0,
        help="message: how long (0: until replaced)",
    )
    p.add_argument(
        "--wait",
        type=float_type(0, 3600),
        default=0.0,
        help="wait up to this many s for the answer",
    )


def _common(suppress: bool = False) -> argparse.ArgumentParser:
    """--host-dir, --db, --pki (``suppress``: no defaults, for a sub-command's sub-command)."""
    extra: dict[str, Any] = {"default": argparse.SUPPRESS} if suppress else {}
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--host-dir", type=Path, help=f"default: ${HOST_DIR_ENV} or var/host", **extra
    )
    common.add_argument(
        "--db", help="SQLite file or postgresql:// URL (default HOST_DIR/...)", **extra
    )
    common.add_argument(
        "--pki",
        type=Path,
        help="the host's certificates and the CA certificate (default HOST_DIR/pki)",
        **extra,
    )
    common.add_argument(
        "--ca-dir",
        type=Path,
        help=f"the CA's private key (default ${CA_DIR_ENV} or HOST_DIR-ca)",
        **extra,
    )
    return common


def _terminal_actions(parser: argparse.ArgumentParser) -> None:
    """``host terminals enroll|retire|list``: the registry of terminals the host serves."""
    common = _common(suppress=True)
    sub = parser.add_subparsers(dest="terminal_action", metavar="[ACTION]")
    for action, text in (
        ("enroll", "serve this terminal from now on (its certificate alone is not enough)"),
        ("retire", "refuse this terminal from now on (a floor alarm when it calls)"),
    ):
        p = sub.add_parser(action, parents=[common], help=text)
        p.add_argument("terminal", type=terminal_name, help="terminal id (TK-0001)")
        p.add_argument("--note", default="", help="why (kept with the entry)")
        p.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    p = sub.add_parser("list", parents=[common], help="the registry: enrolled and retired")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS)


def _voucher_actions(parser: argparse.ArgumentParser) -> None:
    """``host vouchers release`` and ``host vouchers audit``."""
    common = _common(suppress=True)
    sub = parser.add_subparsers(dest="voucher_action", metavar="[ACTION]")
    p = sub.add_parser(
        "release",
        parents=[common],
        help="release a reservation its terminal will never finish (the voucher is issued again)",
        description=(
            f"Only a reserved voucher, reserved at least {RELEASE_QUIET_MINUTES} minutes ago at a"
            f" terminal that has not been in contact for {RELEASE_QUIET_MINUTES} minutes. The"
            " release is audited; a later report from that terminal is audited as an exception"
            " (or an alarm if the voucher was redeemed elsewhere meanwhile)."
        ),
    )
    p.add_argument("validation_number", help="the voucher's 18-digit validation number")
    p.add_argument("--reason", required=True, help="why (kept in the audit)")
    p.add_argument("--operator", default=None, help="who (default: the logged-in user)")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    p = sub.add_parser(
        "audit",
        parents=[common],
        help="releases, late reports, double redemptions, quarantined and refused reports",
    )
    p.add_argument("validation_number", nargs="?", help="only this voucher")
    p.add_argument(
        "--alarms",
        action="store_true",
        help="only alarms (money paid twice, quarantined numbers, refused voids and redemptions)",
    )
    p.add_argument("--last", type=int, default=50, dest="audit_last")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    """Carry out the action."""
    try:
        action = {
            "init-ca": _init_ca,
            "issue-cert": _issue_cert,
            "check-credentials": _check_credentials,
            "serve": _serve,
            "terminals": _terminals,
            "alarms": _alarms,
            "meters": _meters,
            "events": _events,
            "vouchers": _vouchers,
            "send": _send,
            "web": _web,
            "web-user": _web_user,
        }[args.host_command]
        return action(args)
    except (pki.PkiError, HostDbError, BoundsError, RateLimitError) as exc:
        print(f"host: {exc}", file=sys.stderr)
        return 2


def _init_ca(args: argparse.Namespace) -> int:
    where = ca_dir(args)
    path = pki.init_ca(where, name=args.name, days=args.days, publish=pki_dir(args))
    print(f"CA certificate: {path} (copied to {pki_dir(args) / pki.CA_CERT})")
    print(f"CA private key: {where / pki.CA_KEY} (keep it off the host: 'host serve' refuses it)")
    return 0


def _issue_cert(args: argparse.Namespace) -> int:
    cert, key = pki.issue_cert(
        ca_dir(args),
        args.name,
        args.out or pki_dir(args),
        role=Role(args.role) if args.role else None,
        server=args.server,
        sans=tuple(args.san),
        days=args.days,
        replace=args.replace,
    )
    print(f"certificate: {cert}\nkey: {key}")
    return 0


def _check_credentials(args: argparse.Namespace) -> int:
    check = pki.check_terminal_credentials(pki.Credentials.load(args.ca, args.cert, args.key))
    if args.json:
        _print_json(
            {
                "terminal_id": check.terminal_id,
                "issuer": check.issuer,
                "not_after": check.not_after.isoformat(),
            }
        )
    else:
        print(check.to_text())
    return 0


def _serve(args: argparse.Namespace) -> int:
    from kiosk.host.accounting.server import HostSettings

    refuse_unsafe(args.processes, db_target(args))  # before anything is read
    pki.refuse_ca_key((pki_dir(args), host_dir(args)), ca_dir(args))
    limits = Limits(
        ticket_out_limit=args.ticket_out_limit_cents,
        ticket_in_limit=args.ticket_in_limit_cents,
        largest_bill=args.largest_bill_cents,
    )
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("kiosk.host.accounting.progress").setLevel(logging.INFO)
    settings = HostSettings(
        meter_period_seconds=args.meter_period,
        voucher_expiry_days=args.voucher_expiry_days,
        limits=limits,
        rates=RateLimits(messages_per_second=args.report_rate, burst=args.report_burst),
        require_device_counts=args.require_device_counts,
    )
    creds = pki.credentials(pki_dir(args), args.cert_name)
    if not 1 <= args.max_workers <= MAX_WORKERS:
        raise CommandLineError(f"--max-workers: from 1 to {MAX_WORKERS:,}, not {args.max_workers}")
    check_bindable(args.listen)  # one line, before the records are opened
    web = host_web.prepare_beside(args, pki_dir(args))  # --web: its certificate and address
    connect(db_target(args)).close()  # unreachable records (PostgreSQL down): one line
    if args.processes == 1:
        return _serve_one(args, settings, creds, web, 0)
    args.listen = fixed_address(args.listen)
    return supervise(args.processes, lambda i: _serve_one(args, settings, creds, web, i))


def _serve_one(
    args: argparse.Namespace,
    settings: HostSettings,
    creds: pki.Credentials,
    web: Any,
    index: int,
) -> int:
    """One host process (``index``: its number under ``--processes``; the first one runs the
    dashboard)."""
    from kiosk.host.accounting.server import HostServer
    from kiosk.terminal.hostlink.tls_log import HandshakeLog

    server = HostServer(
        open_db(db_target(args)),
        creds,
        args.listen,
        settings=settings,
        max_workers=args.max_workers,
        progress_seconds=args.progress_seconds,
        writers=args.writers,
        gather_ms=args.gather_ms,
    ).start()

    def stop(_signum: int, _frame: object) -> None:
        server.shutdown_soon(1)

    signal.signal(signal.SIGTERM, stop)  # before the line that tells the world it is up
    signal.signal(signal.SIGINT, stop)
    HandshakeLog("host").install()  # a refused handshake: one line, not one per attempt
    web = host_web.start_beside(args, web, db_target(args)) if index == 0 else None
    if args.gc == "tuned":
        gc_tuning.tune()
    gc_tuning.set_switch_interval(args.switch_interval_ms)
    which = f", process {index + 1} of {args.processes}" if args.processes > 1 else ""
    print(f"host: serving on {server.address} (records: {db_target(args)}{which})", flush=True)
    if web is not None:
        print(f"host: dashboard on {web.url}", flush=True)
    server.wait()
    if web is not None:
        web.stop()
    server.stop(0)
    print("host: stopped", flush=True)
    return 0


def _web(args: argparse.Namespace) -> int:
    connect(db_target(args)).close()  # the host's tables there; unreachable records: one line
    return host_web.run_web(args, pki_dir(args), db_target(args))


def _web_user(args: argparse.Namespace) -> int:
    return host_web.run_user(args, db_target(args))


def _open(args: argparse.Namespace) -> HostDb:
    target = db_target(args)
    if "://" not in target and not target.startswith("host=") and not Path(target).exists():
        raise pki.PkiError(f"no host records at {target}")
    return connect(target)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


def _terminals(args: argparse.Namespace) -> int:
    action = getattr(args, "terminal_action", None)
    if action in ("enroll", "retire"):
        return _enrolment(args, action)
    if action == "list":
        return _registry(args)
    db = _open(args)
    rows = db.terminals()
    if args.json:
        _print_json([r.as_json() for r in rows])
        return 0
    print(
        f"{'terminal':<16} {'version':<10} {'enabled':<8} {'events':>8}  last seen            auth"
        "   acknowledged head                 RAM clears  alarms"
    )
    for r in rows:
        enabled = "yes" if r.enabled else "no"
        head = f"{r.epoch}:{r.acked_seq}" if r.epoch else "-"
        print(
            f"{r.terminal_id:<16} {r.software_version:<10} {enabled:<8} {r.events:>8}  "
            f"{when(r.last_seen_ms):<20} {r.auth_result or '-':<6} {head:<33} "
            f"{r.ram_clears:>10}  {r.alarms:>6}"
        )
        if not r.enabled:
            print(f"{'':<16} disabled: {r.disable_reason}")
        if r.ram_clears:
            (last,) = db.terminal_alarms(r.terminal_id, kind="ram_cleared", last=1)
            d = last.detail
            print(
                f"{'':<16} RAM cleared by {d.get('by', '?')} at {when(int(d.get('cleared_ms', 0)))}"
                f": {d.get('reason', '')} (store {d.get('previous_epoch')} ended at seq"
                f" {d.get('previous_seq')}; new store {d.get('epoch')})"
            )
    return 0


def _enrolment(args: argparse.Namespace, action: str) -> int:
    """Enrol (the records made when there are none yet) or retire a terminal."""
    db = connect(db_target(args)) if action == "enroll" else _open(args)
    try:
        if action == "enroll":
            previous = db.enroll(args.terminal, now_ms(), args.note)
        else:
            previous = db.retire(args.terminal, now_ms(), args.note)
            if previous is None:
                raise HostDbError(f"{args.terminal} was never enrolled here: nothing to retire")
    finally:
        db.close()
    state = "enrolled" if action == "enroll" else "retired"
    if getattr(args, "json", False):
        _print_json({"terminal_id": args.terminal, "state": state, "previous": previous})
    elif previous == state:
        print(f"{args.terminal}: {state} already")
    else:
        print(f"{args.terminal}: {state} (was {previous or 'not enrolled'})")
    return 0


def _registry(args: argparse.Namespace) -> int:
    db = _open(args)
    try:
        rows = db.registry()
    finally:
        db.close()
    if getattr(args, "json", False):
        _print_json([r.as_json() for r in rows])
        return 0
    for r in rows:
        note = f"  {r.note}" if r.note else ""
        print(f"{r.terminal_id:<16} {r.state:<9} since {when(r.changed_ms)}{note}")
    return 0


def _alarms(args: argparse.Namespace) -> int:
    db = _open(args)
    try:
        rows = db.terminal_alarms(args.terminal, "alarm" if args.alarms else None, last=args.last)
    finally:
        db.close()
    if args.json:
        _print_json([r.as_json() for r in rows])
        return 0
    for r in rows:
        detail = json.dumps(r.detail, sort_keys=True, separators=(",", ":"))
        print(
            f"#{r.entry_id:<6} {when(r.at_ms)}  {r.severity.upper():<9} {r.kind:<24}"
            f" {r.terminal_id}  {detail}"
        )
    return 0


def _meters(args: argparse.Namespace) -> int:
    db = _open(args)
    ids = [args.terminal] if args.terminal else [r.terminal_id for r in db.terminals()]
    data = {t: db.meter_history(t, args.history) for t in ids}
    if args.json:
        _print_json({t: [snap.as_json() for snap in snaps] for t, snaps in data.items()})
        return 0
    for terminal, snapshots in data.items():
        if not snapshots:
            print(f"{terminal}: no meter snapshot yet")
        for snap in snapshots:
            print(
                f"{terminal}: meters at journal row {snap.journal_seq}, {when(snap.at_ms)}"
                f" ({snap.reason})"
            )
            for name, value in snap.meters.items():
                print(f"  {name:<48} {value:>14}")
    return 0


def _events(args: argparse.Namespace) -> int:
    rows = _open(args).events(args.terminal, args.kind, args.last)
    if args.json:
        _print_json([r.as_json() for r in rows])
        return 0
    for r in rows:
        body = json.dumps(r.body, sort_keys=True, separators=(",", ":"))
        print(f"{r.terminal_id:<10} #{r.journal_seq:<8} {when(r.at_ms)}  {r.kind:<16} {body}")
    return 0


def _vouchers(args: argparse.Namespace) -> int:
    if args.voucher_action == "release":
        return _release(args)
    if args.voucher_action == "audit":
        return _audit(args)
    rows = _open(args).vouchers(args.state, args.terminal, args.last)
    if args.json:
        _print_json([r.as_json() for r in rows])
        return 0
    for r in rows:
        holder = f" at {r.holder}" if r.holder else ""
        print(
            f"{r.validation_number}  {dollars(r.value_cents):>12}  {r.state:<9}"
            f"  issued by {r.issued_by} {when(r.issued_ms)}{holder}"
        )
    return 0


def _release(args: argparse.Namespace) -> int:
    operator = args.operator or os.environ.get("SUDO_USER") or getpass.getuser()
    db = _open(args)
    try:
        holder = db.release_voucher(args.validation_number, operator, args.reason, now_ms())
        entry = db.voucher_audit(args.validation_number, last=1)[0]
    finally:
        db.close()
    if args.json:
        _print_json(entry.as_json())
    else:
        print(
            f"voucher {args.validation_number} released from {holder} by {operator}"
            f" (audit entry {entry.entry_id}): it is issued again"
        )
    return 0


def _audit(args: argparse.Namespace) -> int:
    if not 1 <= args.audit_last <= MAX_COUNT:
        raise CommandLineError(f"--last: from 1 to {MAX_COUNT:,}, not {args.audit_last}")
    db = _open(args)
    try:
        severity = "alarm" if args.alarms else None
        rows = db.voucher_audit(args.validation_number, severity, args.audit_last)
    finally:
        db.close()
    if args.json:
        _print_json([r.as_json() for r in rows])
        return 0
    for r in rows:
        who = f" by {r.operator}" if r.operator else ""
        why = f": {r.reason}" if r.reason else ""
        detail = json.dumps(r.detail, sort_keys=True, separators=(",", ":"))
        print(
            f"#{r.entry_id:<6} {when(r.at_ms)}  {r.severity.upper():<9} {r.kind:<17}"
            f" {r.validation_number}  {r.terminal_id}{who}{why}  {detail}"
        )
    return 0


def _send(args: argparse.Namespace) -> int:
    from kiosk.host.accounting.server import host_command

    kind = SEND_KINDS[args.action]
    body: dict[str, Any] = {}
    if args.action in ("enable", "disable"):
        body = {"enabled": args.action == "enable", "reason": args.reason}
    elif args.action == "authenticate":
        body = {"seed": args.seed or os.urandom(32).hex()}
    elif args.action == "set-time":
        body = {"epoch_ms": args.epoch_ms if args.epoch_ms is not None else now_ms()}
    elif args.action == "message":
        body = {"text": args.text, "seconds": args.seconds}
    elif args.action == "confirm-records":
        if not args.tilt or not args.operator:
            raise CommandLineError("confirm-records needs --tilt and --operator")
        body = {"tilt": args.tilt, "operator": args.operator, "reason": args.reason}
    host_command(0, kind, body)
    db = _open(args)
    command_id = db.queue_command(args.terminal, kind, body, now_ms())
    print(f"command {command_id} queued for {args.terminal}: {args.action}", flush=True)
    deadline = time.monotonic() + args.wait
    while time.monotonic() < deadline:
        record = db.command(command_id)
        if record is not None and record.state.finished:
            print(f"command {command_id}: {record.state} {record.result}".rstrip())
            return 0 if record.state is CommandState.DONE else 1
        time.sleep(0.1)
    return 0
