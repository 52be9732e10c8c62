"""``deploy/tox -e table``: a table to watch — a controller dealing by itself for robot seats,
and one kiosk window seated at it (decision 0023).

    python -m kiosk.tools.table_demo [--edition E] [--robots N] [--auto-deal S] [--dir DIR]
                                   [-- KIOSK OPTIONS ...]

It issues the certificates (a CA, the controller's, ``seat-0`` .. ``seat-N``) into ``DIR``
(default: a fresh temporary directory, removed at the end), starts ``turbokiosk table serve
--robots N --auto-deal S`` on a free loopback port, waits until it serves, then starts the
kiosk (``turbokiosk run --table ADDR --seat N``, in-process devices, the options after ``--``
added) as the seat after the robots.  Closing the window, or Ctrl-C, stops both in order: the
kiosk first, then the controller, whose robots print their books.  Exit status: the kiosk's
(130 after Ctrl-C); 1 with one line when the controller does not start.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

#: how long the controller may take to serve (a loaded machine imports gRPC slowly)
START_SECONDS = 60.0
#: how long each program may take to stop in order before it is made to
STOP_SECONDS = 20.0
PREFIX = "turbokiosk table demo"


class DemoError(Exception):
    """The demo could not start (one line for the console)."""


def free_port() -> int:
    """A free loopback port (the controller binds it at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def turbokiosk(*args: str) -> list[str]:
    """The command line of ``turbokiosk ARGS`` with this Python."""
    return [sys.executable, "-m", "kiosk", *args]


def parse(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    """The demo's options, and the kiosk's (after ``--``)."""
    argv = list(argv)
    kiosk_args: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, kiosk_args = argv[:at], argv[at + 1 :]
    parser = argparse.ArgumentParser(prog="python -m kiosk.tools.table_demo")
    parser.add_argument("--edition", default="stadium-3cp", help="the table's game")
    parser.add_argument("--robots", type=int, default=3, choices=range(21), metavar="N")
    parser.add_argument("--auto-deal", default="3", metavar="S", help="seconds between rounds")
    parser.add_argument("--dir", type=Path, default=None, help="keep certificates and data here")
    return parser.parse_args(argv), kiosk_args


def main(argv: Sequence[str] | None = None) -> int:
    args, kiosk_args = parse(sys.argv[1:] if argv is None else argv)
    with _root(args.dir) as root:
        try:
            return run(root, args, kiosk_args)
        except DemoError as exc:
            print(f"{PREFIX}: {exc}", file=sys.stderr, flush=True)
            return 1


@contextlib.contextmanager
def _root(chosen: Path | None) -> Iterator[Path]:
    if chosen is not None:
        chosen.mkdir(parents=True, exist_ok=True)
        yield chosen
        return
    made = Path(tempfile.mkdtemp(prefix="turbokiosk-table-"))
    try:
        yield made
    finally:
        shutil.rmtree(made, ignore_errors=True)


def run(root: Path, args: argparse.Namespace, kiosk_args: list[str]) -> int:
    """Controller, then kiosk; both stopped in order."""
    from kiosk.terminal.hostlink import pki

    seat = args.robots  # the seat after the robots'
    pki_dir = root / "pki"
    seats = tuple(f"seat-{n}" for n in range(seat + 1))
    pki.ensure_pki(pki_dir, ("table-T1", *seats), host_name=None)
    address = f"127.0.0.1:{free_port()}"
    controller = subprocess.Popen(
        turbokiosk(
            *["table", "--data-dir", str(root / "table"), "serve", "--edition", args.edition],
            *["--pki-dir", str(pki_dir), "--listen", address],
            *["--robots", str(args.robots), "--auto-deal", str(args.auto_deal)],
        ),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = _lines(controller)
        _wait_serving(controller, lines)
        print(
            f"{PREFIX}: table T1 ({args.edition}) on {address} with {args.robots} robot seats, "
            f"a round {args.auto_deal} s after the last; the kiosk is seat {seat}; data in "
            f"{root}; close the window or Ctrl-C to stop",
            flush=True,
        )
        kiosk = subprocess.Popen(
            turbokiosk(
                *["run", "--data-dir", str(root / f"seat-{seat}"), "--devices", "inprocess"],
                *["--table", address, "--seat", str(seat), "--table-pki-dir", str(pki_dir)],
                *["--edition", args.edition, *kiosk_args],
            )
        )
        code = _wait(kiosk)
    finally:
        _stop(controller)
    return code


def _lines(process: subprocess.Popen[str]) -> queue.Queue[str | None]:
    """The controller's output, line by line, echoed (its robots' books at the end)."""
    out: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            out.put(line)
            print(line, end="", flush=True)
        out.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return out


def _wait_serving(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    try:
        line = lines.get(timeout=START_SECONDS)
    except queue.Empty:
        raise DemoError(
            f"the table controller did not serve within {START_SECONDS:.0f} s"
        ) from None
    if line is None or " serving on " not in line:
        process.wait(timeout=STOP_SECONDS)
        raise DemoError(f"the table controller did not start (exit status {process.returncode})")


def _wait(process: subprocess.Popen[bytes]) -> int:
    """The kiosk's exit status; a Ctrl-C here (the kiosk has its own) waits for its stop."""
    try:
        return process.wait()
    except KeyboardInterrupt:
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.terminate()
            process.wait()
        return 130


def _stop(process: subprocess.Popen[str]) -> None:
    """SIGTERM (unless Ctrl-C stopped it already), then wait; killed if it hangs."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    except KeyboardInterrupt:
        process.kill()
        process.wait()


if __name__ == "__main__":
    raise SystemExit(main())
