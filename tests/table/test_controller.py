"""The controller on a real SQLite journal: journaled steps, recall, meters, recovery, voids."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import Phase, TableConfig
from kiosk.table.core.journal import JournalChainError
from kiosk.terminal.store.faults import StoreError
from tests.helpers.table import TURBO, CountingDecks, config, stadium_bet, turbo_bet


def opened(path: Path, decks: CountingDecks, cfg: TableConfig | None = None) -> TableController:
    return TableController(cfg or config(), path / "table.sqlite3", decks)


def to_decision(ctl: TableController, seats: int = 3) -> None:
    for seat in range(seats):
        ctl.execute(c.Join(seat), 0)
    ctl.execute(c.OpenRound(), 0)
    for seat in range(seats):
        ctl.execute(c.ReportWager("T1", 1, seat, stadium_bet(ante=100 + seat)), 10)
    ctl.execute(c.Tick(), 1000)


def test_the_journal_is_wal_full_and_replays_to_the_same_state(tmp_path: Path) -> None:
    decks = CountingDecks()
    ctl = opened(tmp_path, decks)
    to_decision(ctl)
    ctl.execute(c.ReportDecision("T1", 1, 0, "play"), 1100)
    ctl.execute(c.Tick(), 2000)
    assert ctl.state.phase is Phase.SETTLED and decks.dealt == 12
    ctl.execute(c.CloseRound(), 2500)
    assert ctl.journal.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert ctl.journal.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    state = ctl.state
    ctl.close()
    again = opened(tmp_path, decks)
    assert again.state == state and again.recovery.replayed > 0
    record = again.recall(1)
    assert record is not None and record == state.recall[-1]
    assert [o.choice for o in record.outcomes] == ["play", "fold", "fold"]
    assert again.state.meters.wagered == sum(o.stake for o in record.outcomes)


def test_a_kill_after_the_first_deal_keeps_the_cards_and_never_redraws(tmp_path: Path) -> None:
    decks = CountingDecks()
    ctl = opened(tmp_path, decks)
    to_decision(ctl)
    assert ctl.state.round is not None
    first = ctl.state.round.first
    ctl.close()  # the process dies here: only the journal survives
    drawn = decks.dealt
    again = opened(tmp_path, decks)
    assert again.recovery.resumed_game == 1 and again.state.phase is Phase.DECIDING
    assert again.state.round is not None and again.state.round.first == first
    again.resume(1500)
    assert decks.dealt == drawn  # nothing drawn again
    again.execute(c.Tick(), 2000)
    assert again.state.phase is Phase.SETTLED and decks.dealt == drawn + 3
    rnd = again.state.round
    assert rnd is not None and rnd.first == first and set(rnd.shared_second).isdisjoint(first)


def test_a_round_whose_cards_cannot_be_drawn_is_voided_and_returned(tmp_path: Path) -> None:
    decks = CountingDecks()
    ctl = opened(tmp_path, decks)
    for seat in range(2):
        ctl.execute(c.Join(seat), 0)
    ctl.execute(c.OpenRound(), 0)
    ctl.execute(c.ReportWager("T1", 1, 0, stadium_bet(ante=100, pairs=10)), 10)
    ctl.execute(c.ReportWager("T1", 1, 1, stadium_bet(ante=40)), 10)
    decks.fail = True
    events = ctl.execute(c.Tick(), 1000)
    void = events[-1]
    assert isinstance(void, e.RoundVoided) and void.returns == ((0, 110), (1, 40))
    assert "cards cannot be drawn" in void.reason and ctl.state.phase is Phase.IDLE
    ctl.close()
    again = opened(tmp_path, decks)
    assert again.state.meters.returned == 150 and again.state.meters.rounds_voided == 1
    record = again.recall(1)
    assert record is not None and record.voided == void.reason and record.returns == void.returns


def test_recovery_draws_what_an_interrupted_round_waits_for(tmp_path: Path) -> None:
    decks = CountingDecks()
    ctl = opened(tmp_path, decks)
    ctl.execute(c.Join(0), 0)
    ctl.execute(c.OpenRound(), 0)
    ctl.execute(c.ReportWager("T1", 1, 0, stadium_bet()), 10)
    decks.fail = True  # killed between bets closed and the draw: simulate with a failing draw
    ctl.journal.append([e.BetsClosed(1000, 1, (0,))])  # journaled, then the kill
    ctl.close()
    decks.fail = False
    again = opened(tmp_path, decks)
    assert again.state.phase is Phase.BETS_CLOSED
    again.resume(1200)
    assert again.state.phase is Phase.DECIDING and decks.dealt == 9


def test_a_changed_row_breaks_the_chain(tmp_path: Path) -> None:
    decks = CountingDecks()
    ctl = opened(tmp_path, decks)
    to_decision(ctl, 1)
    ctl.close()
    db = sqlite3.connect(tmp_path / "table.sqlite3")
    db.execute("UPDATE journal SET body = replace(body, '100', '900') WHERE kind='WagerAccepted'")
    db.commit()
    db.close()
    with pytest.raises(JournalChainError, match="hash chain"):
        opened(tmp_path, decks)


def test_a_journal_of_another_table_is_refused(tmp_path: Path) -> None:
    decks = CountingDecks()
    opened(tmp_path, decks).close()
    other = TableConfig("T2", "stadium-3cp")
    with pytest.raises(StoreError, match="journal of table 'T1'"):
        opened(tmp_path, decks, other)


def test_turbo_rounds_reconcile_the_meters_with_the_recall(tmp_path: Path) -> None:
    decks = CountingDecks()
    ctl = opened(tmp_path, decks, config(TURBO))
    for seat in range(4):
        ctl.execute(c.Join(seat), 0)
    now = 0
    for game in range(1, 6):
        ctl.execute(c.OpenRound(), now)
        for seat in range(4):
            ctl.execute(c.ReportWager("T1", game, seat, turbo_bet(100, bonus=seat * 5)), now + 1)
        ctl.execute(c.Tick(), now + 1000)
        ctl.execute(c.Tick(), now + 2000)
        ctl.execute(c.CloseRound(), now + 2001)
        now += 3000
    records = [ctl.recall(game) for game in range(1, 6)]
    assert all(r is not None for r in records)
    m = ctl.state.meters
    assert m.rounds_played == 5 and m.seat_rounds == 20
    assert m.wagered == sum(o.stake for r in records if r for o in r.outcomes)
    assert m.paid == sum(o.paid for r in records if r for o in r.outcomes)
    for r in records:
        assert r is not None
        cards = list(r.first) + [x for o in r.outcomes for x in o.cards]
        assert len(cards) == 3 + 24 == len(set(cards))
