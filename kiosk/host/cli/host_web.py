"""``turbokiosk host web`` and ``host web-user``: the floor dashboard and its users.

    turbokiosk host web [--listen 127.0.0.1:8443]     # the dashboard (TLS, the host's certificate)
    turbokiosk host serve --web 127.0.0.1:8443 ...    # the same, inside the host process
    turbokiosk host web-user add NAME --role operator|auditor [--password-stdin]
    turbokiosk host web-user list
    turbokiosk host web-user unlock NAME [--address ADDR]   # clear a sign-in lock-out (audited)

The records, the PKI and ``HOST_DIR`` are those of the other ``host`` commands.
"""

from __future__ import annotations

import argparse
import getpass
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from kiosk.host.cli.host_records import connect, opened
from kiosk.kernel.time_text import local_stamp
from kiosk.terminal.cli.args import check_bindable, int_type, listen_address
from kiosk.terminal.cli.guard import EXIT_FAILED, CommandLineError

DEFAULT_WEB = "127.0.0.1:8443"


def add_parsers(
    sub: Any, common: argparse.ArgumentParser, suppressed: argparse.ArgumentParser
) -> None:
    """``host web`` and ``host web-user`` (``suppressed``: the common options without
    defaults, for the sub-commands of ``web-user``)."""
    p = sub.add_parser("web", parents=[common], help="the floor dashboard in the browser (TLS)")
    add_web_options(p, "--listen", DEFAULT_WEB)

    p = sub.add_parser("web-user", parents=[common], help="the dashboard's users")
    users = p.add_subparsers(dest="web_user_action", metavar="ACTION", required=True)
    add = users.add_parser("add", parents=[suppressed], help="add a user")
    add.add_argument("username", help="2-32 lower-case letters, digits, '.', '_', '-'")
    add.add_argument("--role", required=True, choices=["operator", "auditor"])
    add.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from the first line of standard input (else: asked twice)",
    )
    users.add_parser("list", parents=[suppressed], help="the users and their lock-outs")
    unlock = users.add_parser(
        "unlock", parents=[suppressed], help="clear a user's sign-in lock-outs (audited)"
    )
    unlock.add_argument("username", help="the user whose lock-outs are cleared")
    unlock.add_argument(
        "--address",
        type=_source,
        metavar="ADDR",
        help="only the lock-out at this address (an IPv6 address stands for its /64); "
        "default: at every address",
    )


def add_web_options(p: argparse.ArgumentParser, flag: str, default: str | None) -> None:
    """The dashboard's options (``--listen`` for ``host web``, ``--web`` for ``host serve``)."""
    p.add_argument(
        flag,
        dest="web_listen",
        type=listen_address,
        default=default,
        help=f"the dashboard's address:port (HTTPS; 0: a free port){' ' if default else ''}"
        + (f"default {default}" if default else ""),
    )
    p.add_argument(
        "--web-cert-name",
        default="host",
        help="the certificate in the PKI the dashboard serves with (default: the host's)",
    )
    p.add_argument(
        "--offline-after",
        type=int_type(5, 3600),
        default=30,
        help="seconds without word from a terminal before it is offline (communication loss)",
    )
    p.add_argument(
        "--session-minutes",
        type=int_type(1, 24 * 60),
        default=15,
        help="a session ends after this many minutes without a request (and 8 h after sign-in)",
    )


def web_config(args: argparse.Namespace, target: str) -> Any:
    """The dashboard's configuration from the options."""
    from kiosk.host.web.app import DashboardConfig

    return DashboardConfig(
        db=target,
        offline_after_seconds=args.offline_after,
        idle_seconds=args.session_minutes * 60,
    )


def tls_files(pki_dir: Path, name: str) -> Any:
    """The certificate and key files the dashboard serves with (one line when missing)."""
    from kiosk.host.web.serve import TlsFiles

    files = TlsFiles(pki_dir / f"{name}.crt", pki_dir / f"{name}.key")
    for path in (files.cert, files.key):
        if not path.is_file():
            raise CommandLineError(
                f"no {path}: the dashboard serves with the host's certificate"
                f" ('turbokiosk host issue-cert {name} --server')"
            )
    return files


def prepare_beside(args: argparse.Namespace, pki_dir: Path) -> Any:
    """``host serve --web``, before the host starts: the certificate files and the bound
    socket (one line when either is missing), or None without ``--web``."""
    if not args.web_listen:
        return None
    files = tls_files(pki_dir, args.web_cert_name)
    return files, _bound(args.web_listen, "--web")


def start_beside(args: argparse.Namespace, prepared: Any, target: str) -> Any:
    """The dashboard in a thread of the host process (None without ``--web``)."""
    if prepared is None:
        return None
    from kiosk.host.web.serve import WebServer

    files, sock = prepared
    return WebServer(web_config(args, target), files, sock).start()


def _bound(address: str, option: str) -> Any:
    from kiosk.host.web.serve import bind

    check_bindable(address, option)
    try:
        return bind(address)
    except OSError as exc:
        raise CommandLineError(f"{option} {address}: {exc.strerror or exc}") from None


def run_web(args: argparse.Namespace, pki_dir: Path, target: str) -> int:
    """``host web``: serve the dashboard until SIGINT or SIGTERM."""
    from kiosk.host.web.serve import WebServer

    files = tls_files(pki_dir, args.web_cert_name)
    sock = _bound(args.web_listen, "--listen")
    open_connection(target).close()  # unreachable records: one line
    server = WebServer(web_config(args, target), files, sock).start()
    stopping = threading.Event()

    def stop(_signum: int, _frame: object) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)  # before the line that tells the world it is up
    signal.signal(signal.SIGINT, stop)
    print(f"web: dashboard on {server.url} (records: {target})", flush=True)
    while not stopping.wait(0.5) and server.running():
        pass
    server.stop()
    print("web: stopped", flush=True)
    return 0


def _source(text: str) -> str:
    """``--address``: an IP address, as the lock-out counts it (decision 0040)."""
    import ipaddress

    from kiosk.host.web.lockout import source_of

    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an IP address: {text!r}") from None
    return source_of(text)


def run_user(args: argparse.Namespace, target: str) -> int:
    """``host web-user add|list|unlock``."""
    from kiosk.host.web.accounts import AccountError, Accounts, check_new_user

    password = ""
    if args.web_user_action == "add":
        password = _password(args.password_stdin)
        try:  # before anything is opened or written
            check_new_user(args.username, args.role, password)
        except AccountError as exc:
            raise CommandLineError(f"web-user add: {exc}") from None
    connect(target).close()  # the host's records there; unreachable: one line
    conn = open_connection(target)
    try:
        accounts = Accounts(conn)
        if args.web_user_action == "list":
            _list(accounts)
            return 0
        if args.web_user_action == "unlock":
            return _unlock(accounts, args.username, args.address)
        try:
            accounts.add_user(args.username, args.role, password)
        except AccountError as exc:
            raise CommandLineError(f"web-user add: {exc}") from None
        print(f"user {args.username} added ({args.role})")
        return 0
    finally:
        conn.close()


def _list(accounts: Any) -> None:
    """Each user, then each address with wrong passwords counted (and its lock-out)."""
    at = time.time() * 1000
    for name, role, _failures, _locked in accounts.users():
        pairs = accounts.lockouts(name)
        locked = sum(1 for p in pairs if p.locked(at))
        print(f"{name:<32} {role:<9} " + (f"locked at {locked} address(es)" if locked else "ok"))
        for p in pairs:
            until = local_stamp(p.locked_until_ms)
            state = f"locked until {until}" if p.locked(at) else "not locked"
            print(f"    from {p.source}: {p.failures} wrong in a row, {state}")


def _unlock(accounts: Any, username: str, source: str | None) -> int:
    """``web-user unlock``: clear the lock-outs (audited with the system user who did it)."""
    from kiosk.host.web.accounts import AccountError

    try:
        by = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        by = f"uid {os.getuid()}"
    try:
        cleared = accounts.unlock(username, f"{by} (command line)", source)
    except AccountError as exc:
        raise CommandLineError(f"web-user unlock: {exc}") from None
    at = time.time() * 1000
    locked = [p.source for p in cleared if p.locked(at)]
    where = f" at {source}" if source is not None else ""
    if locked:
        print(f"user {username} unlocked{where}: was locked at {', '.join(locked)}")
    else:
        print(f"user {username} was not locked{where}; wrong passwords counted there cleared")
    return 0


def open_connection(target: str) -> Any:
    """The dashboard's write connection; one line (password hidden) when it cannot be opened."""
    from kiosk.host.web.sql import Connection

    return opened(target, lambda: Connection(target, read_only=False))


def _password(from_stdin: bool) -> str:
    if from_stdin:
        line = sys.stdin.readline(1024)
        if not line:
            raise CommandLineError("web-user add: no password on standard input")
        return line.rstrip("\r\n")
    if not sys.stdin.isatty():
        raise CommandLineError(
            "web-user add: no terminal to ask the password on (use --password-stdin)"
        )
    first = getpass.getpass("password: ")
    if getpass.getpass("again: ") != first:
        raise CommandLineError("web-user add: the two passwords differ", EXIT_FAILED)
    return first
