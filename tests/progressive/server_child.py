"""A progressive controller process until it is killed (the kill campaign).

python -m tests.progressive.server_child SETTINGS.toml JOURNAL PKI_DIR ADDRESS
"""

from __future__ import annotations

import sys
from pathlib import Path

from kiosk.kernel.games import progressive
from kiosk.table.progressive import server
from kiosk.terminal.hostlink import pki
from kiosk.terminal.progressive.controller import ProgressiveController


def main(settings: str, journal: str, pki_dir: str, address: str) -> None:
    ctl = ProgressiveController(progressive.load(settings), Path(journal))
    running, _ = server.serve(ctl, address, pki.credentials(Path(pki_dir), "table-progressive"))
    print("ready", flush=True)
    running.wait_for_termination()


if __name__ == "__main__":
    main(*sys.argv[1:5])
