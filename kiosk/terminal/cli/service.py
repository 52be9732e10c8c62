"""``turbokiosk service --role ROLE [--data-dir DIR] [--read-only] [--json] [COMMAND ...]``.

The service menu over SSH.  The command turns the (simulated) service key itself, asks the
role's PIN (hidden, on a terminal; else the first line of standard input), and then runs one
COMMAND (scripting: ``turbokiosk service --role technician meters``) or reads commands until
``exit`` (``help`` lists them).  A factory PIN must be changed first: the new PIN is asked
twice (or read from the next two lines).

Which terminal it works on:

- a command that only reads, or ``--read-only``: the store is read as it stands, whether a
  terminal runs on it or not; nothing but the audit log is written;
- otherwise it takes the data directory's lock and *is* the terminal (powered up, in service
  mode while the session lasts);
- when another process holds the lock (the terminal is running), a command that changes the
  terminal is refused (exit 4) and an interactive session goes on read-only.

Exit status: 0 done, 1 refused or a failed check, 2 usage, 3 PIN refused, 4 terminal running.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

from kiosk.kernel.errors import UsageError
from kiosk.kernel.paths import add_data_dir_argument, data_dir_of
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.service.access import AccessDeniedError, PinStore, Role
from kiosk.terminal.service.backends import InProcessTerminal, ReadOnlyTerminal, ServiceTerminal
from kiosk.terminal.service.functions import FUNCTIONS
from kiosk.terminal.service.functions.base import ServiceError
from kiosk.terminal.service.session import CONSOLE_ENTRY, ServiceSession
from kiosk.terminal.service.shell import ServiceShell, command_of
from kiosk.terminal.store.journal import StoreError
from kiosk.terminal.store.lock import TerminalBusyError

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_DENIED, EXIT_BUSY = 0, 1, 2, 3, 4


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    add_data_dir_argument(parser)
    parser.add_argument(
        "--role", required=True, choices=[r.label for r in Role], help="the role to enter"
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="never become the terminal: read the store as it stands",
    )
    parser.add_argument("--json", action="store_true", help="outcomes as JSON (cents as ints)")
    parser.add_argument(
        "words",
        nargs=argparse.REMAINDER,
        metavar="COMMAND",
        help="one command, then leave (as typed at the prompt); none: an interactive session",
    )


def _stdin_lines() -> Iterator[str]:
    """Lines of standard input; bytes that are not UTF-8 arrive as lone surrogates (refused
    later in one line), whatever the locale's error handler for stdin is."""
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # a text stream put in its place
        for line in sys.stdin:
            yield line.rstrip("\n")
        return
    for data in raw:
        yield data.decode("utf-8", "surrogateescape").rstrip("\r\n")


def _prompted(prompt: str) -> Iterator[str]:
    while True:
        try:
            yield input(prompt)
        except EOFError:
            print()
            return


def _error(text: str) -> None:
    print(f"turbokiosk service: {text}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """One service session."""
    data_dir = data_dir_of(args)
    role = Role.parse(args.role)
    words: list[str] = list(args.words)
    if words[:1] == ["--"]:
        words = words[1:]
    interactive = sys.stdin.isatty()
    stdin = _stdin_lines()
    ask: Callable[[str], str] = getpass.getpass if interactive else lambda _: next(stdin, "")
    try:
        changes = False if not words or words[0] == "help" else _changes(words)
    except UsageError as exc:
        _error(str(exc))
        return EXIT_USAGE
    with ExitStack() as stack:
        try:
            terminal = _open(data_dir, args.read_only or (bool(words) and not changes), stack)
        except TerminalBusyError as exc:
            if words:
                _error(f"{exc}: changes are made from its touchscreen service menu, or stop it")
                return EXIT_BUSY
            terminal = ReadOnlyTerminal(data_dir, f"{exc}; read-only")
        except StoreError as exc:
            _error(str(exc))
            return EXIT_FAILED
        if terminal.read_only is not None and not words:
            print(f"Read-only: {terminal.read_only}", file=sys.stderr)
        session = ServiceSession(
            terminal,
            PinStore(terminal),
            via="ssh",
            progress=lambda text: print(f"({text} ...)", file=sys.stderr, flush=True),
        )
        shell = ServiceShell(session, lambda text: print(text, flush=True), ask, as_json=args.json)
        session.turn_key(True)
        stack.callback(session.turn_key, False)
        code = _enter(session, shell, role)
        if code != EXIT_OK:
            return code
        if words:
            return shell.run_words(words)
        lines = _prompted(f"service ({role.label})> ") if interactive else stdin
        print("Type 'help' for the commands, 'exit' to leave.")
        shell.loop(lines)
    return EXIT_OK


def _changes(words: list[str]) -> bool:
    """Whether the command needs this process to be the terminal."""
    function = FUNCTIONS[command_of(words).function]
    return function.writes or function.devices


def _open(path: Path, read_only: bool, stack: ExitStack) -> ServiceTerminal:
    if read_only:
        return ReadOnlyTerminal(path, "a read-only look at the store")
    terminal = build_terminal(path)
    lock = terminal.lock
    if lock is not None:
        stack.callback(lock.release)
    stack.callback(terminal.runtime.close)
    terminal.runtime.power_up()
    return InProcessTerminal(
        terminal.runtime, validator=terminal.validator, printer=terminal.printer, rng=terminal.rng
    )


def _is_text(value: str) -> bool:
    """Whether ``value`` came in as UTF-8 (undecodable bytes arrive as lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _enter(session: ServiceSession, shell: ServiceShell, role: Role) -> int:
    assert session.role is None
    if session.console_entry_allowed(role):
        print(f"{CONSOLE_ENTRY}.", file=sys.stderr)
        session.enter(role, "")
        return EXIT_OK
    pin = shell.ask_secret(f"{role.label} PIN: ")
    if not _is_text(pin):
        _error("the PIN is not UTF-8 text")
        return EXIT_USAGE
    try:
        must_change = session.enter(role, pin)
    except (AccessDeniedError, ServiceError) as exc:
        _error(str(exc))
        return EXIT_DENIED
    if not must_change:
        return EXIT_OK
    print(f"The {role.label} PIN is the factory PIN: choose a new one now.", file=sys.stderr)
    try:
        session.call("change_pin", {"new_pin": shell.ask_new_pin()})
    except (UsageError, ServiceError) as exc:
        _error(f"PIN not changed: {exc}")
        return EXIT_DENIED
    return EXIT_OK
