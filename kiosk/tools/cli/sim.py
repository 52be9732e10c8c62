"""``turbokiosk sim``: the simulated bill validator, printer and shuffler, and their control client.

    turbokiosk sim bill-validator --port PATH [--create-pty] [--state-dir DIR] [--control ADDR]
                                  [--pairing-key FILE]
    turbokiosk sim printer --port PATH [--create-pty] [--state-dir DIR] [--control ADDR]
                           [--pairing-key FILE]
    turbokiosk sim shuffler --port PATH [--create-pty] [--state-dir DIR] [--control ADDR]
                            [--pairing-key FILE] [--seed N]
    turbokiosk sim id003 --port PATH [--create-pty] [--state-dir DIR] [--control ADDR]
    turbokiosk sim tcl-printer --port PATH [--create-pty] [--state-dir DIR] [--control ADDR]
    turbokiosk sim essp|ebds --port PATH [--create-pty] [--script STEPS] [--record FILE]
                             [--duration-ms N]
    turbokiosk sim ctl ADDR COMMAND [ARG...]

A simulator seals its link with its pairing key (default ``<state dir>/pairing.key``, written
by ``turbokiosk devices pair DEVICE --device-copy FILE``); without one it exits with one line.

Each simulator prints one JSON line when it is ready (its port, control address and pid) and
writes the same to ``--ready-file``.  docs/devices.md lists the control commands.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from kiosk.terminal.bridge.native import SerialSettings
from kiosk.terminal.devices.pairing import (
    SIM_KEY_NAME,
    PairingKeyError,
    fingerprint,
    load_pairing_key,
)
from kiosk.terminal.devices.sim.printer import PrinterMachine
from kiosk.terminal.devices.sim.program import Machine, SimProgram, control
from kiosk.terminal.devices.sim.shuffler import ShufflerMachine
from kiosk.terminal.devices.sim.validator import ValidatorMachine

#: the simulators of devices that speak their vendor's protocol (behind a bridge)
NATIVE = ("id003", "tcl-printer")


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, not {text!r}")
    if int(port) > 65535:
        raise argparse.ArgumentTypeError(f"port {port} is out of range (0 to 65535)")
    return host or "127.0.0.1", int(port)


def _device_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    parser.add_argument("--port", required=True, help="serial port (or pty link) path")
    parser.add_argument(
        "--create-pty",
        action="store_true",
        help="create a pseudo-terminal and link its terminal end at --port",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=Path(f"sim-{name}"),
        help="the device's non-volatile memory (and rendered vouchers)",
    )
    parser.add_argument(
        "--control",
        type=_address,
        default=("127.0.0.1", 0),
        help="control channel address (default 127.0.0.1 with a free port)",
    )
    parser.add_argument(
        "--pairing-key",
        type=Path,
        metavar="FILE",
        help=f"the device's pairing key (default <state dir>/{SIM_KEY_NAME})",
    )
    parser.add_argument("--ready-file", type=Path, help="write the ready JSON here too")
    parser.add_argument(
        "--exit-with-parent",
        action="store_true",
        help="stop when the process that started it ends (however it ends, SIGKILL included)",
    )


def _native_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    parser.add_argument("--port", required=True, help="serial port (or pty link) path")
    parser.add_argument(
        "--create-pty",
        action="store_true",
        help="create a pseudo-terminal and link its other end at --port",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=Path(f"sim-{name}"),
        help="the device's non-volatile memory (cash box, printed vouchers)",
    )
    parser.add_argument(
        "--control",
        type=_address,
        default=("127.0.0.1", 0),
        help="control channel address (default 127.0.0.1 with a free port)",
    )
    parser.add_argument("--ready-file", type=Path, help="write the ready JSON here too")
    parser.add_argument(
        "--exit-with-parent",
        action="store_true",
        help="stop when the process that started it ends (however it ends, SIGKILL included)",
    )


def _run_native(args: argparse.Namespace) -> int:
    """A native-protocol simulator: no pairing key (the device speaks its vendor's protocol)."""
    from kiosk.terminal.bridge.simprogram import DeviceMachine, NativeSimProgram

    state_dir: Path = args.state_dir
    settings: SerialSettings
    make: Callable[[int], DeviceMachine]
    if args.sim_command == "tcl-printer":
        from kiosk.terminal.bridge.tcl.device import TclPrinterDevice
        from kiosk.terminal.bridge.tcl.host import SETTINGS as TCL_SETTINGS

        settings = TCL_SETTINGS

        def make(now: int) -> DeviceMachine:
            return TclPrinterDevice(state_dir, now, print_ms=args.print_ms)

    else:
        from kiosk.terminal.bridge.id003.device import Id003Device
        from kiosk.terminal.bridge.id003.host import SETTINGS as ID003_SETTINGS

        settings = ID003_SETTINGS

        def make(now: int) -> DeviceMachine:
            return Id003Device(state_dir, now, stack_ms=args.stack_ms, accept_ms=args.accept_ms)

    program = NativeSimProgram(
        make,
        port=args.port,
        create_pty=args.create_pty,
        settings=settings,
        control=args.control,
        ready_file=args.ready_file,
        exit_with_parent=args.exit_with_parent,
    )
    return program.run()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Sub-commands of ``turbokiosk sim``."""
    from kiosk.terminal.cli.args import float_type, int_type

    sub = parser.add_subparsers(dest="sim_command", metavar="DEVICE", required=True)
    bv = sub.add_parser("bill-validator", help="simulated bill and voucher validator")
    _device_arguments(bv, "bill-validator")
    bv.add_argument(
        "--stack-ms", type=int_type(0, 60_000), default=150, help="time to stack an item"
    )
    bv.add_argument(
        "--escrow-timeout",
        type=float_type(0.001, 3600),
        default=30.0,
        help="seconds before escrow is returned",
    )
    pr = sub.add_parser("printer", help="simulated voucher printer (renders PNG vouchers)")
    _device_arguments(pr, "printer")
    pr.add_argument(
        "--print-ms", type=int_type(0, 60_000), default=200, help="time to print a voucher"
    )
    sh = sub.add_parser("shuffler", help="simulated card-reading shuffler (three-card packs)")
    _device_arguments(sh, "shuffler")
    sh.add_argument(
        "--seed",
        type=int_type(0, 2**63 - 1),
        help="seed its shuffles (a reproducible demo; default: the OS's randomness)",
    )
    id3 = sub.add_parser("id003", help="simulated JCM ID-003 bill validator (wire-exact)")
    _native_arguments(id3, "id003")
    id3.add_argument(
        "--stack-ms", type=int_type(0, 60_000), default=150, help="time to stack a note"
    )
    id3.add_argument(
        "--accept-ms",
        type=int_type(0, 60_000),
        default=200,
        help="time from the bezel to escrow",
    )
    tcl = sub.add_parser("tcl-printer", help="simulated TCL ticket printer (wire-exact)")
    _native_arguments(tcl, "tcl-printer")
    tcl.add_argument(
        "--print-ms", type=int_type(0, 60_000), default=800, help="time to print a voucher"
    )
    from kiosk.tools.cli.sim_native import add_native_simulators

    add_native_simulators(sub)  # essp, ebds: scripted (kiosk.tools.cli.sim_native)
    ctl = sub.add_parser("ctl", help="send one control command to a running simulator")
    ctl.add_argument("address", help="the simulator's control address HOST:PORT")
    ctl.add_argument("words", nargs="+", help="the command, e.g. insert 2000")


def run(args: argparse.Namespace) -> int:
    """Run a simulator, or send a control command."""
    if args.sim_command == "ctl":
        try:
            reply = control(args.address, " ".join(args.words))
        except (OSError, ValueError) as exc:
            print(f"turbokiosk sim ctl: no simulator at {args.address}: {exc}", file=sys.stderr)
            return 2
        print(reply)
        return 0 if reply.startswith("ok") else 1
    from kiosk.tools.cli import sim_native

    if args.sim_command in sim_native.NATIVE:
        return sim_native.run_native(args)
    from kiosk.terminal.cli.args import check_data_dir

    check_data_dir(args.state_dir, write=True, option="--state-dir")  # before anything is made
    if args.sim_command in NATIVE:
        return _run_native(args)
    state_dir: Path = args.state_dir
    try:
        key = load_pairing_key(args.pairing_key or state_dir / SIM_KEY_NAME)
    except PairingKeyError as exc:
        print(f"turbokiosk sim {args.sim_command}: {exc}", file=sys.stderr)
        return 2

    def make(now: int) -> Machine:
        if args.sim_command == "shuffler":
            return ShufflerMachine(now, seed=args.seed)
        if args.sim_command == "printer":
            return PrinterMachine(state_dir, now, print_ms=args.print_ms, pairing=fingerprint(key))
        return ValidatorMachine(
            state_dir,
            now,
            stack_ms=args.stack_ms,
            escrow_timeout_ms=int(args.escrow_timeout * 1000),
            pairing=fingerprint(key),
        )

    program = SimProgram(
        make,
        key=key,
        port=args.port,
        create_pty=args.create_pty,
        control=args.control,
        ready_file=args.ready_file,
        exit_with_parent=args.exit_with_parent,
    )
    return program.run()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="turbokiosk sim")
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
