"""``turbokiosk host serve --processes N``: N host processes on one port and one database.

gRPC in Python runs a server's handlers on one interpreter (one core at most).  The
supervisor forks N children before any gRPC object exists; each builds its own
:class:`~kiosk.host.accounting.server.HostServer` on the same address with ``SO_REUSEPORT``
(``grpc.so_reuseport``), so the kernel spreads new connections -- and so the terminals' link
streams -- over them.  They share the PostgreSQL records: every report is committed by the
process whose stream carries it, a command is claimed by exactly one of them (a conditional
update) and each terminal's anchor is read from the records at its hello, so a terminal may
land on any of them after a reconnection.  SQLite is refused: it has one writer, so N
processes would only queue for its lock.

The supervisor forwards SIGTERM and SIGINT to the children, starts a child that died on its
own again (its terminals reconnect to the others meanwhile) and ends when they have all
stopped.  A child whose supervisor died stops by itself.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable

from kiosk.terminal.cli.guard import CommandLineError

#: the most processes one host runs
MAX_PROCESSES = 64


def refuse_unsafe(processes: int, target: str) -> None:
    """:class:`CommandLineError` unless ``processes`` may share the records at ``target``."""
    if not 1 <= processes <= MAX_PROCESSES:
        raise CommandLineError(f"--processes: from 1 to {MAX_PROCESSES}, not {processes}")
    if processes > 1 and not target.startswith(("postgresql://", "postgres://")):
        raise CommandLineError(
            "--processes above 1 needs PostgreSQL records (--db postgresql://...): SQLite has "
            "one writer, so several host processes would only queue for its lock"
        )


def fixed_address(address: str) -> str:
    """``address`` with port 0 replaced by a free port (the children must share one)."""
    host, _, port = address.rpartition(":")
    if port != "0":
        return address
    bare = host.removeprefix("[").removesuffix("]")
    family = socket.AF_INET6 if ":" in bare else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((bare, 0))
        return f"{host}:{probe.getsockname()[1]}"


def watch_parent(parent: int, stop: Callable[[], None], seconds: float = 1.0) -> None:
    """Call ``stop`` once the process ``parent`` is no longer this process's parent."""

    def run() -> None:
        while os.getppid() == parent:
            time.sleep(seconds)
        stop()

    threading.Thread(target=run, name="host-parent-watch", daemon=True).start()


def supervise(processes: int, child: Callable[[int], int]) -> int:
    """Fork ``processes`` children running ``child(index)`` (its exit status) and supervise
    them (see the module docstring); 0 when they all stopped on request."""
    parent = os.getpid()
    children: dict[int, int] = {}  # pid -> index
    stopping = False

    def start(index: int) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: serve, then leave without the parent's clean-up
            status = 1
            try:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                watch_parent(parent, lambda: os.kill(os.getpid(), signal.SIGTERM))
                status = child(index)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
        children[pid] = index

    def forward(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    for index in range(processes):
        start(index)
    failed = 0
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        index = children.pop(pid, -1)
        if index < 0:
            continue
        if not stopping:
            code = os.waitstatus_to_exitcode(status)
            print(f"host: process {index} ended ({code}); starting it again", file=sys.stderr)
            failed += 1
            time.sleep(1.0)
            if not stopping:
                start(index)
    return 0 if not failed or stopping else 1
