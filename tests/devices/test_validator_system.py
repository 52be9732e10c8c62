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

from kiosk.devices.inprocess import InProcessPrinter
from kiosk.devices.sim.validator import ValidatorMachine
from kiosk.devices.validator_driver import ValidatorDriver
from kiosk.runtime.deck import RngDeckFactory
from kiosk.runtime.terminal import TerminalRuntime
from kiosk.runtime.validation import LocalValidationNumbers
from kiosk.store.port import sqlite_journal
from kiosk.terminal import events as e
from rng import Csprng
from tests.devices.harness import Clock, FakeHost, Wire, terminal_restarted

TICKETS = {"111111111111111111": 2500, "222222222222222222": 10_000, "333333333333333333": 7}
UNKNOWN = "999999999999999999"
RNG = Csprng()


class System:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.clock = Clock()
        self.host = FakeHost(TICKETS)
        self.machine = self.new_machine()
        self.wire = Wire(self.clock, self.machine)
        self.boot()

    def new_machine(self) -> ValidatorMachine:
        return ValidatorMachine(
            self.base / "bv", self.clock.ms, stack_ms=100, escrow_timeout_ms=5000
        )

    def boot(self) -> None:
        self.driver = ValidatorDriver(self.wire, clock=self.clock.seconds, connect_grace=0.5)
        self.runtime = TerminalRuntime(
            self.base / "terminal",
            journal=sqlite_journal(self.base / "terminal"),
            deck_factory=RngDeckFactory(RNG),
            validator=self.driver,
            printer=InProcessPrinter(self.base / "printer"),
            validation_numbers=LocalValidationNumbers(RNG.randbelow),
            clock=self.clock,
            host=self.host,
        )
        self.runtime.power_up()

    def kill_terminal(self) -> None:
        self.runtime.journal.db.close()  # no shutdown at all, as SIGKILL
        self.wire = terminal_restarted(self.wire, self.clock)
        self.boot()

    def restart_device(self) -> None:
        self.machine = self.new_machine()
        self.wire.device_restarted(self.machine)

    def control(self, *words: str) -> str:
        reply: str = self.wire.machine.control(list(words), self.clock.ms)
        self.wire.run()
        return reply

    def step(self, action: str, arg: int) -> None:
        if action == "insert":
            self.control("insert", str((100, 500, 2000, 10_000, 300)[arg % 5]))
        elif action == "ticket":
            self.control("ticket", [*TICKETS, UNKNOWN, "123"][arg % 5])
        elif action == "pump":
            self.runtime.pump()
        elif action == "time":
            self.clock.advance(arg % 3000)
        elif action in ("fault", "fix"):
            self.control(action, ("jam", "cashbox-full", "cashbox-removed")[arg % 3])
        elif action == "disconnect":
            self.wire.disconnect()
        elif action == "reconnect" and not self.wire.up:
            self.wire.connect(new_peer=False)
        elif action == "restart_device":
            self.restart_device()
        elif action == "kill_terminal":
            self.kill_terminal()

    def settle(self) -> None:
        if not self.wire.up:
            self.wire.connect(new_peer=False)
        for fault in ("jam", "cashbox-full", "cashbox-removed"):
            self.control("fix", fault)
        for _ in range(150):
            self.runtime.pump()
            self.clock.advance(100)

    def check(self) -> None:
        state = self.runtime.state
        box = self.machine.mem.data["cashbox"]
        tickets_in = list(box["tickets"])
        assert state.escrow == {} and state.ticket_escrow == {}
        assert self.machine.mem.data["escrow"] is None
        expected = sum(box["notes"]) + sum(TICKETS[n] for n in tickets_in)
        assert state.credits == [expected], "credits differ from the cash box"
        assert state.lifetime["bills_in"] == sum(box["notes"])
        assert state.lifetime["tickets_in"] == sum(TICKETS[n] for n in tickets_in)
        assert len(tickets_in) == len(set(tickets_in)), "a voucher stacked twice"
        redeemed = [
            row.event.validation_number
            for row in self.runtime.journal.rows(after=0)
            if isinstance(row.event, e.TicketRedeemed)
        ]
        assert sorted(redeemed) == sorted(tickets_in), "credited vouchers != stacked vouchers"
        assert set(self.host.redeemed) <= set(tickets_in)
        notes = [
            row.event for row in self.runtime.journal.rows(after=0)
            if isinstance(row.event, e.BillStacked)
        ]  # fmt: skip
        counts = [n.device_count for n in notes]  # the host refuses a count it has seen
        assert all(counts) and counts == sorted(set(counts)), "a note's count repeated"
        assert len(notes) == len(box["notes"])
        assert self.runtime.core.audit_credits() is None
        assert not any(code.startswith(("bill", "cashbox")) for code in state.tilts)


ACTIONS = [
    "insert", "insert", "ticket", "pump", "pump", "pump", "pump", "time", "time",
    "fault", "fix", "disconnect", "reconnect", "restart_device", "kill_terminal",
]  # fmt: skip
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
