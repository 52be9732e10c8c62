"""What a dealer met on the Dealer Terminal (issue 26, item 10), by touches against a real table
controller with robot seats: no "check the layout" on a virtual deck, a pause that asks for its
reason and journals it, the recall with the array and the dealer's hand apart and each seat's
wagers and results, the suit keys as symbols in their colours."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.table.core import events as e
from kiosk.table.core.core import CardSource
from kiosk.table.core.dealer_access import DealerRole
from kiosk.terminal.hostlink import pki
from tests.dealer.table import DealerTable
from tests.helpers.dealer_rig import NAMES, SEATS


@pytest.fixture
def table(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Iterator[DealerTable]:
    where = tmp_path_factory.mktemp("dt-pki") / "pki"
    pki.ensure_pki(where, ("table-T1", *NAMES))
    t = DealerTable(where, tmp_path / "t", CardSource.VIRTUAL)
    yield t
    t.close()


def test_a_virtual_round_paused_with_a_reason_and_recalled_seat_by_seat(
    table: DealerTable,
) -> None:
    t = table
    d = t.driver
    t.set_pin(DealerRole.DEALER, "2468")
    d.pin("dealer", "2468")
    t.until("every seat online", lambda s: sum(x.online for x in s.seats) == SEATS)
    # Pause asks for the reason; Pause table is off until one is chosen
    d.tap("dt:pause")
    assert d.page == "pause"
    assert d.app.pages["pause"].reason == ""
    reason = "pause:break"  # journaled as a code, shown in the DT's language (decision 0064)
    d.tap(reason)
    d.tap("pause:confirm")
    assert d.page == "round"
    t.until("paused", lambda s: s.paused)
    assert d.text("dt:phase") == "PAUSED" and "(Break)" in d.text("dt:instruction")
    paused = [ev for ev in t.controller.journal.events() if isinstance(ev, e.TablePaused)]
    assert [ev.reason for ev in paused] == [reason]  # journaled with the dealer's reason
    d.tap("dt:resume")
    t.until("resumed", lambda s: not s.paused)
    # a virtual round: nothing laid, so nothing to check against the screen
    d.tap("dt:new_game")
    t.until("every robot's bet", lambda s: s.phase == "betting" and all(x.stake for x in s.seats))
    d.tap("dt:close_bets")
    t.until("the settled round", lambda s: s.phase == "settled")
    instruction = d.app.pages["round"].instruction
    assert "Confirm" in instruction and "layout" not in instruction.lower()
    d.tap("dt:confirm")
    t.until("the round confirmed", lambda s: s.phase == "idle")
    game = t.controller.state.last_game
    record = t.controller.recall(game)
    assert record is not None
    d.tap("dt:recall")
    rows: Any = d.app.pages["recall"].ids.rounds.children
    row = next(r for r in rows if r.title == f"Game {game}")
    places = list(reversed(row.ids.places.children))
    assert [p.title for p in places] == ["Array", "Dealer's hand"]
    assert [len(p.ids.cards.cards) for p in places] == [9, 3]
    lines = [w.text for w in reversed(row.ids.seats.children)]
    assert len(lines) == SEATS
    for line, outcome in zip(lines, sorted(record.outcomes, key=lambda o: o.seat), strict=True):
        assert line.startswith(f"Seat {outcome.seat}")
        assert "Ante $" in line  # each wager by the edition's name, with its stake
        assert any(word in line for word in ("won", "lost", "push", "back"))


def test_suit_keys_are_symbols_in_their_colours() -> None:
    from kiosk.table.presentation.dealer import SUIT_KEYS

    assert [k[0] for k in SUIT_KEYS] == ["♠", "♥", "♦", "♣"]
    assert [k[2] for k in SUIT_KEYS] == ["black", "red", "red", "black"]
