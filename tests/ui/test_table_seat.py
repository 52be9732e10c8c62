"""A kiosk seated at a real table controller, driven by touches (decision 0023).

The controller is the real one (``TableController`` on its journal, ``TableServer`` over mutual
TLS on loopback) in this process, on a clock the test moves on, so the betting and decision
windows end when the test says (no race with a loaded machine); the kiosk is the real app on a
real terminal with the seat runtime (:mod:`kiosk.terminal.app.seated`), offscreen.  The player bets
by touch while the table bar shows the window, answers Play or Fold by touch, sees the dealer's
steps and the result; then the controller stops: the bar turns red, the panel over the table
says why, and the chips no longer take a touch.  ``tests/app/test_table_demo.py`` runs the
controller and the kiosk as processes (``deploy/tox -e table``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.kernel.clock import wall_clock_ms
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import TableConfig
from kiosk.table.core.server import TableServer
from kiosk.terminal.app.kiosk import build_app
from kiosk.terminal.app.seated import select_table_game
from kiosk.terminal.hostlink import pki
from kiosk.terminal.presentation.table_bar import TableStep
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.seat.runtime import SeatRuntime
from kiosk.tools.screenshots import still_frame
from kiosk.tools.tour import tour_terminal
from rng import Csprng
from tests.helpers import legibility
from tests.helpers.ui_kiosk import SPEED
from ui.terminal.driver import Driver

EDITION = "stadium-3cp"


class SeatedKiosk:
    """A table controller and a kiosk app seated at it as seat 1."""

    def __init__(self, root: Path) -> None:
        self.pki = root / "pki"
        pki.ensure_pki(
            self.pki,
            (
                "table-T1",
                "seat-1",
            ),
        )
        self.offset_ms = 0
        config = TableConfig("T1", EDITION, betting_ms=9_000, decision_ms=8_000)
        self.controller = TableController(config, root / "table.sqlite3", RngDeckFactory(Csprng()))
        self.server = TableServer(
            self.controller, pki.credentials(self.pki, "table-T1"), clock=self.clock
        ).start()
        self.tour = tour_terminal(root / "kiosk")
        self.runtime = self.tour.terminal.runtime
        select_table_game(self.runtime, EDITION)  # run --table --edition
        self.seat = SeatRuntime.over_tls(self.runtime, self.server.address, "T1", 1, self.pki)
        self.tour.terminal.seat = self.seat  # as run --table seats it
        self.app: Any = build_app(self.tour.terminal, show_simulator=False, speed=SPEED)
        self.driver = Driver(self.app, (800, 480))
        self.stopped = False

    def clock(self) -> int:
        """The controller's clock: the wall clock, moved on by :meth:`later`."""
        return wall_clock_ms() + self.offset_ms

    def later(self, ms: int) -> None:
        """Let the controller's window run out."""
        self.offset_ms += ms

    def close_bets_soon(self) -> None:
        """The seat's count of the betting window reaches its last second (the seat commits the
        chips on the felt then), as it does when the window runs on the wall clock."""
        base, status = self.seat.clock, self.seat.status()
        left = status.remaining_at(base())
        self.seat.clock = lambda: base() + max(0, left - 1_000)

    def step(self) -> TableStep | None:
        view = self.app.table_view
        return None if view is None else view.step

    def wait_step(self, *steps: TableStep, timeout: float = 15.0) -> None:
        self.driver.wait(lambda: self.step() in steps, timeout, f"the table at {steps}")

    def close(self) -> None:
        self.driver.close()
        self.seat.close()
        self.runtime.close()
        if not self.stopped:
            self.server.stop(0)
        self.controller.close()


@pytest.fixture
def seated(tmp_path: Path) -> Iterator[SeatedKiosk]:
    k = SeatedKiosk(tmp_path)
    try:
        yield k
    finally:
        k.close()


def test_a_seated_kiosk_plays_a_table_round_by_touch_and_shows_the_lost_link(
    seated: SeatedKiosk,
) -> None:
    k, d, app = seated, seated.driver, seated.app
    rt = k.runtime
    bar = app.root.ids.topbar.ids.tablebar
    app.root.ids.sim.act("note", 10_000)
    d.frames(3)
    k.wait_step(TableStep.WAITING, timeout=20)  # seated at an idle table
    assert d.screen == "stadium" and app.at_table  # seated: straight to the table's game
    assert bar.headline == "Waiting for the dealer" and not bar.lost
    assert d.widget("deal").disabled and d.widget("chip:500").disabled  # no round: no bet

    # the dealer's New Game: the bar counts the betting window, the player bets by touch
    k.server.open_round()
    k.wait_step(TableStep.BETTING)
    assert (bar.headline, bar.timed) == ("Place your bets", True)
    assert 1 <= bar.seconds <= 9 and bar.total_seconds >= bar.seconds  # 9 s, as it runs
    assert bar.detail == "T1 · Game 1 · 1 seat in"
    for name in ("position:0", "position:4", "position:8", "chip:500", "spot:ante"):
        d.tap(name)
    k.close_bets_soon()  # no DEAL at a seat: the chips on the felt play as bets close
    d.wait(lambda: rt.state.round is not None and rt.state.round.table_game == 1)
    assert rt.state.round is not None and rt.state.round.table_game == 1
    assert rt.state.credits[0] == 9_500  # committed on the terminal before it was reported

    # the window runs out: the controller's cards, the decision by touch, the result
    d.wait(lambda: k.controller.state.round is not None and 1 in k.controller.state.round.bets)
    k.later(9_001)
    k.wait_step(TableStep.DECIDING)
    d.wait(lambda: app.view().offer is not None, 10, "Play or Fold")
    d.settle()
    assert bar.headline == "Make your decision" and 1 <= bar.seconds <= 8
    assert app.root.ids.sm.current_screen.seconds == bar.seconds  # the table's window
    d.tap("take")
    d.wait(lambda: rt.state.round is not None and bool(rt.state.round.settlement), 10, "result")
    k.wait_step(TableStep.ROUND_OVER)
    assert bar.headline == "Round over"
    paid = rt.state.round.settlement[0].paid
    assert rt.state.credits[0] == 10_000 - 1_000 + paid  # Ante and Play, paid by the table
    record = k.controller.state.round
    assert record is not None and list(rt.state.round.first) == list(record.first)
    k.server.close_round()
    k.wait_step(TableStep.WAITING)

    # the controller stops: bets disabled, and why, over the table
    k.server.stop(0)
    k.stopped = True
    k.wait_step(TableStep.LOST, TableStep.CONNECTING, timeout=20)
    d.wait(lambda: app.table_view.lost, 20, "the lost link")
    d.wait(lambda: app.lockup_overlay.parent is not None, 5, "the lost link's panel")
    assert bar.lost and bar.headline == "Bets disabled"
    assert app.lockup_overlay.title == "Bets disabled"
    assert app.lockup_overlay.reason == "No link to the table"
    chip = d.widget("chip:100")
    assert chip.disabled
    d.tap_widget(chip)
    assert app.session.chip != 100  # a disabled chip takes no touch
    assert not app.table_view.bets_open
    still_frame(d)  # nothing moving (a notice, a win's roll-up) while the labels are read
    readings = legibility.read(app, "table-link-lost")
    failing = [str(r) for r in readings if r.problems()]
    assert not failing, "\n".join(failing)


def test_a_seat_has_no_deal_and_says_the_tables_step_in_one_word(seated: SeatedKiosk) -> None:
    """Issue 26 item 2: chips on the felt play when bets close (no DEAL at a seat); the guide
    says what the bar says; a round the seat did not play does not show the last one's cards."""
    k, d, app = seated, seated.driver, seated.app
    rt = k.runtime
    app.root.ids.sim.act("note", 10_000)
    d.frames(3)
    k.wait_step(TableStep.WAITING, timeout=20)
    k.server.open_round()
    k.wait_step(TableStep.BETTING)
    screen = app.root.ids.sm.current_screen
    assert not screen.deal_button and d.widget("deal").width == 0  # no DEAL at a seat
    for name in ("position:0", "position:4", "position:8", "chip:500", "spot:ante"):
        d.tap(name)
    assert app.view().guide_text == "Touch DEAL to play · MIN $1.00 MAX $100.00"  # the terminal's
    assert screen.guide == "Your chips play when bets close"  # the seat's
    k.close_bets_soon()
    d.wait(lambda: rt.state.round is not None and rt.state.round.table_game == 1)
    d.frames(3)
    bar = app.root.ids.topbar.ids.tablebar
    if k.step() is TableStep.BETTING:  # (a loaded machine may have let the window run out)
        assert bar.headline == "Place your bets"
        assert screen.guide == "Your wager is in · Place your bets"  # not "Dealing…"
    assert screen.guide != "Dealing…"
    d.wait(lambda: k.controller.state.round is not None and 1 in k.controller.state.round.bets)
    k.later(9_001)
    k.wait_step(TableStep.DECIDING)
    d.wait(lambda: app.view().offer is not None, 10, "Play or Fold")
    d.settle()
    d.tap("take")
    d.wait(lambda: rt.state.round is not None and bool(rt.state.round.settlement), 10, "result")
    k.wait_step(TableStep.ROUND_OVER)
    k.server.close_round()
    k.wait_step(TableStep.WAITING)
    # the next round opens: game 1's cards and results are not shown over game 2
    assert all(d.widget(f"position:{p}").face is not None for p in range(9))
    k.server.open_round()
    k.wait_step(TableStep.BETTING)
    d.frames(3)
    assert k.seat.status().game_number == 2
    assert all(d.widget(f"position:{p}").face is None for p in range(9))
    assert screen.why == screen.guide and not screen.won  # no reasons, no result of game 1
