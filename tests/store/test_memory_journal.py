"""The in-memory journal keeps the SQLite journal's contract: the same chain, log and replay."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.store.journal import IntegrityError, Journal, Projections
from kiosk.terminal.store.memory import MemoryJournal

AT = 1_800_000_000_000
STEPS: list[list[e.Event]] = [
    [e.PoweredUp(at=AT, software_version="1", recovered="")],
    [e.BillEscrowAccepted(at=AT + 1, seat=0, value=2000)],
    [e.BillStacked(at=AT + 2, seat=0, value=2000)],
    [
        e.TiltRaised(at=AT + 3, code="printer", reason="paper out", needs_attendant=False),
        e.DoorChanged(AT + 3, door="main", open=True),
    ],
]


def genesis() -> dict[str, object]:
    return TerminalState.genesis(TerminalConfig()).to_snapshot()


def test_the_memory_journal_chains_logs_and_rebuilds_as_the_sqlite_journal(tmp_path: Path) -> None:
    sqlite, memory = Journal(tmp_path), MemoryJournal()
    sqlite.create(genesis(), AT)
    memory.create(genesis(), AT)
    for step in STEPS:
        assert memory.commit(step) == sqlite.commit(step)
        assert memory.head() == sqlite.head()
    assert [r.event for r in memory.rows()] == [r.event for r in sqlite.rows()]
    assert memory.event_log() == sqlite.event_log()
    assert memory.event_log(kinds=["BillStacked"]) == sqlite.event_log(kinds=["BillStacked"])
    check = memory.power_up(None, genesis, AT)
    assert check.critical is None and check.state is not None and check.replayed == 5
    assert check.state.credits == [2000] and check.state.doors_open == ["main"]
    sqlite.close()


def test_the_memory_journal_rebuilds_from_its_newest_snapshot() -> None:
    memory = MemoryJournal()
    memory.create(genesis(), AT)
    memory.commit(STEPS[1])
    state = TerminalState.genesis(TerminalConfig())
    state.escrow[0] = 2000
    memory.commit(STEPS[2], Projections(snapshot={**state.to_snapshot(), "credits": [7]}))
    check = memory.power_up(None, genesis, AT)
    assert check.replayed == 0 and check.state is not None and check.state.credits == [7]


def test_a_changed_row_breaks_the_memory_journals_chain() -> None:
    memory = MemoryJournal()
    memory.create(genesis(), AT)
    for step in STEPS:
        memory.commit(step)
    row = memory._rows[2]
    memory._rows[2] = dataclasses.replace(row, body=row.body.replace("2000", "9000"))
    with pytest.raises(IntegrityError, match="journal row 3 fails its chain hash"):
        memory.verify_chain()
    check = memory.power_up(None, genesis, AT)
    assert check.state is None and check.critical == "journal row 3 fails its chain hash"
