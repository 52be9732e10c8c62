"""A real table controller with robot seats and room for a Dealer Terminal: the rig the dealer
API's end-to-end tests (tests/table/test_dealer_e2e.py) and the DT app's tests
(tests/dealer/table.py) stand on."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from kiosk.table.core.controller import TableController
from kiosk.table.core.core import CardSource
from kiosk.table.core.dealer_access import DealerAccess
from kiosk.table.core.robot import RobotSeat
from kiosk.table.core.server import TableServer
from kiosk.table.core.shuffler_feed import ShufflerFeed
from kiosk.terminal.core.pins import KdfParams
from kiosk.terminal.hostlink import pki
from kiosk.terminal.runtime.deck import RngDeckFactory
from rng import Csprng
from tests.helpers.table import STADIUM, config

#: scrypt made cheap for tests (the production parameters are the service menu's)
FAST_KDF = KdfParams(n=2**4, r=1, p=1)
SEATS = 3
NAMES = (*(f"seat-{n}" for n in range(SEATS)), "dealer-1")
START = 100_000


@dataclasses.dataclass
class RobotTable:
    """The controller (Stadium, its own SQLite journal), its server and the robot seats."""

    controller: TableController
    server: TableServer
    robots: list[RobotSeat]


def robot_table(
    pki_dir: Path,
    tmp: Path,
    source: CardSource,
    access: DealerAccess,
    *,
    betting_ms: int,
    decision_ms: int,
    feed: ShufflerFeed | None = None,
) -> RobotTable:
    """Start a controller drawing from ``source`` with :data:`SEATS` robot seats of
    :data:`START` credits on their own ``seat-<n>`` streams."""
    cfg = dataclasses.replace(
        config(STADIUM), card_source=source, betting_ms=betting_ms, decision_ms=decision_ms
    )
    tmp.mkdir(parents=True, exist_ok=True)
    controller = TableController(cfg, tmp / "table.sqlite3", RngDeckFactory(Csprng()))
    server = TableServer(
        controller,
        pki.credentials(pki_dir, "table-T1"),
        dealer_access=access,
        card_feed=feed,
        tick_seconds=0.01,
    ).start()
    robots = [
        RobotSeat(
            server.address,
            pki.credentials(pki_dir, f"seat-{n}"),
            "T1",
            n,
            STADIUM,
            credits=START,
            seed=n,
        )
        for n in range(SEATS)
    ]
    return RobotTable(controller, server, robots)
