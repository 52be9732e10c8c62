"""The runtime takes the store it is given: a whole game cycle on the in-memory journal.

The runtime is built with a :class:`~kiosk.terminal.store.memory.MemoryJournal` (no SQLite file, no
fsync): notes in, a round, a cash-out, then a power cut (a second runtime on the same store)
that finds every credit, meter and event where the first left them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.faults import StoreError
from kiosk.terminal.store.memory import MemoryJournal
from rng import Csprng
from tests.helpers.rng_seeds import shake_reader
from tests.terminal.pure_world import field_of


def runtime_on(store: MemoryJournal, base: Path) -> TerminalRuntime:
    # A reproducible entropy source: about one Turbo deal in twenty settles at once with no
    # offer, and this test means to take the offer (seed 0 deals one).
    rng = Csprng(entropy_read=shake_reader(b"memory-store-0"))
    runtime = TerminalRuntime(
        base,
        journal=lambda: store,
        deck_factory=RngDeckFactory(rng),
        validator=InProcessBillValidator(base / "devices"),
        printer=InProcessPrinter(base / "devices"),
        validation_numbers=LocalValidationNumbers(rng.randbelow),
    )
    runtime.power_up()
    return runtime


def test_a_runtime_plays_and_recovers_on_the_memory_store(tmp_path: Path) -> None:
    store = MemoryJournal()
    rt = runtime_on(store, tmp_path)
    assert rt.store is store and not (tmp_path / "terminal.sqlite3").exists()
    validator = rt.validator
    assert isinstance(validator, InProcessBillValidator) and validator.insert(2000)
    rt.pump()
    rt.execute(c.PlaceWager("first_down", 100))
    rt.execute(c.Deal())
    assert rt.state.round is not None and 0 in rt.state.round.offers
    offer = rt.state.round.offers[0]
    rt.execute(c.Decide(field_of(offer, "default")))
    assert rt.core.audit_credits() is None
    credits = rt.state.credits[0]
    kinds = [type(row.event) for row in store.rows()]
    assert {e.BillStacked, e.RoundStarted, e.RoundSettled} <= set(kinds)
    assert store.recall(1)[0]["game_number"] == 1
    # a power cut: nothing closed; a second runtime powers up on the same store
    again = runtime_on(store, tmp_path)
    assert again.state.credits[0] == credits
    before, after = rt.meters.as_dict(), again.meters.as_dict()
    assert after.pop("power_resets") == before.pop("power_resets") + 1
    assert after == before
    assert store.verify_chain() == len(list(store.rows()))
    with pytest.raises(StoreError, match="not a SQLite journal"):
        _ = again.journal


def test_a_store_that_cannot_be_opened_locks_the_runtime_up(tmp_path: Path) -> None:
    def broken() -> MemoryJournal:
        raise StoreError("the store is on fire")

    rng = Csprng()
    rt = TerminalRuntime(
        tmp_path,
        journal=broken,
        deck_factory=RngDeckFactory(rng),
        validator=InProcessBillValidator(tmp_path / "devices"),
        printer=InProcessPrinter(tmp_path / "devices"),
        validation_numbers=LocalValidationNumbers(rng.randbelow),
    )
    report = rt.power_up()
    assert report.critical is not None and "the store is on fire" in report.critical
    assert rt.state.critical is not None
