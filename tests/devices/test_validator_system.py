"""The bill validator end to end (driver, device firmware, terminal runtime, host), fuzzed.

Random sessions of notes and vouchers, faults, cables pulled, the validator and the terminal
killed at any point: afterwards every credit is backed by exactly one item in the cash box,
every voucher in the cash box was credited once and redeemed at most once with the host,
everything else went back to the player, and nothing is left in escrow.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.terminal.core import events as e
from tests.helpers.validator_system import ACTIONS, System

sessions = st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), max_size=60)


def run_session(base: Path, actions: list[tuple[str, int]]) -> System:
    system = System(base)
    try:
        for action, arg in actions:
            system.step(action, arg)
        system.settle()
        system.check()
    finally:
        system.runtime.close()
    return system


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=sessions)
def test_random_sessions_credit_exactly_once(tmp_path_factory, actions):
    run_session(tmp_path_factory.mktemp("bv"), actions)


@pytest.mark.slow
@settings(
    max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), max_size=150))
def test_random_sessions_credit_exactly_once_long(tmp_path_factory, actions):
    run_session(tmp_path_factory.mktemp("bv"), actions)


def test_note_in_escrow_stacked_then_credited(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    assert s.control("insert", "2000").startswith("ok escrow")
    s.runtime.pump()  # InsertBill -> journaled BillEscrowAccepted -> Stack sent
    assert s.runtime.state.escrow == {0: 2000} and s.runtime.state.credits == [0]
    s.clock.advance(150)
    s.runtime.pump()  # stacked -> credited
    assert s.runtime.state.credits == [2000] and s.runtime.state.escrow == {}
    s.runtime.pump()  # acknowledges the stack
    assert s.machine.mem.data["unacked"] == []
    s.runtime.close()


def test_terminal_killed_between_escrow_and_stack_credits_once(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    s.control("insert", "2000")
    (insert,) = s.driver.poll()
    s.runtime.execute(insert)  # escrow journaled, Stack in flight ...
    assert s.runtime.state.escrow == {0: 2000}
    s.kill_terminal()  # ... and lost: the note is returned at power-up
    s.settle()
    s.check()
    assert s.runtime.state.credits == [0]
    assert s.machine.mem.data["handed_back"][-1]["note"] == 2000
    s.runtime.close()


def test_terminal_killed_after_stacked_before_journal(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    s.control("insert", "10000")
    s.runtime.pump()
    s.clock.advance(150)
    s.wire.run()  # the validator stacked; the report never reached the journal
    s.kill_terminal()
    s.settle()
    s.check()
    assert s.runtime.state.credits == [10_000]
    s.runtime.close()


def test_ticket_in_redeemed_once_and_returned_when_refused(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    s.control("ticket", "111111111111111111")
    s.settle()
    assert s.runtime.state.credits == [2500] and s.host.redeemed == ["111111111111111111"]
    s.control("ticket", "111111111111111111")  # the same voucher again
    s.settle()
    assert s.runtime.state.credits == [2500]
    assert s.machine.mem.data["handed_back"][-1] == {
        "ticket": "111111111111111111",
        "why": "RETURN_REASON_COMMANDED",
    }
    s.check()
    s.runtime.close()


def test_faults_tilt_and_clear(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    for fault, code in (("jam", "bill_jam"), ("cashbox-full", "cashbox_full"),
                        ("cashbox-removed", "cashbox_removed")):  # fmt: skip
        s.control("fault", fault)
        s.runtime.pump()
        assert code in s.runtime.state.tilts
        assert s.control("insert", "2000") == "ok rejected REJECT_REASON_DISABLED"
        s.control("fix", fault)
        s.runtime.pump()
        assert code not in s.runtime.state.tilts
    s.wire.disconnect()
    s.runtime.pump()
    assert "bill_validator_link" in s.runtime.state.tilts
    s.wire.connect(new_peer=False)
    s.runtime.pump()
    assert "bill_validator_link" not in s.runtime.state.tilts
    s.runtime.close()


def test_stacked_while_unplugged_and_terminal_killed_twice(tmp_path):
    """Found by the long fuzz: the stack report waits in the validator's memory for a new
    terminal session, however many times the terminal restarts without hearing it."""
    system = run_session(
        tmp_path,
        [("pump", 0), ("insert", 0), ("pump", 0), ("disconnect", 0), *[("kill_terminal", 0)] * 2],
    )
    assert system.runtime.state.credits == [100]


def test_each_note_carries_the_validators_name_and_its_own_number(tmp_path):
    """The host keeps the highest count per validator (issue 23): each note's count is the
    validator's event id for it, growing through the validator's restarts."""
    s = System(tmp_path)
    for note in ("2000", "500"):
        s.runtime.pump()
        s.control("insert", note)
        s.settle()
        s.restart_device()
    s.settle()
    s.check()
    notes = [r.event for r in s.runtime.journal.rows(after=0) if isinstance(r.event, e.BillStacked)]
    assert [n.value for n in notes] == [2000, 500]
    assert notes[0].device == notes[1].device and notes[0].device.strip()
    assert 0 < notes[0].device_count < notes[1].device_count
    s.runtime.close()
