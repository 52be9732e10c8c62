"""A step whose commit fails never happened: the state is the journal's, and no effect ran.

The failure is a real SQLite error in the real commit: a TEMP trigger on the runtime's own
connection aborts the INSERT of the journal row of one event kind (nothing is stored by it;
the next connection does not have it).  Every step kind of a game is tried: a note to escrow,
a note stacked, the deal, the decision (by the player and by the timer), a game settled at
the deal, the cash-out, the voucher printed, a tilt cleared.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.state import Phase, TerminalState
from kiosk.terminal.store.journal import Journal, StoreError, canonical
from kiosk.terminal.store.reader import current_state
from tests.helpers.terminal_rig import Rig


def fail_journal_rows(rig: Rig, kind: str) -> None:
    """Make every commit holding an event of ``kind`` fail inside SQLite."""
    rig.runtime.journal.db.execute(
        f"CREATE TEMP TRIGGER inject_{kind} BEFORE INSERT ON main.journal "
        f"WHEN NEW.kind = '{kind}' BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
    )


def durable(state: TerminalState) -> str:
    """The state's durable part as the journal would hold it (chips placed on the layout are
    not durable: they make the phase "wagering" in memory only), without the lockup (held in
    memory, and journaled only when the failing store and its signer still take it)."""
    snapshot = state.to_snapshot()
    snapshot.pop("critical")
    if snapshot["phase"] == Phase.WAGERING.value:
        snapshot["phase"] = (Phase.RESULT if state.round is not None else Phase.IDLE).value
    return canonical(snapshot)


def journal_state(data_dir: Path) -> str:
    """The state as recovery would rebuild it from the store now (without the lockup)."""
    journal = Journal(data_dir, readonly=True)
    try:
        return durable(current_state(journal).state)
    finally:
        journal.close()


class Watch:
    """Everything observers were told after the failure began."""

    def __init__(self, rig: Rig) -> None:
        self.events: list[e.Event] = []
        rig.runtime.subscribe(self.events.extend)


def _to_decision(rig: Rig) -> None:
    """Play rounds until one stops at the decision (the Double offer)."""
    rt = rig.runtime
    for _ in range(60):
        rt.execute(c.PlaceWager("first_down", 100))
        rt.execute(c.Deal())
        if rt.state.phase is Phase.DECISION:
            return
    raise AssertionError("no round offered a decision")


def _deal_and_settle(rig: Rig) -> None:
    """Deal; answer the decision when one is offered (the settlement is that commit)."""
    rig.runtime.execute(c.Deal())
    if rig.runtime.state.phase is Phase.DECISION:
        rig.runtime.execute(c.Decide("no_raise"))


def _credit(rig: Rig, dollars: int = 100) -> None:
    rig.insert(dollars)
    assert rig.runtime.state.credits[0] >= dollars * 100


def _nothing(rig: Rig) -> None:
    """No set-up."""


def _credit_and_decide(rig: Rig) -> None:
    _credit(rig)
    _to_decision(rig)


def _insert_note(rig: Rig) -> None:
    rig.insert(20)


def _deal(rig: Rig) -> None:
    rig.runtime.execute(c.Deal())


def _raise(rig: Rig) -> None:
    rig.runtime.execute(c.Decide("raise"))


def _let_the_timer_run_out(rig: Rig) -> None:
    rig.runtime.pump()
    rig.clock.advance(3600)
    rig.runtime.pump()


def _cash_out(rig: Rig) -> None:
    rig.runtime.cash_out()
    rig.runtime.pump()


def _raise_tilt(rig: Rig) -> None:
    rig.runtime.execute(c.RaiseTilt(code="test", reason="test"))


def _clear_tilt(rig: Rig) -> None:
    rig.runtime.execute(c.ClearTilt(code="test", by="test"))


Step = Callable[[Rig], None]
#: name: (set-up, the event kind whose commit fails, the step)
STEPS: dict[str, tuple[Step, str, Step]] = {
    "note to escrow": (_nothing, "BillEscrowAccepted", _insert_note),
    "note stacked": (_nothing, "BillStacked", _insert_note),
    "deal": (_credit, "RoundStarted", _deal),
    "decision": (_credit_and_decide, "DecisionMade", _raise),
    "decision by the timer": (_credit_and_decide, "DecisionMade", _let_the_timer_run_out),
    "settlement": (_credit, "RoundSettled", _deal_and_settle),
    "cash-out": (_credit, "CashoutStarted", _cash_out),
    "voucher printed": (_credit, "VoucherPrinted", _cash_out),
    "tilt cleared": (_raise_tilt, "TiltCleared", _clear_tilt),
}


@pytest.mark.parametrize("step", list(STEPS))
def test_a_failed_commit_leaves_the_journal_state_and_no_effect(tmp_path: Path, step: str):
    setup, kind, act = STEPS[step]
    # an operator's decision timer (none by default: decision 0054), for the timer's step
    rig = Rig(tmp_path / "terminal", TerminalConfig(decision_seconds=20))
    rt = rig.runtime
    try:
        setup(rig)
        if step in ("deal", "settlement"):
            rt.execute(c.PlaceWager("first_down", 100))
        stored = journal_state(rig.data_dir)
        assert durable(rt.state) == stored  # in step before the failure
        cashbox, printed = rig.validator.cashbox_total(), dict(rig.printer.printed())
        escrow = dict(rig.validator._mem["escrow"])
        enabled = rig.validator.enabled
        watch = Watch(rig)
        credits = list(rt.state.credits)
        fail_journal_rows(rig, kind)

        # a direct command raises after locking up; a device report does not
        with contextlib.suppress(StoreError):
            act(rig)

        state = rt.state
        assert state.critical is not None and "injected fault" in state.critical
        assert not any(type(x).__name__ == kind for x in watch.events), watch.events
        # the state is exactly the journal's: nothing of the step, the lockup journaled
        assert durable(state) == journal_state(rig.data_dir)
        if step != "settlement":  # (which may commit a deal before its failing decision)
            assert state.credits == credits
        assert kind not in {type(x).__name__ for row in rt.journal.rows() for x in [row.event]}
        # no effect: nothing stacked (a note already stacked stays unacknowledged, so it is
        # credited once the store can take it), nothing printed, the validator not enabled
        if step == "note stacked":
            assert rig.validator.cashbox_total() == cashbox + 2000
            assert rig.validator._mem["unacknowledged"] == {"0": 2000}
        else:
            assert rig.validator.cashbox_total() == cashbox
        if step == "note to escrow":
            assert rig.validator._mem["escrow"] == {"0": {"value": 2000, "stacking": False}}
        else:
            assert rig.validator._mem["escrow"] == escrow
        if step == "voucher printed":
            assert len(rig.printer.printed()) == len(printed) + 1  # on paper, not yet paid
            assert state.cashout is not None
        else:
            assert rig.printer.printed() == printed
        if step == "tilt cleared":
            assert enabled is False
        assert rig.validator.enabled is False  # the lockup stops money in
        with pytest.raises(c.CommandError):
            rt.execute(c.PlaceWager("first_down", 100))
    finally:
        rt.close()


def test_the_scratch_copy_is_independent_of_the_state(tmp_path: Path) -> None:
    """Steps computed on the scratch copy never reach the state they were copied from."""
    from kiosk.terminal.runtime.scratch import clone

    rig = Rig(tmp_path / "terminal")
    rt = rig.runtime
    try:
        _credit(rig)
        _to_decision(rig)
        before = canonical(rt.state.to_snapshot())
        copy = clone(rt.state)
        rt.core.__class__(copy).apply(
            [e.DecisionMade(at=1, seat=0, choice="raise", extra_wager=100, automatic=False)]
        )
        assert canonical(rt.state.to_snapshot()) == before
        assert canonical(copy.to_snapshot()) != before
        assert copy.config is rt.state.config  # frozen: shared
    finally:
        rt.close()
