"""Checked command-line values: argparse types and path checks that refuse bad input early.

Each ``*_type`` function returns an argparse ``type=`` callable: a value out of range, not a
number, NaN or infinite is refused while the arguments are parsed (one line, exit status 2),
so a command never starts on it.  :func:`check_data_dir` and :func:`output_file` look at a path
without creating or changing anything, so a command can refuse it before it writes.
"""

from __future__ import annotations

import argparse
import math
import os
import socket
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from kiosk.terminal.cli.guard import CommandLineError


class CommandModule(Protocol):
    """What a sub-command module provides."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


#: The highest TCP port.
MAX_PORT = 65535


def int_type(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An integer within ``low..high`` (either bound may be open)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip().replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        _check_range(value, low, high)
        return value

    return parse


def float_type(low: float | None = None, high: float | None = None) -> Callable[[str], float]:
    """A finite number within ``low..high`` (NaN and infinities are refused)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, not {text!r}")
        _check_range(value, low, high)
        return value

    return parse


def _check_range(value: float, low: float | None, high: float | None) -> None:
    if low is not None and high is not None and not low <= value <= high:
        raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}, not {value:,}")
    if low is not None and value < low:
        raise argparse.ArgumentTypeError(f"must be at least {low:,}, not {value:,}")
    if high is not None and value > high:
        raise argparse.ArgumentTypeError(f"must be at most {high:,}, not {value:,}")


def listen_address(text: str) -> str:
    """``HOST:PORT`` (``[IPv6]:PORT``) to listen on: a port from 1 to 65535, or 0 for a free
    port."""
    return _address(text, lowest_port=0)


def peer_address(text: str) -> str:
    """``HOST:PORT`` (``[IPv6]:PORT``) to connect to: a port from 1 to 65535."""
    return _address(text, lowest_port=1)


def _address(text: str, lowest_port: int) -> str:
    host, sep, port = text.strip().rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()):
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, e.g. 127.0.0.1:50051, not {text!r}")
    if not lowest_port <= int(port) <= MAX_PORT:
        free = "; 0 picks a free port" if lowest_port == 0 else ""
        raise argparse.ArgumentTypeError(
            f"port {int(port)} is out of range (1 to {MAX_PORT}{free})"
        )
    if not host:
        raise argparse.ArgumentTypeError(
            f"no address in {text!r}: name one, e.g. 127.0.0.1:{port} (0.0.0.0:{port}: all)"
        )
    if host.startswith("[") != host.endswith("]") or (":" in host and not host.startswith("[")):
        raise argparse.ArgumentTypeError(
            f"an IPv6 address goes in brackets ([::1]:50051): {text!r}"
        )
    if any(ch.isspace() for ch in host) or not host.isprintable():
        raise argparse.ArgumentTypeError(f"not a host name or address: {host!r}")
    return f"{host}:{int(port)}"


def check_bindable(address: str, option: str = "--listen") -> None:
    """:class:`CommandLineError` unless this process can listen on ``address`` (HOST:PORT)
    now: the name resolves and a socket binds there (it is closed again at once)."""
    host, _, port = address.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    try:
        infos = socket.getaddrinfo(
            host, int(port), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as exc:
        raise CommandLineError(f"{option} {address}: cannot resolve {host!r} ({exc})") from None
    problem = ""
    for family, kind, proto, _name, sockaddr in infos:
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(sockaddr)
            return
        except OSError as exc:
            problem = exc.strerror or str(exc)
    raise CommandLineError(f"{option} {address}: cannot listen there ({problem})")


def output_file(text: str) -> Path:
    """A file to write: its directory exists and is writable, and it is not a directory.

    Nothing is created; the command opens the file when it writes.
    """
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: is a directory, not a file")
    parent = path.parent
    if not parent.is_dir():
        problem = "does not exist" if not parent.exists() else "is not a directory"
        raise argparse.ArgumentTypeError(f"{text}: the directory {parent} {problem}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{text}: the directory {parent} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"{text}: not writable")
    return path


def output_path(text: str) -> Path:
    """A file to write whose missing directories the command creates: not a directory, and
    its nearest existing parent is a writable directory.  Nothing is created here."""
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: is a directory, not a file")
    parent = _nearest_existing(path.parent)
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{text}: the directory {parent} is not writable")
    return path


def check_data_dir(path: Path, *, write: bool, option: str = "--data-dir") -> Path:
    """``path`` when it can serve as a data directory, else :class:`CommandLineError`.

    An existing path must be a directory (readable; writable when ``write``); a missing one is
    created later by the command, so when ``write`` its nearest existing parent must be a
    writable directory.  Nothing is created here.
    """
    name = f"{option} {path}"
    if not str(path):
        raise CommandLineError(f"{option}: an empty path")
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise CommandLineError(f"{name}: {exc.strerror}") from None
    if info is None:
        if not write:
            return path
        parent = _nearest_existing(path)
        if not parent.is_dir():
            raise CommandLineError(f"{name}: {parent} is not a directory")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise CommandLineError(f"{name}: cannot be created ({parent} is read-only)")
        return path
    if not stat.S_ISDIR(info.st_mode):
        raise CommandLineError(f"{name}: not a directory")
    if not os.access(path, os.R_OK | os.X_OK):
        raise CommandLineError(f"{name}: permission denied")
    if write and not os.access(path, os.W_OK):
        raise CommandLineError(f"{name}: read-only (the terminal writes its journal there)")
    return path


def _nearest_existing(path: Path) -> Path:
    for candidate in (path.absolute(), *path.absolute().parents):
        if candidate.exists():
            return candidate
    return Path("/")


def has_numpy() -> bool:
    """Whether numpy (the ``sim`` extra: ``simulate``, ``lab-package``) can be imported."""
    try:
        import numpy  # noqa: F401 - only the commands that need it ask
    except ImportError:
        return False
    return True
