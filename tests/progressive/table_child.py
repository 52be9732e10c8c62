"""A table controller process feeding a linked progressive, playing until it is killed.

    python -m tests.progressive.table_child SETTINGS.toml TABLE_ID JOURNAL PKI_DIR ADDRESS [ROUNDS]

It recovers from its journal, books every settled round the progressive controller lacks
(waiting while the controller is down), prints ``ready``, then plays (``ROUNDS``: that many,
then books what waits and exits; otherwise until killed).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from kiosk.kernel.games import progressive
from kiosk.table.core.controller import TableController
from kiosk.table.progressive.client import ProgressiveUnavailableError, RemoteProgressive
from kiosk.table.progressive.feed import TableFeed
from kiosk.terminal.hostlink import pki
from kiosk.terminal.runtime.deck import RngDeckFactory
from rng import Csprng
from tests.helpers.progressive import play_rounds, table_config

HANDPAY_LIMIT = 1500


def main(
    settings_file: str, table_id: str, journal: str, pki_dir: str, address: str, *rest: str
) -> None:
    settings = progressive.load(settings_file)
    source = f"table-{table_id}"
    ctl = TableController(table_config(table_id), Path(journal), RngDeckFactory(Csprng()))
    book = RemoteProgressive(address, pki.credentials(Path(pki_dir), source), source)
    feed = TableFeed(book, source, settings, HANDPAY_LIMIT)
    while True:
        try:
            feed.catch_up(ctl.journal.events())
            break
        except ProgressiveUnavailableError:
            time.sleep(0.05)
    ctl.hooks.append(feed.after)
    print("ready", flush=True)
    if rest:
        play_rounds(ctl, table_id, int(rest[0]))
        while not feed.flush():
            time.sleep(0.05)
        ctl.close()
        return
    while True:
        play_rounds(ctl, table_id, 1)
        feed.flush()


if __name__ == "__main__":
    main(*sys.argv[1:])
