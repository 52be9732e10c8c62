"""``turbokiosk devices pair DEVICE``: pair a bill validator or printer with this terminal.

    turbokiosk devices pair DEVICE [--key-dir DIR] [--device-copy FILE] [--replace]
    turbokiosk devices fingerprint DEVICE [--key-dir DIR]

``pair`` makes a fresh 256-bit key from the operating system's CSPRNG and writes the terminal's
copy to ``<key dir>/<device>.key`` (default /etc/turbokiosk/devices, mode 0640, group
turbokiosk) and, with ``--device-copy``, the device's copy (a simulator's ``pairing.key``,
mode 0600).  It prints the key's fingerprint, which the technician compares with the one the
device shows.  An existing pairing is kept unless ``--replace`` (a replaced device).
``fingerprint`` prints the fingerprint of the terminal's copy.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kiosk.terminal.devices.pairing import (
    DEFAULT_KEY_DIR,
    DEVICES,
    PairingKeyError,
    fingerprint,
    key_path,
    load_pairing_key,
    new_pairing,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Sub-commands of ``turbokiosk devices``."""
    sub = parser.add_subparsers(dest="devices_command", metavar="ACTION", required=True)
    pair = sub.add_parser("pair", help="pair a device: a new key for both ends")
    pair.add_argument("device", choices=DEVICES)
    pair.add_argument(
        "--key-dir",
        type=Path,
        default=DEFAULT_KEY_DIR,
        help=f"the terminal's copies of the pairing keys (default {DEFAULT_KEY_DIR})",
    )
    pair.add_argument(
        "--device-copy",
        type=Path,
        metavar="FILE",
        help="write the device's copy here too (a simulator's <state dir>/pairing.key)",
    )
    pair.add_argument(
        "--replace", action="store_true", help="pair anew although a key exists (replaced device)"
    )
    show = sub.add_parser("fingerprint", help="the fingerprint of a device's pairing key")
    show.add_argument("device", choices=DEVICES)
    show.add_argument("--key-dir", type=Path, default=DEFAULT_KEY_DIR)


def run(args: argparse.Namespace) -> int:
    """Pair a device, or show its key's fingerprint."""
    terminal_copy = key_path(args.key_dir, args.device)
    try:
        if args.devices_command == "pair":
            key = new_pairing(terminal_copy, args.device_copy, replace=args.replace)
            print(f"paired {args.device}: {terminal_copy} fingerprint {fingerprint(key)}")
            if args.device_copy is not None:
                print(f"device copy: {args.device_copy}")
        else:
            print(fingerprint(load_pairing_key(terminal_copy)))
    except PairingKeyError as exc:
        print(f"turbokiosk devices {args.devices_command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(
            f"turbokiosk devices {args.devices_command}: {exc.filename}: {exc.strerror}",
            file=sys.stderr,
        )
        return 2
    return 0
