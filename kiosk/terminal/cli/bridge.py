"""``turbokiosk bridge``: a real device behind the terminal's sealed device link.

    turbokiosk bridge validator --protocol id003 --device PATH --link PATH
                                [--state-dir DIR] [--pairing-key FILE] [--control ADDR]
    turbokiosk bridge printer --protocol tcl --device PATH --link PATH ...

The bridge opens the device's serial port with its protocol's settings, creates a
pseudo-terminal for the terminal and links its end at ``--link`` (the kiosk's
``--validator-port`` / ``--printer-port``), and seals that link with the device's pairing
key (the bridge holds the device's copy: ``turbokiosk devices pair bill-validator
--device-copy FILE``).  Its journal
(SQLite, fsynced) is in ``--state-dir``.  It prints one JSON line when ready.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from kiosk.terminal.devices.pairing import PairingKeyError, fingerprint, load_pairing_key

DEFAULT_STATE = Path("/var/lib/turbokiosk-bridge")
DEFAULT_KEY_NAME = "pairing.key"


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, not {text!r}")
    return host or "127.0.0.1", int(port)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Sub-commands of ``turbokiosk bridge``."""
    from kiosk.terminal.bridge.registry import PRINTER_PROTOCOLS, VALIDATOR_PROTOCOLS
    from kiosk.terminal.cli.args import int_type

    sub = parser.add_subparsers(dest="bridge_device", metavar="DEVICE", required=True)
    bv = sub.add_parser("validator", help="a bill validator speaking its vendor's protocol")
    bv.add_argument("--protocol", required=True, choices=sorted(VALIDATOR_PROTOCOLS))
    pr = sub.add_parser("printer", help="a ticket printer speaking its vendor's protocol")
    pr.add_argument("--protocol", required=True, choices=sorted(PRINTER_PROTOCOLS))
    for p in (bv, pr):
        p.add_argument("--device", required=True, help="the device's serial port")
        p.add_argument(
            "--link", required=True, help="where to link the terminal's end of the sealed link"
        )
        p.add_argument(
            "--state-dir",
            type=Path,
            default=DEFAULT_STATE / p.prog.split()[-1],
            help="the bridge's journal",
        )
        p.add_argument(
            "--pairing-key",
            type=Path,
            metavar="FILE",
            help=f"the device's copy of the pairing key (default <state dir>/{DEFAULT_KEY_NAME})",
        )
        p.add_argument(
            "--control",
            type=_address,
            default=("127.0.0.1", 0),
            help="control channel (status) address, default 127.0.0.1 with a free port",
        )
        p.add_argument(
            "--poll-ms",
            type=int_type(10, 5000),
            help="the device's status poll while idle (default: the protocol's, 100 ms)",
        )
        p.add_argument(
            "--link-group",
            default="",
            metavar="GROUP",
            help="give this group (the kiosk's) read and write on the link's pty",
        )
        p.add_argument("--ready-file", type=Path, help="write the ready JSON here too")
        p.add_argument(
            "--exit-with-parent", action="store_true", help="stop when its parent process ends"
        )


def run(args: argparse.Namespace) -> int:
    """Run a bridge until SIGTERM."""
    from kiosk.terminal.bridge.line import DeviceLine
    from kiosk.terminal.bridge.native import SerialSettings
    from kiosk.terminal.bridge.printer import BridgePrinter
    from kiosk.terminal.bridge.program import BridgeProgram
    from kiosk.terminal.bridge.registry import PRINTER_PROTOCOLS, VALIDATOR_PROTOCOLS
    from kiosk.terminal.bridge.validator import BridgeValidator
    from kiosk.terminal.cli.args import check_data_dir
    from kiosk.terminal.devices.sim.program import Machine

    check_data_dir(args.state_dir, write=True, option="--state-dir")
    state_dir: Path = args.state_dir
    try:
        key = load_pairing_key(args.pairing_key or state_dir / DEFAULT_KEY_NAME)
    except PairingKeyError as exc:
        print(f"turbokiosk bridge {args.bridge_device}: {exc}", file=sys.stderr)
        return 2
    if args.link_group:
        import grp

        try:
            grp.getgrnam(args.link_group)
        except KeyError:
            print(
                f"turbokiosk bridge: --link-group {args.link_group}: no such group", file=sys.stderr
            )
            return 2
    settings: SerialSettings
    make: Callable[[int], Machine]
    if args.bridge_device == "validator":
        validator = VALIDATOR_PROTOCOLS[args.protocol]()
        settings = validator.settings
        if args.poll_ms is not None and hasattr(validator, "idle_poll_ms"):
            validator.idle_poll_ms = args.poll_ms

        def make(now: int) -> Machine:
            return BridgeValidator(validator, state_dir, now, pairing=fingerprint(key))

    else:
        printer = PRINTER_PROTOCOLS[args.protocol]()
        settings = printer.settings
        if args.poll_ms is not None:
            printer.idle_poll_ms = args.poll_ms

        def make(now: int) -> Machine:
            return BridgePrinter(printer, state_dir, now, pairing=fingerprint(key))

    program = BridgeProgram(
        make,
        key=key,
        port=args.link,
        create_pty=True,
        control=args.control,
        ready_file=args.ready_file,
        exit_with_parent=args.exit_with_parent,
        device=DeviceLine(args.device, settings),
        link_group=args.link_group,
    )
    return program.run()
