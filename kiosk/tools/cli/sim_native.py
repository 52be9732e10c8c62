"""``turbokiosk sim essp|ebds``: a simulated ITL (eSSP) or CPI (EBDS) validator on a serial port.

    turbokiosk sim essp --port PATH [--create-pty] [--script "MS ACTION [ARG]; ..."]
                        [--record FILE] [--duration-ms N]
    turbokiosk sim ebds  (the same options)

The device speaks its vendor's protocol (docs/devices.md, "Native validator protocols"); the
script's steps are listed there.  ``--record`` gets the cash-box record as JSON whenever it
changes.  It prints one JSON line when ready, and the cash box as one when it stops
(SIGTERM or ``--duration-ms``).  Wired into ``turbokiosk sim`` by
:func:`add_native_simulators` and :func:`run_native`; also runs alone
(``python -m kiosk.tools.cli.sim_native essp ...``).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path
from typing import Any

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


def run_native(args: argparse.Namespace) -> int:
    """Run the simulator ``args.sim_command`` names (``essp`` or ``ebds``)."""
    from kiosk.terminal.bridge.sim import ebds, essp
    from kiosk.terminal.bridge.sim.runner import PtyMaster
    from kiosk.terminal.bridge.sim.script import ScriptError, parse_script

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
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda _sig, _frame: stop.set())  # an orderly stop
    line = PtyMaster(port) if args.create_pty else None
    print(json.dumps({"protocol": args.sim_command, "port": args.port}), flush=True)
    simulate = essp.run_simulator if args.sim_command == "essp" else ebds.run_simulator
    try:
        box = simulate(
            args.port,
            script,
            record_path=record,
            stop=stop,
            duration_ms=args.duration_ms,
            line=line,
        )
    except OSError as exc:
        raise CommandLineError(f"--port {args.port}: {exc.strerror or exc}") from None
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
