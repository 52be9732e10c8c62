"""``turbokiosk sim essp|ebds``: a simulated ITL (eSSP) or CPI (EBDS) validator on a serial port.

    turbokiosk sim essp --port PATH [--create-pty] [--script "MS ACTION [ARG]; ..."]
                        [--record FILE] [--duration-ms N] [--control ADDR]
                        [--ready-file FILE] [--exit-with-parent]
    turbokiosk sim ebds  (the same options)

The device speaks its vendor's protocol (docs/devices.md, "Native validator protocols"); the
script's steps are listed there.  ``--record`` gets the cash-box record as JSON whenever it
changes.  ``--control`` opens the live control channel (:mod:`kiosk.terminal.bridge.sim.control`:
``insert CENTS``, any script action, ``status``, ``quit``).  It prints one JSON line when ready
(also to ``--ready-file``), and the cash box as one when it stops (SIGTERM, ``quit`` or
``--duration-ms``).  Wired into ``turbokiosk sim`` by
:func:`add_native_simulators` and :func:`run_native`; also runs alone
(``python -m kiosk.tools.cli.sim_native essp ...``).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from kiosk.terminal.bridge.ebds.device import EbdsDevice
from kiosk.terminal.bridge.essp.device import EsspDevice
from kiosk.terminal.cli.guard import CommandLineError, OneLineParser, run_guarded

NATIVE = ("essp", "ebds")


def add_native_simulators(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``essp`` and ``ebds`` to ``turbokiosk sim``'s sub-commands."""
    from kiosk.terminal.cli.args import int_type

    for name, what in (("essp", "ITL validator over SSP/eSSP"), ("ebds", "CPI acceptor over EBDS")):
        p = sub.add_parser(name, help=f"simulated {what} (native protocol)")
        p.add_argument("--port", required=True, help="serial port (or pty link) path")
        p.add_argument(
            "--create-pty",
            action="store_true",
            help="create a pseudo-terminal and link its terminal end at --port",
        )
        p.add_argument("--script", default="", help='timed steps, e.g. "500 note 2000; 900 jam"')
        p.add_argument("--record", type=Path, metavar="FILE", help="cash-box record (JSON)")
        p.add_argument(
            "--duration-ms", type=int_type(1, 10**9), help="stop after this long (default: never)"
        )
        p.add_argument(
            "--control",
            type=_address,
            metavar="HOST:PORT",
            help="open the live control channel here (port 0: a free one)",
        )
        p.add_argument("--ready-file", type=Path, help="write the ready JSON here too")
        p.add_argument(
            "--exit-with-parent",
            action="store_true",
            help="stop when the process that started it ends (however it ends, SIGKILL included)",
        )


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, not {text!r}")
    return host or "127.0.0.1", int(port)


def _status(device: EsspDevice | EbdsDevice) -> dict[str, object]:
    """What ``status`` on the control channel answers."""
    box = device.cashbox
    accepting = device.enabled if isinstance(device, EsspDevice) else bool(device.enables)
    return {"notes": list(box.notes), "tickets": list(box.tickets), "enabled": accepting}


def _watch_parent(stop: threading.Event) -> None:
    parent = os.getppid()
    while not stop.wait(0.2):
        if os.getppid() != parent:
            stop.set()


def run_native(args: argparse.Namespace) -> int:
    """Run the simulator ``args.sim_command`` names (``essp`` or ``ebds``)."""
    from kiosk.terminal.bridge.sim import ebds, essp
    from kiosk.terminal.bridge.sim.control import ControlServer
    from kiosk.terminal.bridge.sim.runner import PtyMaster
    from kiosk.terminal.bridge.sim.script import ScriptError, ScriptStep, parse_script

    try:
        script = parse_script(args.script)
        if args.sim_command == "essp":
            for step in script:
                if step.action == "reject":
                    essp.reject_code(step.arg)
    except ScriptError as exc:
        raise CommandLineError(f"--script: {exc}") from None
    record: Path | None = args.record
    if record is not None and not record.parent.is_dir():
        raise CommandLineError(f"--record: no directory {record.parent}")
    port = Path(args.port)
    if args.create_pty and not port.parent.is_dir():
        raise CommandLineError(f"--port: no directory {port.parent}")
    if args.create_pty and port.exists() and not port.is_symlink():
        raise CommandLineError(f"--port: {args.port} exists and is not a link (not replaced)")
    if not args.create_pty and not port.exists():
        raise CommandLineError(f"--port: no such port {args.port}")
    ready_file: Path | None = args.ready_file
    if ready_file is not None and not ready_file.parent.is_dir():
        raise CommandLineError(f"--ready-file: no directory {ready_file.parent}")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda _sig, _frame: stop.set())  # an orderly stop
    if args.exit_with_parent:
        threading.Thread(target=_watch_parent, args=(stop,), daemon=True).start()
    device = EsspDevice() if args.sim_command == "essp" else EbdsDevice()
    steps: queue.Queue[ScriptStep] = queue.Queue()
    ready: dict[str, object] = {"protocol": args.sim_command, "port": args.port, "pid": os.getpid()}
    server = None
    if args.control is not None:
        try:
            server = ControlServer(args.control, steps, lambda: _status(device), stop)
        except OSError as exc:
            raise CommandLineError(f"--control: {exc.strerror or exc}") from None
        ready["control"] = server.address
    line = PtyMaster(port) if args.create_pty else None
    print(json.dumps(ready), flush=True)
    if ready_file is not None:
        tmp = ready_file.with_name(ready_file.name + ".tmp")
        tmp.write_text(json.dumps(ready), encoding="utf-8")
        tmp.replace(ready_file)
    try:
        if isinstance(device, EsspDevice):
            box = essp.run_simulator(
                args.port,
                script,
                device=device,
                record_path=record,
                stop=stop,
                duration_ms=args.duration_ms,
                control=steps,
                line=line,
            )
        else:
            box = ebds.run_simulator(
                args.port,
                script,
                device=device,
                record_path=record,
                stop=stop,
                duration_ms=args.duration_ms,
                control=steps,
                line=line,
            )
    except OSError as exc:
        raise CommandLineError(f"--port {args.port}: {exc.strerror or exc}") from None
    finally:
        stop.set()
    print(json.dumps({"notes": list(box.notes), "tickets": list(box.tickets)}), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m kiosk.tools.cli.sim_native essp|ebds ...``."""
    parser = OneLineParser(prog="turbokiosk sim")
    sub = parser.add_subparsers(dest="sim_command", metavar="DEVICE", required=True)
    add_native_simulators(sub)
    args = parser.parse_args(argv)
    return run_guarded("turbokiosk sim", lambda: run_native(args))


if __name__ == "__main__":
    sys.exit(main())
