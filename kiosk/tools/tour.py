"""A scripted visit of every screen, by touches: the screenshots in ``docs/screenshots/``.

The cards of the visit come from a scripted deck (named cards, so every screenshot shows the
same hands: a raise offer, a Super TD, a Stadium pair against a king); everything else is the
real terminal — its journal, its devices, its lockups.  Play never uses this deck:
``turbokiosk run`` deals from the certified RNG.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.kernel import cards
from kiosk.kernel.clock import wall_clock_ms
from kiosk.terminal.app.wiring import InProcessDeviceSet, Terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import EditionConfig, TerminalConfig
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.port import sqlite_journal
from kiosk.tools.table_tour import TableScript, visit_table
from kiosk.tools.tour_cards import STADIUM_CARDS as STADIUM_CARDS
from kiosk.tools.tour_cards import TURBO_CARDS as TURBO_CARDS
from kiosk.tools.tour_faults import visit_faults
from rng import BackgroundCycler, Csprng

#: the editions on show: every Turbo theme and Stadium
TOUR_CONFIG = TerminalConfig(
    editions=(
        EditionConfig("turbo-football"),
        EditionConfig("icon-v2"),
        EditionConfig("turbo-hockey"),
        EditionConfig("turbo-basketball"),
        EditionConfig("turbo-baseball"),
        EditionConfig("stadium-3cp"),
    ),
    handpay_limit=10_000,
)
#: a big TD for the handpay screenshot
HANDPAY_CARDS = "Ks Qs Js As Ts 9s 8s 7s 6s"
#: the fixed instant of a deterministic visit (screenshots): 2026-06-01 12:00:00 UTC
TOUR_EPOCH_MS = 1_780_315_200_000
#: the seed of a deterministic visit's validation numbers
TOUR_SEED = 13


class ScriptedDeck:
    """Deals the named cards first, then the rest of the deck in code order."""

    def __init__(self, script: str, excluded: frozenset[int]) -> None:
        first = [x for x in cards.cards(script) if x not in excluded]
        self._cards = first + [x for x in range(52) if x not in excluded and x not in first]

    def deal(self, n: int) -> tuple[int, ...]:
        """The next ``n`` cards."""
        out, self._cards = tuple(self._cards[:n]), self._cards[n:]
        return out


@dataclass
class TourTerminal:
    """A terminal whose next round deals ``script``, and a player's clock the visit can move on
    (the session clock and its reminder)."""

    terminal: Terminal
    script: str = ""
    offset_ms: int = 0
    fixed: bool = False  # time stands still at TOUR_EPOCH_MS (moved on only by later())
    #: the table's status for an app seated at a table (``build_app(table_status=tour.table)``)
    table: TableScript = field(default_factory=TableScript)

    def player_clock(self) -> int:
        """Epoch milliseconds, moved on by :meth:`later`."""
        return (TOUR_EPOCH_MS if self.fixed else wall_clock_ms()) + self.offset_ms

    def later(self, seconds: int) -> None:
        """Let time pass for the player's session."""
        self.offset_ms += seconds * 1000


def tour_terminal(
    data_dir: Path,
    config: TerminalConfig = TOUR_CONFIG,
    clock: Callable[[], int] | None = None,
    *,
    fixed: bool = False,
) -> TourTerminal:
    """A powered-up terminal on ``data_dir`` with in-process devices and a scripted deck
    (``clock``: epoch milliseconds, the wall clock by default).

    ``fixed`` (the screenshots): the terminal's and the player's clocks stand still at
    :data:`TOUR_EPOCH_MS` until :meth:`TourTerminal.later`, and validation numbers come from
    :data:`TOUR_SEED`, so the same visit draws the same pixels every time.
    """
    rng = Csprng()
    holder = TourTerminal.__new__(TourTerminal)
    holder.script = ""
    holder.offset_ms = 0
    holder.fixed = fixed
    holder.table = TableScript()
    randbelow = random.Random(TOUR_SEED).randrange if fixed else rng.randbelow
    if fixed:
        clock = holder.player_clock
    validator = InProcessBillValidator(data_dir / "devices")
    printer = InProcessPrinter(data_dir / "devices")
    runtime = TerminalRuntime(
        data_dir,
        journal=sqlite_journal(data_dir),
        deck_factory=lambda excluded: ScriptedDeck(holder.script, excluded),
        validator=validator,
        printer=printer,
        validation_numbers=LocalValidationNumbers(randbelow),
        config=config,
        rng_health=lambda: rng.failure,
        clock=clock if clock is not None else wall_clock_ms,
    )
    holder.terminal = Terminal(
        runtime, InProcessDeviceSet(validator, printer), rng, BackgroundCycler(rng)
    )
    runtime.power_up()
    return holder


Shot = Callable[[str], None]


def _win_banner(d: Any, touch: str, name: str, shot: Shot) -> None:
    """Touch ``touch`` (the decision that ends the round), shoot the win banner once the meters
    have rolled up, then touch the banner away and wait for the table."""
    layer = d.app.win_layer
    layer.hold_banner = True  # the banner waits for the picture
    try:
        d.tap(touch)
        d.wait(lambda: layer.active and layer.rolled_up, 20, "the win rolled up")
        shot(name)
        d.tap("win_banner")
    finally:
        layer.hold_banner = False
    d.settle()


def _help_part(d: Any, part: str, name: str, shot: Shot) -> None:
    """Scroll the help screen to its pay tables or its worked example, and shoot it."""
    d.app.root.ids.sm.get_screen("help").show_part(part)
    d.frames(3)
    shot(name)


def visit(driver: object, tour: TourTerminal, shot: Shot) -> None:
    """Every screen, in a player's order; ``shot(name)`` is called on each."""
    from ui.terminal.driver import Driver

    assert isinstance(driver, Driver)
    d = driver
    app = d.app
    sim = app.root.ids.sim
    d.settle()
    shot("01-attract")
    d.tap_at(app.root.width / 2, app.root.height / 2)
    sim.act("note", 10_000)
    d.frames(3)
    d.wait(lambda: d.screen == "menu", what="the menu")
    shot("02-menu")
    tour.later(5)  # the note's notice has gone: the guide line shows below
    d.frames(3)

    # Turbo Football: wagers, the Double offer, the Super TD
    d.tap("game:turbo-football")
    for name in ("chip:500", "spot:first_down", "spot:long_pass", "chip:100"):
        d.tap(name)
    for name in ("spot:field_goal", "spot:td", "spot:nine_card_bonus"):
        d.tap(name)
    shot("03-turbo-wagers")
    tour.script = TURBO_CARDS
    d.tap("deal")
    d.wait(lambda: app.view().offer is not None, what="the Double offer")
    d.settle()
    shot("04-turbo-double-offer")
    _win_banner(d, "take", "24-turbo-win-banner", shot)
    shot("05-turbo-result")

    # help and recall
    d.tap("help")
    shot("06-help-turbo")
    _help_part(d, "pays", "25-help-turbo-pays", shot)
    _help_part(d, "example", "26-help-turbo-example", shot)
    d.tap("back")
    d.tap("history")
    shot("07-history-turbo")
    d.tap("history_card:0")  # a touch on the recalled cards shows them large
    d.frames(3)
    shot("59-history-zoom")
    d.tap_at(app.root.width / 2, app.root.height / 2)  # any touch closes it
    d.frames(2)
    d.tap("back")

    # Stadium: positions, wagers on the hand and on the lines, Play, the result
    d.tap("games")
    d.tap("game:stadium-3cp")
    for position in (0, 4, 8):
        d.tap(f"position:{position}")
    for name in ("chip:500", "spot:ante", "chip:100", "spot:pairs_plus", "spot:six_card_bonus"):
        d.tap(name)
    shot("08-stadium-positions")
    d.tap("tab:lines")
    d.tap("spot:pairs_plus_row_3")
    d.tap("spot:six_card_bonus_col_1")
    shot("09-stadium-rows-columns")
    d.tap("tab:hand")
    tour.script = STADIUM_CARDS
    d.tap("deal")
    d.wait(lambda: app.view().offer is not None, what="Play or Fold")
    d.settle()
    shot("10-stadium-play-or-fold")
    _win_banner(d, "take", "27-stadium-win-banner", shot)
    shot("11-stadium-result")
    d.tap("help")
    shot("12-help-stadium")
    _help_part(d, "pays", "28-help-stadium-pays", shot)
    _help_part(d, "example", "29-help-stadium-example", shot)
    d.tap("back")
    # the next round begun: the picker is nine empty numbered positions again
    d.tap("position:1")
    shot("60-stadium-next-round")
    d.tap("position:1")

    # the player's language
    d.tap("language")
    d.tap("history")
    shot("13-history-stadium-es")
    d.tap("back")
    d.tap("help")
    _help_part(d, "example", "30-help-stadium-example-es", shot)
    d.tap("back")
    d.tap("games")
    d.tap("game:turbo-hockey")
    d.tap("spot:first_down")
    shot("14-hockey-es")
    d.tap("clear")
    d.tap("language")

    # responsible gaming: the session clock's reminder
    d.tap("session")
    shot("15-reminder-setting")
    d.tap("reminder:30")
    tour.later(30 * 60)  # half an hour of play later
    d.wait(lambda: app.reminder_dialog.parent is not None, 5, "the reminder")
    shot("16-reminder")
    d.tap("reminder_ok")

    # lockups, from the simulated devices and the host
    sim.act("door")
    d.frames(3)
    shot("17-lockup-door")
    sim.act("door")
    sim.act("paper")
    d.frames(4)
    shot("18-lockup-printer")
    sim.act("paper")
    sim.act("host")
    d.frames(3)
    shot("19-lockup-disabled")
    sim.act("host")
    d.frames(3)

    # a jackpot above the handpay limit
    d.tap("games")
    d.tap("game:turbo-football")
    for name in ("chip:500", "spot:first_down", "spot:td", "spot:td"):
        d.tap(name)
    tour.script = HANDPAY_CARDS
    d.tap("deal")
    d.wait(lambda: app.session.rt.state.phase.value == "result", what="the jackpot")
    d.settle()
    shot("20-lockup-handpay")
    sim.act("attendant")
    d.frames(3)

    # cash-out: the voucher
    d.tap("cash_out")
    d.settle()
    shot("21-cashout-voucher")
    d.tap("voucher_ok")

    # the developer's SIMULATOR panel (not a player's screen)
    app.simulator_visible = True
    d.frames(3)
    shot("22-simulator-panel")
    app.simulator_visible = False

    # each device fault's tilt (and paper low's notice), in both languages
    visit_faults(d, shot)

    # a seat at a table (decision 0023), when the app reads the tour's table script
    if app.table_status is tour.table:
        visit_table(d, tour.table, shot, lambda names: setattr(tour, "script", names))

    # last: a critical memory error (the terminal stays locked for good)
    app.session.rt.execute(c.ReportCritical(reason="journal hash chain broken at row 1234"))
    d.frames(3)
    shot("23-lockup-critical-memory")
