"""A table round in the pure terminal core: no card drawn by the terminal, the controller's
cards taken, a void returns every cent (the credit self-audit holds), an own round never
voided."""

from __future__ import annotations

import pytest

from kiosk.kernel.cards import cards
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import IllegalCommandError, InvalidArgumentError
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.state import Phase, TerminalState


def run(core: TerminalCore, command: c.Command) -> list[e.Event]:
    events = core.handle(command, 1_000)
    core.apply(events)
    return events


def funded(table_game: int) -> TerminalCore:
    core = TerminalCore(TerminalState(TerminalConfig()))
    run(core, c.PowerUp("test"))
    run(core, c.InsertBill(10_000))
    run(core, c.BillStackedReport(10_000))
    run(core, c.SelectEdition("stadium-3cp"))
    run(core, c.SelectPositions((0, 1, 2)))
    run(core, c.PlaceWager("ante", 100))
    run(core, c.Deal(table_id="T1", table_game=table_game) if table_game else c.Deal())
    return core


def test_a_table_round_draws_nothing_itself_and_takes_the_controllers_cards() -> None:
    core = funded(41)
    rnd = core.state.round
    assert rnd is not None and (rnd.table_id, rnd.table_game) == ("T1", 41)
    assert core.state.credits[0] == 9_900 and core.cards_needed() == 0
    with pytest.raises(InvalidArgumentError):
        run(core, c.CardsDrawn(cards("2h 5h 9h")))  # the first deal is 9 cards
    run(core, c.CardsDrawn(cards("2h 5h 9h 3c 7d Jc Qs 4d 8s")))
    assert core.state.phase is Phase.DECISION and core.cards_needed() == 0
    assert TerminalState.from_snapshot(core.state.to_snapshot()).round == core.state.round


def test_a_voided_table_round_returns_every_cent_and_the_audit_holds() -> None:
    core = funded(41)
    run(core, c.CardsDrawn(cards("2h 5h 9h 3c 7d Jc Qs 4d 8s")))
    run(core, c.Decide("play"))
    assert core.state.credits[0] == 9_800
    (voided,) = run(core, c.VoidRound("the table voided the round"))
    assert isinstance(voided, e.RoundVoided) and voided.returned == 200
    assert core.state.credits[0] == 10_000 and core.state.phase is Phase.RESULT
    assert core.state.lifetime["voided_returns"] == 200
    assert core.state.lifetime["games_voided"] == 1
    assert core.audit_credits() is None
    with pytest.raises(IllegalCommandError):
        run(core, c.VoidRound("again"))  # nothing left in play


def test_a_round_the_terminal_deals_itself_is_never_voided() -> None:
    core = funded(0)
    assert core.cards_needed() == 9
    with pytest.raises(IllegalCommandError, match="only a table's round"):
        core.handle(c.VoidRound("no"), 1_000)
