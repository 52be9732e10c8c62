"""The command line's error contract: one line on standard error and an exit status.

Whatever goes wrong, ``turbokiosk`` never shows a traceback to the person at the keyboard
(decision 0011):

- a bad argument is refused by :class:`OneLineParser` in one line, before the command runs;
- a command refuses bad input it can only judge when it runs by raising
  :class:`CommandLineError` (or :class:`~kiosk.kernel.bounded_read.InputFileError`), and
  :func:`run_guarded` prints the message;
- the known failures of the environment (a file named on the command line that cannot be
  read or written, a store that cannot be used, a data directory another process runs) are one
  line each;
- Ctrl-C is one line and :data:`EXIT_INTERRUPTED`;
- anything else is a fault of the program: one line naming the exception and the file that
  holds the full traceback (``TURBOKIOSK_DEBUG=1`` prints the traceback instead).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from kiosk.kernel.bounded_read import InputFileError

EXIT_OK = 0
#: A check failed (``audit``, ``simulate``, a ``soak`` invariant) or the environment refused
#: an operation the command was entitled to (a write that failed, a database that is down).
EXIT_FAILED = 1
#: Bad input: an argument, or a file or directory named on the command line.
EXIT_USAGE = 2
#: The terminal's store cannot be used (the critical memory lockup) or the RNG failed.
EXIT_LOCKED = 3
#: Another process is the terminal of the data directory.
EXIT_BUSY = 4
#: A fault of the program itself (``EX_SOFTWARE``); the traceback is in a file.
EXIT_INTERNAL = 70
#: Ended by Ctrl-C (SIGINT), after an orderly stop: 128 + 2, as a shell reports it.
EXIT_INTERRUPTED = 130

#: Set to ``1`` to see the full traceback of an internal error on standard error.
DEBUG_ENV = "TURBOKIOSK_DEBUG"
#: Where an internal error's traceback is written (default: the temporary directory).
CRASH_DIR_ENV = "TURBOKIOSK_CRASH_DIR"


class CommandLineError(Exception):
    """Input a command refuses when it runs: the message is the whole line shown."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class OneLineParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose errors are one line (no usage block).

    Sub-command parsers made with ``add_subparsers`` are of the same class.
    """

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(EXIT_USAGE, f"{self.prog}: error: {text} (see {self.prog} --help)\n")


def one_line(text: str) -> str:
    """``text`` on one line (newlines and runs of blanks folded)."""
    return " ".join(str(text).split())


def describe_os_error(exc: OSError) -> str:
    """``PATH: what`` for an :class:`OSError` (the path when it names one)."""
    reason = exc.strerror or exc.__class__.__name__
    made_on_a_file = isinstance(exc, FileExistsError) and not os.path.isdir(exc.filename or "")
    if made_on_a_file and exc.filename is not None:  # a directory was to be made where a file is
        reason = "exists and is not a directory"
    if exc.filename is not None:
        return f"{os.fsdecode(exc.filename)}: {reason}"
    return one_line(str(exc)) or reason


def run_guarded(prog: str, command: Callable[[], int]) -> int:
    """``command()``'s exit status; every exception becomes one line on standard error."""
    try:
        return command()
    except KeyboardInterrupt:
        _say(prog, "interrupted (Ctrl-C)")
        return EXIT_INTERRUPTED
    except CommandLineError as exc:
        _say(prog, str(exc))
        return exc.exit_code
    except InputFileError as exc:
        _say(prog, str(exc))
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into `head` and the like
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:
        known = _known(exc)
        if known is not None:
            message, code = known
            _say(prog, message)
            return code
        _say(prog, _internal_error(exc))
        return EXIT_INTERNAL


def _known(exc: Exception) -> tuple[str, int] | None:
    """The line and exit status of a failure the command line knows, else None."""
    # imported here: a technician's `turbokiosk par-sheet` does not load the store
    from kiosk.terminal.store.journal import StoreError
    from kiosk.terminal.store.lock import TerminalBusyError

    if isinstance(exc, TerminalBusyError):
        return one_line(str(exc)), EXIT_BUSY
    if isinstance(exc, StoreError):
        return f"store: {one_line(str(exc))}", EXIT_LOCKED
    if isinstance(exc, sqlite3.Error):  # named as the store fault it is (decision 0007)
        from kiosk.terminal.store.faults import describe

        return f"store: {describe(exc)}", EXIT_LOCKED
    if isinstance(exc, OSError):
        return describe_os_error(exc), EXIT_FAILED
    return None


def _internal_error(exc: BaseException) -> str:
    """Write the traceback where :data:`DEBUG_ENV` or a crash file says; the line to show."""
    summary = f"internal error: {exc.__class__.__name__}: {one_line(str(exc))}".rstrip(": ")
    text = "".join(traceback.format_exception(exc))
    if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
        sys.stderr.write(text)
        return summary
    try:
        where = Path(os.environ.get(CRASH_DIR_ENV) or tempfile.gettempdir())
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        fd, name = tempfile.mkstemp(prefix=f"turbokiosk-crash-{stamp}-", suffix=".txt", dir=where)
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(text)
    except OSError:
        return f"{summary} (set {DEBUG_ENV}=1 to see the traceback)"
    return f"{summary} (traceback in {name}; {DEBUG_ENV}=1 shows it here)"


def _say(prog: str, message: str) -> None:
    with contextlib.suppress(OSError):  # standard error closed: the exit status still tells
        print(f"{prog}: {one_line(message)}", file=sys.stderr, flush=True)
