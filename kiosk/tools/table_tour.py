"""The table screens of a seat, visited by touches: the screenshots ``31``..``38`` in
``docs/screenshots/`` and the legibility measure of them (decision 0023).

The seat runtime's status comes from :class:`TableScript` (the records the app reads every
frame, set here step by step) and the cards from the tour's scripted deck, so every picture is
the same each time.  The kiosk's own game plays the round beside the scripted steps; a kiosk
seated at a real controller (``turbokiosk run --table``) reads the same records from the seat
runtime instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from kiosk.kernel.games.table_phase import TablePhase
from kiosk.terminal.presentation.table_status import TableStatus
from kiosk.tools.tour_cards import STADIUM_CARDS, TURBO_CARDS
from ui.terminal.actions import ChooseEdition, Touch

Shot = Callable[[str], None]

#: a seat at table T1: game 42, four seats in, 15 s of betting, 10 s to decide
SEATED = TableStatus(
    table_id="T1",
    seat=3,
    connection="seated",
    reason="",
    phase=TablePhase.BETTING,
    game_number=42,
    deadline_ms=1_780_315_215_000,
    remaining_ms=12_000,
    dealer_step="New Game",
    seats_in=4,
    bets_open=True,
)
#: the steps of a round after betting, as the seat runtime reports them
DECIDING = replace(
    SEATED,
    phase=TablePhase.DECIDING,
    deadline_ms=1_780_315_230_000,
    remaining_ms=7_000,
    bets_open=False,
)
SETTLING = replace(SEATED, phase=TablePhase.DEALING, deadline_ms=0, remaining_ms=0, bets_open=False)
SETTLED = replace(SETTLING, phase=TablePhase.SETTLED)
VOIDED = replace(SETTLING, phase=TablePhase.VOIDED)
LOST = replace(
    SEATED,
    connection="lost",
    reason="the table controller does not answer (127.0.0.1:50071)",
    bets_open=False,
)
NEXT_ROUND = replace(SEATED, game_number=43, remaining_ms=14_000)


@dataclass
class TableScript:
    """The seat's table status as the app reads it (``None``: not at a table)."""

    status: TableStatus | None = None

    def __call__(self) -> TableStatus | None:
        return self.status


def visit_table(driver: Any, script: TableScript, shot: Shot, cards: Callable[[str], None]) -> None:
    """The table screens of both families, in English and in Spanish; ``cards(names)`` sets the
    next round's cards.  The app must read ``script`` (``build_app(table_status=...)``)."""
    d = driver
    app = d.app
    language = app.session.language
    credits = app.session.rt.state.credits[0]
    app.root.ids.sim.act("note", 10_000)
    d.wait(lambda: app.session.rt.state.credits[0] > credits, what="the note's credits")
    app.session.dismiss_notice()  # its "$100.00 added" is no table screen's (the clock stands)
    d.frames(3)

    # Stadium at table T1: betting, the decision, the dealer's hand, the round over
    script.status = SEATED
    app.player(ChooseEdition("stadium-3cp"))
    d.settle()
    for position in (0, 4, 8):
        d.tap(f"position:{position}")
    for name in ("chip:500", "spot:ante", "chip:100", "spot:pairs_plus"):
        d.tap(name)
    shot("31-table-stadium-betting")
    cards(STADIUM_CARDS)
    app.player(Touch.DEAL)  # no DEAL at a seat: the felt is committed as bets close
    script.status = DECIDING
    d.wait(lambda: app.view().offer is not None, what="Play or Fold")
    d.settle()
    shot("32-table-stadium-deciding")
    d.tap("take")
    script.status = SETTLING
    d.settle()
    if app.presenting:
        d.tap("win_banner")
        d.settle()
    shot("33-table-stadium-dealer-hand")
    script.status = SETTLED
    d.frames(3)
    shot("34-table-stadium-round-over")

    # the link lost: bets disabled, and why
    script.status = LOST
    d.frames(3)
    shot("35-table-link-lost")

    # in Spanish: a voided round, then Turbo's betting and its decision
    if language != "es":
        d.tap("language")
    script.status = VOIDED
    d.frames(3)
    shot("36-table-voided-es")
    script.status = NEXT_ROUND
    app.player(ChooseEdition("turbo-football"))
    d.settle()
    for name in ("chip:500", "spot:first_down", "chip:100", "spot:td"):
        d.tap(name)
    shot("37-table-turbo-betting-es")
    cards(TURBO_CARDS)
    app.player(Touch.DEAL)  # the felt committed as bets close
    script.status = replace(DECIDING, game_number=43)
    d.wait(lambda: app.view().offer is not None, what="the Double offer")
    d.settle()
    shot("38-table-turbo-deciding-es")
    d.tap("decline")
    d.settle()
    if app.presenting:
        d.tap("win_banner")
        d.settle()
    if language != "es":
        d.tap("language")
    script.status = None
    d.frames(3)
