"""``turbokiosk run [--data-dir DIR] [--size WxH]``: the touchscreen kiosk.

With no hardware configured the terminal starts the bill validator and printer simulators as
their own programs on pseudo-terminals and talks to them over the serial protobuf links
(``<data dir>/peripherals.json`` gives their control addresses while it runs;
``--devices inprocess`` keeps in-process devices instead), with the SIMULATOR panel beside the
player's screen (F2 toggles it), and reports to the reference accounting host started in the
same process (``--no-host`` runs without it).  F3 is the service key.  Headless machines set
``SDL_VIDEODRIVER=offscreen`` (the tests and the screenshot command do); with no display at all
(no ``DISPLAY``, ``WAYLAND_DISPLAY`` or ``SDL_VIDEODRIVER``), or one that does not answer, the
command refuses to start (:mod:`ui.terminal.display`).  It starts by printing one line: the window,
the data directory, the keys and how to stop (:mod:`kiosk.terminal.app.startup`).  Ctrl-C stops the
kiosk in order (exit status 130).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from kiosk.kernel.interrupts import AppInterrupt
from kiosk.kernel.paths import add_data_dir_argument, data_dir_of
from kiosk.terminal.cli.args import check_data_dir, output_path, peer_address
from kiosk.terminal.cli.guard import EXIT_FAILED, EXIT_INTERRUPTED, CommandLineError
from kiosk.terminal.cli.sas_options import add_sas_arguments, sas_settings
from kiosk.terminal.cli.seat_args import add_table_arguments, table_seating
from kiosk.terminal.presentation.i18n import LANGUAGES

STARTED = time.time()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    add_data_dir_argument(parser)
    add_table_arguments(parser)
    parser.add_argument(
        "--edition", help="with --table: the table's game, selected before the seat joins"
    )
    parser.add_argument("--size", default="800x480", metavar="WxH", help="window size (800x480)")
    parser.add_argument("--fullscreen", action="store_true", help="fill the display")
    parser.add_argument("--language", choices=LANGUAGES, default="en", help="first language")
    parser.add_argument(
        "--no-simulator", action="store_true", help="hide the SIMULATOR panel (F2 shows it)"
    )
    parser.add_argument(
        "--no-host", action="store_true", help="run without the embedded accounting host"
    )
    parser.add_argument(
        "--devices",
        choices=("serial", "inprocess"),
        default="serial",
        help="serial: the simulator programs on pseudo-terminals (default); "
        "inprocess: simulated devices inside this process",
    )
    field = parser.add_argument_group(
        "field terminal", "real devices and the casino's accounting host instead of simulations"
    )
    field.add_argument("--validator-port", metavar="DEV", help="bill validator serial port")
    field.add_argument("--printer-port", metavar="DEV", help="ticket printer serial port")
    field.add_argument(
        "--device-keys",
        type=Path,
        metavar="DIR",
        help="the devices' pairing keys, DIR/bill-validator.key and DIR/printer.key "
        "(default /etc/turbokiosk/devices)",
    )
    field.add_argument("--validator-key", type=Path, metavar="FILE", help="its own key file")
    field.add_argument("--printer-key", type=Path, metavar="FILE", help="its own key file")
    field.add_argument(
        "--host",
        metavar="HOST:PORT[,HOST:PORT...]",
        help="the accounting host (mutual TLS); several: the link fails over to the next",
    )
    field.add_argument("--host-ca", type=Path, metavar="PEM", help="the host link's CA")
    field.add_argument("--host-cert", type=Path, metavar="PEM", help="this terminal's certificate")
    field.add_argument("--host-key", type=Path, metavar="PEM", help="this terminal's private key")
    field.add_argument(
        "--terminal-id",
        default=None,
        help="who this terminal is to the host (default: the certificate's common name)",
    )
    add_sas_arguments(parser)
    parser.add_argument(
        "--progressive",
        metavar="NAME_OR_FILE",
        help="a standalone progressive on this terminal's own games (docs/table.md)",
    )
    parser.add_argument(
        "--dump-screen",
        type=output_path,
        metavar="PATH",
        help="when the screen has settled, write what it shows (JSON) and a PNG beside it",
    )
    parser.add_argument(
        "--exit-after-dump", action="store_true", help="stop once the dump is written"
    )


def run(args: argparse.Namespace) -> int:
    """Start the kiosk and run until the window closes (or Ctrl-C: 130)."""
    with AppInterrupt() as interrupt:
        code = _run(args, interrupt)
    if interrupt.requested:
        raise CommandLineError("interrupted (Ctrl-C): the kiosk stopped in order", EXIT_INTERRUPTED)
    return code


def _run(args: argparse.Namespace, interrupt: AppInterrupt) -> int:
    from ui.terminal import env

    table = table_seating(args)  # a missing seat certificate: one line, before any window
    progressive = _progressive(args.progressive)
    if args.edition is not None and table is None:
        raise CommandLineError("--edition is the table's game: it goes with --table")
    try:
        size = env.parse_size(args.size)
    except ValueError as exc:
        print(f"turbokiosk run: {exc}", file=sys.stderr)
        return 2
    player = size
    if args.host is not None:
        try:
            for address in args.host.split(","):
                peer_address(address)
        except argparse.ArgumentTypeError as exc:
            raise CommandLineError(f"--host: {exc}") from None
    try:
        hardware, remote_host = field_terminal(args)
    except ValueError as exc:
        print(f"turbokiosk run: {exc}", file=sys.stderr)
        return 2
    sas = sas_settings(args)
    if hardware is None and args.devices == "serial":
        from kiosk.terminal.app.peripherals import PeripheralsError, chosen_protocols

        try:  # $TURBOKIOSK_VALIDATOR / $TURBOKIOSK_PRINTER, before any window
            chosen_protocols()
        except PeripheralsError as exc:
            raise CommandLineError(str(exc)) from None
    where = check_display()
    data_dir = check_data_dir(data_dir_of(args), write=True)
    simulator = hardware is None and not args.no_simulator
    if simulator and not args.fullscreen:  # the SIMULATOR column beside the player's screen
        size = (round(size[0] * (env.BASE_SIZE[0] + env.SIM_COLUMN) / env.BASE_SIZE[0]), size[1])
    env.prepare(size, fullscreen=args.fullscreen)
    from kiosk.terminal.app.startup import open_and_announce
    from ui.terminal.display import DisplayError

    try:
        open_and_announce(where, player, data_dir, hardware, simulator=simulator)
    except DisplayError as exc:
        raise CommandLineError(str(exc), EXIT_FAILED) from None
    from kiosk.terminal.app.kiosk import start_kiosk
    from kiosk.terminal.app.watchdog import feed_from_kivy_clock

    feed_from_kivy_clock()  # under systemd: READY=1, then watchdog pings from the event loop
    interrupt.arm()
    if interrupt.requested:  # Ctrl-C while Kivy loaded: nothing started yet
        return EXIT_INTERRUPTED
    from kiosk.terminal.app.kiosk import EmbeddedHostError
    from kiosk.terminal.app.seated import SeatingError

    try:
        return start_kiosk(
            data_dir,
            language=args.language,
            show_simulator=not args.no_simulator,
            with_host=not args.no_host,
            devices=args.devices,
            dump_path=args.dump_screen,
            exit_after_dump=args.exit_after_dump,
            started=STARTED,
            hardware=hardware,
            remote_host=remote_host,
            sas=sas,
            table=table,
            table_edition=args.edition,
            progressive=progressive,
        )
    except SeatingError as exc:  # the table's game is not offered on this terminal
        raise CommandLineError(f"--edition: {exc}") from None
    except EmbeddedHostError as exc:  # a terminal installed without the host deployable
        raise CommandLineError(str(exc)) from None


def _progressive(name: str | None) -> Any:
    """``--progressive``'s settings (None: none); one line when unusable."""
    if name is None:
        return None
    from kiosk.kernel.games import progressive
    from kiosk.kernel.games.paytable import PaytableError

    try:
        return progressive.load(name)
    except PaytableError as exc:
        raise CommandLineError(f"--progressive: {exc}") from None


def check_display() -> str:
    """Where the window will go (:func:`ui.terminal.display.choose_video_driver`);
    :class:`CommandLineError` when nothing names a display (the kiosk would run unseen)."""
    from ui.terminal.display import DisplayError, choose_video_driver

    try:
        return choose_video_driver()
    except DisplayError as exc:
        raise CommandLineError(str(exc), EXIT_FAILED) from None


def field_terminal(args: argparse.Namespace) -> tuple[Any, Any]:
    """(serial ports of real devices, remote host endpoint) from the options, each or None."""
    from kiosk.terminal.app.serial_wiring import SerialPorts
    from kiosk.terminal.devices.pairing import DEFAULT_KEY_DIR, key_path, load_pairing_key
    from kiosk.terminal.hostlink.pki import Credentials, PkiError, common_name
    from kiosk.terminal.hostlink.wiring import HostEndpoint

    hardware = None
    if args.validator_port or args.printer_port:
        if not (args.validator_port and args.printer_port):
            raise ValueError("--validator-port and --printer-port go together")
        key_dir = args.device_keys or DEFAULT_KEY_DIR
        hardware = SerialPorts(
            bill_validator=args.validator_port,
            printer=args.printer_port,
            validator_key=args.validator_key or key_path(key_dir, "bill-validator"),
            printer_key=args.printer_key or key_path(key_dir, "printer"),
        )
        for path in (hardware.validator_key, hardware.printer_key):
            load_pairing_key(path)  # a PairingKeyError is a ValueError: one line, exit 2
    elif args.device_keys or args.validator_key or args.printer_key:
        raise ValueError("pairing keys are for --validator-port/--printer-port devices")
    remote = None
    if args.host:
        files = (args.host_ca, args.host_cert, args.host_key)
        if not all(files):
            raise ValueError("--host needs --host-ca, --host-cert and --host-key")
        try:
            credentials = Credentials.load(*files)
        except PkiError as exc:
            raise ValueError(str(exc)) from exc
        try:
            terminal_id = args.terminal_id or common_name(credentials.cert)
        except PkiError as exc:
            raise ValueError(f"--host-cert {args.host_cert}: {exc}") from exc
        remote = HostEndpoint(args.host, credentials, terminal_id)
    return hardware, remote
