"""The kill campaign's terminal: a real terminal process on the bridges' links, cashing out
now and then, until it is killed (SIGKILL) or stopped (SIGTERM, in order).

    python -m tests.bridge.campaign_terminal DATA_DIR PERIPHERALS_DIR SEED
"""

from __future__ import annotations

import contextlib
import random
import signal
import sys
import time
from pathlib import Path

from kiosk.terminal.app.serial_wiring import SerialPorts, SerialSetup
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core.commands import IllegalCommandError
from kiosk.terminal.core.state import Phase
from kiosk.terminal.devices.pairing import key_path


def main(data_dir: Path, peripherals: Path, seed: int) -> int:
    keys = peripherals / "keys"
    ports = SerialPorts(
        bill_validator=str(peripherals / "bill-validator.tty"),
        printer=str(peripherals / "printer.tty"),
        validator_key=key_path(keys, "bill-validator"),
        printer_key=key_path(keys, "printer"),
    )
    terminal = build_terminal(data_dir, devices=SerialSetup(ports))
    runtime = terminal.runtime
    running = [True]
    signal.signal(signal.SIGTERM, lambda *_: running.__setitem__(0, False))
    rng = random.Random(seed)
    runtime.power_up()
    print("ready", flush=True)
    try:
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
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])))
