"""A real table controller for the Dealer Terminal's tests: the table server (gRPC, mutual
TLS on loopback, its SQLite journal, the certified deck or the dealer's cards) with robot
seats on their own streams, and the DT app on its own ``dealer-1`` link, driven by touches."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from kiosk.table.core.core import CardSource
from kiosk.table.core.dealer_access import DealerAccess, DealerRole
from kiosk.table.core.dealer_link import DealerLink
from kiosk.table.core.dealer_records import TableSnapshot
from kiosk.table.core.robot import RobotSeat
from kiosk.table.core.shuffler_feed import ShufflerFeed
from kiosk.terminal.hostlink import pki
from tests.helpers.dealer_rig import FAST_KDF, robot_table
from ui.table.app import DealerApp
from ui.table.driver import DealerDriver
from ui.terminal.driver import DriverError


class DealerTable:
    """A real controller with robot seats, and the DT on it."""

    def __init__(
        self,
        pki_dir: Path,
        tmp: Path,
        source: CardSource,
        *,
        betting_ms: int = 20_000,
        feed: ShufflerFeed | None = None,
    ) -> None:
        self.access = DealerAccess(FAST_KDF)
        rig = robot_table(
            pki_dir, tmp, source, self.access, betting_ms=betting_ms, decision_ms=3_000, feed=feed
        )
        self.controller, self.server, self.robots = rig.controller, rig.server, rig.robots
        self.link = DealerLink(self.server.address, pki.credentials(pki_dir, "dealer-1"))
        self.app = DealerApp(self.link)
        self.driver = DealerDriver(self.app, (1280, 800))

    def until(self, what: str, check: Callable[[TableSnapshot], bool], timeout: float = 15) -> None:
        """Run the DT's frames until its view of the table satisfies ``check``."""

        def seen() -> bool:
            snap = self.link.snapshot()
            return snap is not None and check(snap)

        try:
            self.driver.wait(seen, timeout, what)
        except DriverError as exc:
            snap = self.link.snapshot()
            page = self.app.pages["round"]
            raise DriverError(f"{exc}; the DT says {page.message!r}; the view: {snap}") from exc
        self.app.refresh(force=True)
        self.driver.frames(2)

    def wait_robots(self, done: Callable[[RobotSeat], bool]) -> None:
        end = time.monotonic() + 15
        while not all(done(r) for r in self.robots):
            assert time.monotonic() < end, [r.summary() for r in self.robots]
            self.driver.frames(1)

    def first_sign_in(self, role: str, factory: str, own: str) -> None:
        """A role's first sign-in: its factory PIN, then its own PIN typed twice."""
        d = self.driver
        d.pin(role, factory)
        assert d.page == "signin" and d.app.pages["signin"].mode == "new"
        for _ in range(2):
            for digit in own:
                d.tap(f"pin:{digit}")
            d.tap("pin:ok")
        assert d.page == "round", d.app.pages["signin"].message

    def set_pin(self, role: DealerRole, pin: str) -> None:
        """A role's own PIN journaled on the controller beforehand (its factory PIN changed)."""
        with self.server.lock:
            now = self.server.clock()
            self.controller.record(
                self.access.change_pin(self.controller.state, role, pin, "dealer-1", now)
            )

    def close(self) -> None:
        self.driver.close()
        self.link.close()
        for robot in self.robots:
            robot.close()
        self.server.stop(0)
        self.controller.close()
