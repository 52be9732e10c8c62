"""Standalone mode: a terminal's own meter fed by the games it settles, every contribution
booked from its journal once (also across a restart), and its SAS link reporting the wins
equal to the progressive's journal."""

from __future__ import annotations

from pathlib import Path

from kiosk.kernel.games import progressive
from kiosk.kernel.games.base import WagerResult
from kiosk.terminal.app.progressive_wiring import attach_progressive
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import events as ev
from kiosk.terminal.progressive.controller import ProgressiveController
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.textui.session import PlaySession
from tests.helpers.progressive import FREQUENT
from tests.helpers.sas_rig import ADDRESS, SasRig

#: a progressive on Pairs Plus's pair (about one game in six)
PAIR = progressive.parse({**FREQUENT, "wager": "pairs_plus", "outcome": "Pair"}, "test")
GAME = ("bet ante 1", "bet pairs_plus 2", "positions 1 5 9", "deal", "play")


def _open(data: Path) -> tuple[SasRig, ProgressiveController]:
    sas = SasSettings(port="/dev/null", address=ADDRESS, wakeup="gap")
    terminal = build_terminal(data, sas=sas)
    assert terminal.sas_link is not None
    out: list[str] = []
    session = PlaySession(terminal, out.append)
    session.start()
    meter = attach_progressive(terminal, PAIR, terminal_id="TK-0001", handpay_limit=120_000)
    return SasRig(terminal, session, terminal.sas_link, lines=out), meter


def _pairs_plus(rig: SasRig) -> list[WagerResult]:
    rows = rig.terminal.runtime.journal.rows()
    return [
        r
        for row in rows
        if isinstance(row.event, ev.RoundSettled)
        for seat in row.event.seats
        for r in seat.results
        if r.spot == "pairs_plus"
    ]


def test_a_terminal_books_its_games_and_reports_its_wins(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    rig, meter = _open(data)
    rig.play("bill 100", "game stadium-3cp")
    for _ in range(60):  # until a pair: (5/6)^60, never in practice
        rig.play(*GAME)
        if meter.meters().hits:
            break
    wagers = _pairs_plus(rig)
    state = meter.meters()
    assert state.wagers == len(wagers) and state.balanced()
    assert state.contributed == sum(r.stake for r in wagers) * (30_000 + 7_000)
    assert state.hits == sum(r.outcome == "Pair" for r in wagers) == 1
    (hit,) = [h for row in meter.rounds() for h in row.hits]
    codes = rig.drain()  # the power-up exceptions, then 56 and 54 for the win
    assert codes[-2:] == [
        wire.ExceptionCode.SAS_PROGRESSIVE_LEVEL_HIT,
        wire.ExceptionCode.PROGRESSIVE_WIN,
    ]
    assert wire.from_bcd(rig.long(0x84)[2:7]) == hit.award_cents
    assert wire.from_bcd(rig.long(0x85)[2:7]) == hit.award_cents
    rig.terminal.close()
    meter.close()
    rig, meter = _open(data)  # a restart books nothing twice
    assert meter.meters() == state
    rig.play(*GAME)
    assert meter.meters().wagers == state.wagers + 1
    rig.terminal.close()
    meter.close()
