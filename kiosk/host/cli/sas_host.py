"""``turbokiosk sas host --port PATH --address N``: poll a gaming machine like a casino system.

General polls every ``--interval-ms`` (200 by default); the long polls the options ask for
between them; the exceptions that need the host answered (system validation of cash-out
tickets and ticket in through ``--tickets DB``, handpay information).  What it reads is printed
as it comes (``--format table`` or ``csv``) or as one JSON document at the end (``json``).

Without ``--follow`` or ``--duration`` the command ends once every long poll it asked for is
answered (or given up), at most ``--timeout`` seconds.  SIGUSR1 reads every meter at once
(a sweep on demand, e.g. ``kill -USR1`` from a script while it follows).  Exit status 0; 1
when the machine never answered; 2 for a bad argument; 130 after Ctrl-C (SIGTERM ends
``--follow`` with 0).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime as dt
import json
import os
import select
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TextIO

from kiosk.host.sas import funds, polls
from kiosk.host.sas.casino import CasinoHost, Record
from kiosk.host.sas.line import HostLine, LineError, WakeupMode
from kiosk.host.sas.poller import HostPoller
from kiosk.host.sas.runner import monotonic_ms, run_host
from kiosk.host.sas.tickets import TicketDb, TicketDbError
from kiosk.host.sas.timing import probe
from kiosk.terminal.cli.args import float_type, int_type, output_file
from kiosk.terminal.cli.guard import EXIT_FAILED, EXIT_INTERRUPTED, CommandLineError
from kiosk.terminal.sas import wire

COLUMNS = ("at_ms", "kind", "source", "name", "value")


def _hex_code(text: str) -> int:
    try:
        code = int(text, 16)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a hexadecimal poll code: {text!r}") from None
    if code not in wire.R_TYPE:
        raise argparse.ArgumentTypeError(
            f"{text}: --poll takes a long poll without data (type R), e.g. 1A or 54"
        )
    return code


def _transaction_id(text: str) -> str:
    if not 1 <= len(text) <= 20 or not all(" " <= ch <= "~" for ch in text):
        raise argparse.ArgumentTypeError(f"not 1 to 20 printable characters: {text!r}")
    return text


def _registration_key(text: str) -> bytes:
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != 20:
        raise argparse.ArgumentTypeError(f"not 40 hex digits: {text!r}")
    return key


def _date_time(text: str) -> dt.datetime:
    if text == "now":
        return dt.datetime.now().replace(microsecond=0)
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a date and time: {text!r} (now, or YYYY-MM-DDTHH:MM:SS)"
        ) from None
    if not 2000 <= value.year <= 9999:
        raise argparse.ArgumentTypeError(f"{text}: the year is outside 2000..9999")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    parser.add_argument("--port", required=True, help="the serial port (or pty) of the machine")
    parser.add_argument("--address", type=int_type(1, 127), help="SAS address (or --discover it)")
    parser.add_argument(
        "--discover",
        action="store_true",
        help="wait (at most --timeout) for a machine that nobody polls to announce its address "
        "(its chirp), then poll that address",
    )
    parser.add_argument(
        "--create-pty",
        action="store_true",
        help="create a pty and link its far end at --port, for a terminal to open (tests)",
    )
    parser.add_argument(
        "--wakeup",
        choices=("auto", "parity", "gap"),
        default="auto",
        help="wakeup bit: mark parity on a UART, address-byte framing on a pty (auto: by the port)",
    )
    parser.add_argument(
        "--interval-ms",
        type=int_type(40, 5000),
        default=200,
        metavar="MS",
        help="general-poll interval (default 200)",
    )
    parser.add_argument(
        "--response-timeout-ms",
        type=int_type(20, 5000),
        default=100,
        metavar="MS",
        help="how long to wait for an answer (default 100)",
    )
    parser.add_argument("--sweep", action="store_true", help="read every meter once")
    parser.add_argument(
        "--sweep-every",
        type=float_type(1, 86_400),
        metavar="S",
        help="read every meter every S seconds (with --follow/--duration)",
    )
    parser.add_argument(
        "--poll",
        type=_hex_code,
        action="append",
        default=[],
        metavar="HEX",
        help="a long poll without data to send once (repeatable)",
    )
    state = parser.add_mutually_exclusive_group()
    state.add_argument("--enable", action="store_true", help="long poll 02: enable the machine")
    state.add_argument("--disable", action="store_true", help="long poll 01: shut it down")
    bills = parser.add_mutually_exclusive_group()
    bills.add_argument("--enable-bills", action="store_true", help="long poll 06")
    bills.add_argument("--disable-bills", action="store_true", help="long poll 07")
    parser.add_argument("--handpay-reset", action="store_true", help="long poll 94")
    validation = parser.add_argument_group(
        "validation", "long poll 7B: the machine's validation functions (docs/sas.md)"
    )
    validation.add_argument(
        "--cashout-tickets",
        choices=("on", "off"),
        help="7B bit 0: cash-outs print tickets (off: a cash-out is a handpay)",
    )
    validation.add_argument(
        "--ticket-redemption",
        choices=("on", "off"),
        help="7B bit 5: tickets inserted are redeemed (off: returned)",
    )
    validation.add_argument(
        "--ticket-expiry",
        type=int_type(1, 9999),
        metavar="DAYS",
        help="7B: the cashable ticket expiration printed (9999: never expires)",
    )
    validation.add_argument(
        "--validation-status", action="store_true", help="7B: read the validation status"
    )
    aft = parser.add_argument_group("AFT and bonusing", "money moved by the host (docs/sas.md)")
    aft.add_argument(
        "--aft-in",
        type=int_type(1, 9_999_999_999),
        metavar="CENTS",
        help="long poll 72: transfer CENTS to the machine's credits",
    )
    aft.add_argument(
        "--aft-out",
        type=int_type(1, 9_999_999_999),
        metavar="CENTS",
        help="long poll 72: transfer up to CENTS of the credits to the host",
    )
    aft.add_argument(
        "--aft-bonus",
        type=int_type(1, 9_999_999_999),
        metavar="CENTS",
        help="long poll 72: a bonus of CENTS to the machine's credits",
    )
    aft.add_argument(
        "--aft-receipt",
        action="store_true",
        help="with --aft-in/--aft-out/--aft-bonus: ask the machine to print a receipt",
    )
    aft.add_argument(
        "--aft-id",
        type=_transaction_id,
        metavar="ID",
        help="the transfer's transaction id, 1-20 characters (default: the time); "
        "the same id again is answered with its record, never a second transfer",
    )
    aft.add_argument(
        "--asset",
        type=int_type(0, 0xFFFFFFFF),
        metavar="N",
        help="the machine's AFT asset number (default: its address)",
    )
    aft.add_argument(
        "--aft-key",
        type=_registration_key,
        default=bytes(20),
        metavar="HEX",
        help="the registration key, 40 hex digits (default: none)",
    )
    aft.add_argument(
        "--pos-id",
        type=int_type(0, 0xFFFFFFFE),
        default=0,
        metavar="N",
        help="with --aft-register: the point-of-sale id",
    )
    aft.add_argument(
        "--aft-register",
        action="store_true",
        help="long poll 73: register the machine (00, then 01) with --aft-key",
    )
    aft.add_argument("--aft-unregister", action="store_true", help="long poll 73 80")
    aft.add_argument(
        "--aft-status",
        action="store_true",
        help="long poll 74 FF: lock state, available transfers, limit; 73 FF",
    )
    aft.add_argument(
        "--bonus",
        type=int_type(1, 99_999_999),
        metavar="CENTS",
        help="long poll 8A: pay a legacy bonus of CENTS",
    )
    aft.add_argument(
        "--bonus-tax",
        type=int_type(0, 2),
        default=0,
        metavar="0|1|2",
        help="the legacy bonus's tax status: 0 deductible, 1 not, 2 wager match",
    )
    parser.add_argument(
        "--set-time",
        type=_date_time,
        metavar="now|ISO",
        help="long poll 7F: set the machine's clock",
    )
    parser.add_argument(
        "--rom-seed",
        type=int_type(0, 0xFFFF),
        help="a sweep also asks for the ROM signature (21) with this seed",
    )
    parser.add_argument(
        "--tickets",
        type=Path,
        metavar="DB",
        help="the ticket database (SQLite): validate cash-outs, redeem tickets",
    )
    parser.add_argument(
        "--system-id",
        type=int_type(10, 99),
        default=10,
        help="the validation system id printed first on tickets (10..99)",
    )
    parser.add_argument(
        "--machine", help="the machine's name in the ticket database (default: PORT#ADDRESS)"
    )
    parser.add_argument(
        "--follow", action="store_true", help="keep polling until Ctrl-C or SIGTERM"
    )
    parser.add_argument(
        "--commands",
        action="store_true",
        help="with --follow: read console commands on standard input, one a line (sweep, "
        "enable, disable, enable-bills, disable-bills, handpay-reset, poll HEX, set-time ...)",
    )
    parser.add_argument(
        "--duration",
        type=float_type(0.1, 31_536_000),
        metavar="S",
        help="keep polling for S seconds",
    )
    parser.add_argument(
        "--timeout",
        type=float_type(0.1, 3600),
        default=10.0,
        metavar="S",
        help="without --follow/--duration: give up after S seconds (default 10)",
    )
    parser.add_argument(
        "--latency",
        type=int_type(1, 10_000_000),
        metavar="N",
        help="instead of polling: time N general polls back to back (p50/p99 against 20 ms)",
    )
    parser.add_argument("--format", choices=("table", "csv", "json"), default="table")
    parser.add_argument("--out", type=output_file, help="write there instead of standard output")


class _Stop:
    """SIGINT/SIGTERM as a flag the loop reads."""

    def __init__(self) -> None:
        self.signal: int | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.signal = signum


class _Writer:
    """Records out as they come (table, CSV) or at the end (JSON)."""

    def __init__(self, stream: TextIO, kind: str) -> None:
        self.stream, self.kind = stream, kind
        self.kept: list[Record] = []
        self._csv = csv.writer(stream) if kind == "csv" else None
        if self._csv is not None:
            self._csv.writerow(COLUMNS)
        elif kind == "table":
            stream.write(f"{'ms':>9}  {'kind':<9} {'source':<34} {'name':<34} value\n")

    def write(self, records: list[Record]) -> None:
        for r in records:
            if self._csv is not None:
                self._csv.writerow((r.at_ms, r.kind, r.source, r.name, r.value))
            elif self.kind == "table":
                self.stream.write(
                    f"{r.at_ms:>9}  {r.kind:<9} {r.source:<34} {r.name:<34} {r.value}\n"
                )
            else:
                self.kept.append(r)
        self.stream.flush()

    def finish(self, casino: CasinoHost, address: int, port: str) -> None:
        if self.kind == "json":
            doc = {
                "port": port,
                "address": address,
                "stats": casino.stats,
                "records": [
                    dict(zip(COLUMNS, (r.at_ms, r.kind, r.source, r.name, r.value), strict=True))
                    for r in self.kept
                ],
            }
            json.dump(doc, self.stream, indent=2)
            self.stream.write("\n")
        elif self.kind == "table":
            s = casino.stats
            self.stream.write(
                f"# polls {s['polls']}, answers {s['answers']}, no answer {s['timeouts']}, "
                f"bad {s['bad']}, noise {s['noise']}, busy {s['busy']}\n"
            )
        self.stream.flush()


def _queue_actions(args: argparse.Namespace, casino: CasinoHost) -> None:
    code = wire.LongPoll
    if args.enable:
        casino.ask(polls.poll(code.STARTUP))
    if args.disable:
        casino.ask(polls.poll(code.SHUTDOWN))
    if args.enable_bills:
        casino.ask(polls.poll(code.ENABLE_BILL_ACCEPTOR))
    if args.disable_bills:
        casino.ask(polls.poll(code.DISABLE_BILL_ACCEPTOR))
    if args.handpay_reset:
        casino.ask(polls.poll(code.REMOTE_HANDPAY_RESET))
    if args.set_time is not None:
        t = args.set_time
        casino.ask(polls.set_date_time(t.year, t.month, t.day, t.hour, t.minute, t.second))
    for poll_code in args.poll:
        casino.ask(polls.poll(poll_code))
    _queue_funds(args, casino)
    if args.sweep:
        casino.sweep(args.rom_seed)


def _queue_funds(args: argparse.Namespace, casino: CasinoHost) -> None:
    """The AFT and bonus options' polls (kiosk/host/sas/funds.py)."""
    asset = args.address if args.asset is None else args.asset
    if args.aft_register:
        casino.ask(funds.register(0x00, asset, args.aft_key, args.pos_id))
        casino.ask(funds.register(0x01, asset, args.aft_key, args.pos_id))
    if args.aft_unregister:
        casino.ask(funds.register(0x80, asset))
    if args.aft_status:
        casino.ask(funds.lock(0xFF))
        casino.ask(funds.register(0xFF, asset))
    moves = (("in", args.aft_in), ("out", args.aft_out), ("bonus", args.aft_bonus))
    for number, (kind, cents) in enumerate(m for m in moves if m[1] is not None):
        txid = args.aft_id or f"TK{int(time.time() * 1000) % 10**15}"
        if number:
            txid = f"{txid[:18]}-{number}"
        casino.ask(
            funds.transfer(
                kind,
                cents,
                txid,
                asset=asset,
                key=args.aft_key,
                partial=kind == "out",
                receipt=args.aft_receipt,
            )
        )
    if args.bonus is not None:
        casino.ask(funds.legacy_bonus(args.bonus, args.bonus_tax))
    mask = states = 0
    for bit, choice in ((0x0001, args.cashout_tickets), (0x0020, args.ticket_redemption)):
        if choice is not None:
            mask |= bit
            states |= bit if choice == "on" else 0
    if mask or args.ticket_expiry is not None or args.validation_status:
        casino.ask(funds.validation_status(mask, states, args.ticket_expiry or 0))


#: console commands (``--commands``) -> the long poll each asks for
CONSOLE: dict[str, int] = {
    "enable": wire.LongPoll.STARTUP,
    "disable": wire.LongPoll.SHUTDOWN,
    "enable-bills": wire.LongPoll.ENABLE_BILL_ACCEPTOR,
    "disable-bills": wire.LongPoll.DISABLE_BILL_ACCEPTOR,
    "handpay-reset": wire.LongPoll.REMOTE_HANDPAY_RESET,
}


#: console commands that turn one of 7B's status bits on or off -> the bit
VALIDATION_BITS: dict[str, int] = {"cashout-tickets": 0x0001, "ticket-redemption": 0x0020}


def console_command(line: str, casino: CasinoHost, rom_seed: int | None) -> str:
    """Carry out one console line (``sweep``, ``enable``, ``poll 1A``, ``set-time now``...);
    "" when done, else why not (the line is then ignored)."""
    words = line.split()
    if not words:
        return ""
    name, rest = words[0].lower(), words[1:]
    try:
        if name == "sweep" and not rest:
            casino.sweep(rom_seed)
        elif name in CONSOLE and not rest:
            casino.ask(polls.poll(CONSOLE[name]))
        elif name in ("aft-in", "aft-out", "aft-bonus") and len(rest) == 1:
            cents = int_type(1, 9_999_999_999)(rest[0])
            txid = f"TK{int(time.time() * 1000) % 10**15}"
            casino.ask(
                funds.transfer(name[4:], cents, txid, asset=casino.asset, partial=name == "aft-out")
            )
        elif name == "bonus" and len(rest) == 1:
            casino.ask(funds.legacy_bonus(int_type(1, 99_999_999)(rest[0])))
        elif name in VALIDATION_BITS and rest in (["on"], ["off"]):
            bit = VALIDATION_BITS[name]
            casino.ask(funds.validation_status(bit, bit if rest == ["on"] else 0))
        elif name == "ticket-expiry" and len(rest) == 1:
            casino.ask(funds.validation_status(0, 0, int_type(1, 9999)(rest[0])))
        elif name == "poll" and len(rest) == 1:
            casino.ask(polls.poll(_hex_code(rest[0])))
        elif name == "set-time" and len(rest) == 1:
            t = _date_time(rest[0])
            casino.ask(polls.set_date_time(t.year, t.month, t.day, t.hour, t.minute, t.second))
        else:
            known = ", ".join(
                [
                    "sweep",
                    *CONSOLE,
                    "poll HEX",
                    "set-time now|ISO",
                    "aft-in|aft-out|aft-bonus CENTS",
                    "bonus CENTS",
                    "cashout-tickets|ticket-redemption on|off",
                    "ticket-expiry DAYS",
                ]
            )
            return f"unknown command {line.strip()!r} (known: {known})"
    except argparse.ArgumentTypeError as exc:
        return str(exc)
    return ""


def run(args: argparse.Namespace) -> int:
    """Poll the machine; print or export what it says."""
    if args.commands and not args.follow:
        raise CommandLineError("--commands needs --follow")
    if args.sweep_every is not None and not (args.follow or args.duration):
        raise CommandLineError("--sweep-every needs --follow or --duration")
    if args.follow and args.duration:
        raise CommandLineError("--follow and --duration exclude each other")
    if args.tickets is not None and args.tickets.is_dir():
        raise CommandLineError(f"--tickets {args.tickets}: is a directory, not a database file")
    if (args.address is None) == (not args.discover):
        raise CommandLineError("give --address N or --discover (one of them)")
    mode = None if args.wakeup == "auto" else WakeupMode(args.wakeup)
    try:
        line = (
            HostLine.create_pty(Path(args.port)) if args.create_pty else HostLine(args.port, mode)
        )
    except LineError as exc:
        raise CommandLineError(f"--port {exc}") from None
    tickets: TicketDb | None = None
    try:
        if args.tickets is not None:
            tickets = TicketDb(args.tickets, lambda: int(dt.datetime.now().timestamp() * 1000))
        if args.discover:
            args.address = _discover(line, args.timeout)
            print(f"machine at address {args.address} announced itself", file=sys.stderr)
        if args.latency is not None:
            return _latency(args, line)
        machine = args.machine or f"{os.path.realpath(args.port)}#{args.address}"
        return _poll(args, line, tickets, machine)
    except TicketDbError as exc:
        raise CommandLineError(f"--tickets {exc}") from None
    except LineError as exc:
        raise CommandLineError(str(exc), EXIT_FAILED) from None
    finally:
        line.close()
        if tickets is not None:
            tickets.close()


def _discover(line: HostLine, timeout: float) -> int:
    """Listen (sending nothing) until a machine chirps its address twice alike."""
    deadline = time.monotonic() + timeout
    heard = b""
    while time.monotonic() < deadline:
        heard = (heard + line.read(0.25))[-8:]
        address = funds.chirped_address(heard) if len(heard) >= 2 else None
        if address is not None:
            return address
    raise CommandLineError(
        f"no machine announced itself on {line.path} in {timeout:g} s", EXIT_FAILED
    )


def _latency(args: argparse.Namespace, line: HostLine) -> int:
    stats = probe(
        line,
        wire.general_poll(args.address),
        1,
        args.latency,
        timeout_s=args.response_timeout_ms / 1000,
    )
    figures = stats.as_dict()
    with _output(args) as stream:
        if args.format == "json":
            json.dump(figures, stream, indent=2)
            stream.write("\n")
        elif args.format == "csv":
            writer = csv.writer(stream)
            writer.writerow(figures)
            writer.writerow(figures.values())
        else:
            for name, value in figures.items():
                stream.write(
                    f"{name:<14} {value:.3f}\n"
                    if isinstance(value, float)
                    else f"{name:<14} {value}\n"
                )
    if stats.answered == 0:
        print(
            f"turbokiosk sas host: no answer from address {args.address} on {args.port}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return 0


class _Console:
    """Console lines from standard input, read without blocking (the descriptor itself, so no
    line waits in a buffer that ``select`` cannot see)."""

    #: the longest line kept; a longer one is refused whole
    MAX_LINE = 4096

    def __init__(self, enabled: bool) -> None:
        self.open = enabled
        self._pending = b""

    def read(self, casino: CasinoHost, rom_seed: int | None) -> None:
        """Carry out every whole line that has arrived."""
        if not self.open and not self._pending:
            return
        fd = sys.stdin.fileno()
        while self.open and select.select([fd], [], [], 0)[0]:
            data = os.read(fd, 4096)
            if not data:  # end of input: no more commands (a last unended line is one)
                self.open = False
                if self._pending and not self._pending.endswith(b"\n"):
                    self._pending += b"\n"
            self._pending += data
        while b"\n" in self._pending or len(self._pending) > self.MAX_LINE:
            raw, _, self._pending = self._pending.partition(b"\n")
            line = raw.decode("utf-8", errors="replace")
            problem = (
                "a console line of more than 4096 bytes"
                if len(raw) > self.MAX_LINE
                else console_command(line, casino, rom_seed)
            )
            if problem:
                casino.note("error", "console", "refused", problem)


@contextlib.contextmanager
def _output(args: argparse.Namespace) -> Iterator[TextIO]:
    if args.out is None:
        yield sys.stdout
        return
    with open(args.out, "w", encoding="utf-8", newline="") as stream:
        yield stream


def _poll(args: argparse.Namespace, line: HostLine, tickets: TicketDb | None, machine: str) -> int:
    start = monotonic_ms()
    poller = HostPoller(
        args.address,
        general_interval_ms=args.interval_ms,
        response_timeout_ms=args.response_timeout_ms,
        start_ms=start,
    )
    casino = CasinoHost(
        poller, machine, lambda: int(monotonic_ms() - start), tickets, args.system_id
    )
    casino.asset = args.address if args.asset is None else args.asset
    _queue_actions(args, casino)
    with _output(args) as stream:
        return _poll_into(args, casino, line, stream, start)


def _poll_into(
    args: argparse.Namespace, casino: CasinoHost, line: HostLine, stream: TextIO, start: float
) -> int:
    stop = _Stop()
    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    console = _Console(bool(args.commands))
    sweep_now = _Stop()  # SIGUSR1: read every meter now
    previous[signal.SIGUSR1] = signal.signal(signal.SIGUSR1, sweep_now)
    writer = _Writer(stream, args.format)
    shown = 0
    next_sweep = start + (args.sweep_every or 0) * 1000

    def should_stop() -> bool:
        nonlocal shown, next_sweep
        now = monotonic_ms()
        if len(casino.records) > shown:
            writer.write(casino.records[shown:])
            shown = len(casino.records)
        console.read(casino, args.rom_seed)
        if sweep_now.signal is not None:
            sweep_now.signal = None
            casino.sweep(args.rom_seed)
        if args.sweep_every is not None and now >= next_sweep:
            next_sweep = now + args.sweep_every * 1000
            casino.sweep(args.rom_seed)
        if stop.signal is not None:
            return True
        elapsed_s = (now - start) / 1000
        if args.follow:
            return False
        if args.duration:
            return bool(elapsed_s >= args.duration)
        done = casino.idle and casino.stats["answers"] > 0
        return bool(done or elapsed_s >= args.timeout)

    try:
        run_host(line, casino, should_stop)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        writer.write(casino.records[shown:])
        writer.finish(casino, args.address, args.port)
    if stop.signal == signal.SIGINT:
        return EXIT_INTERRUPTED
    if casino.stats["answers"] == 0:
        print(
            f"turbokiosk sas host: no answer from address {args.address} on {args.port}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return 0
