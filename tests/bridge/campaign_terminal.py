"""The kill campaign's terminal: a real terminal process on the bridges' links, cashing out
now and then, until it is killed (SIGKILL) or stopped (SIGTERM, in order).

    python -m tests.bridge.campaign_terminal DATA_DIR PERIPHERALS_DIR SEED
        [--host ADDR --pki DIR --terminal ID] [--drain]

With ``--host`` it reports to the accounting host (``turbokiosk host serve``, gRPC with mutual
TLS, its certificate from ``--pki``).  ``--drain``: power up, deliver the whole outbox to the
host, print ``drained`` and exit (1 and why, when it cannot within 100 s).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import signal
import sys
import time
from pathlib import Path

from kiosk.terminal.app.serial_wiring import SerialPorts, SerialSetup
from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.core.commands import IllegalCommandError
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import Phase
from kiosk.terminal.devices.pairing import key_path
from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.anchor import ANCHOR_WAIT_REASON
from kiosk.terminal.hostlink.wiring import HostEndpoint


def build(args: argparse.Namespace) -> Terminal:
    keys = args.peripherals / "keys"
    ports = SerialPorts(
        bill_validator=str(args.peripherals / "bill-validator.tty"),
        printer=str(args.peripherals / "printer.tty"),
        validator_key=key_path(keys, "bill-validator"),
        printer_key=key_path(keys, "printer"),
    )
    if args.host is None:
        return build_terminal(args.data_dir, devices=SerialSetup(ports))
    endpoint = HostEndpoint(args.host, pki.credentials(args.pki, args.terminal), args.terminal)
    config = TerminalConfig(terminal_id=args.terminal, host_timeout_seconds=5)
    return build_terminal(args.data_dir, devices=SerialSetup(ports), config=config, host=endpoint)


def drain(terminal: Terminal) -> int:
    """Deliver the outbox to the host; 0 once it is empty."""
    rt, link = terminal.runtime, terminal.host_link
    assert link is not None
    deadline = time.monotonic() + 100  # generous: a loaded machine
    while rt.journal.outbox(1) or not link.connected:
        if time.monotonic() > deadline:
            print(f"not drained: {len(rt.journal.outbox(10_000))} owed, {link.status()}")
            return 1
        rt.pump()
        time.sleep(0.02)
    print("drained", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="campaign_terminal")
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("peripherals", type=Path)
    parser.add_argument("seed", type=int)
    parser.add_argument("--host", help="the accounting host's address")
    parser.add_argument("--pki", type=Path)
    parser.add_argument("--terminal", default="TK-B")
    parser.add_argument("--drain", action="store_true")
    args = parser.parse_args(argv)
    terminal = build(args)
    runtime = terminal.runtime
    running = [True]
    signal.signal(signal.SIGTERM, lambda *_: running.__setitem__(0, False))
    rng = random.Random(args.seed)
    runtime.power_up()
    try:
        if terminal.host_link is not None:
            terminal.host_link.start()
            deadline = time.monotonic() + 100  # play waits for the host's anchor check
            while runtime.state.disabled == ANCHOR_WAIT_REASON and time.monotonic() < deadline:
                runtime.pump()
                time.sleep(0.02)
            if args.drain:
                return drain(terminal)
        print("ready", flush=True)
        while running[0]:
            runtime.pump()
            state = runtime.state
            if (
                state.phase is not Phase.CASHOUT
                and state.credits[0] >= 500
                and not state.escrow
                and not state.lockups()
                and rng.random() < 0.01
            ):
                with contextlib.suppress(IllegalCommandError):  # a note came into escrow
                    runtime.cash_out()
            time.sleep(0.01)
    finally:
        terminal.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
