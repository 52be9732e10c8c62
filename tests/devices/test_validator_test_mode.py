"""The serial bill validator driver's test mode (the service menu's bill validator test).

Fuzzed with the whole-system harness of :mod:`tests.devices.test_validator_system`: the test
switched on and off at random among notes, tickets, faults, cables pulled and restarts of the
validator and of the terminal.  Besides that system's invariants (every credit backed by the
cash box, nothing left in escrow, the credit audit holds), no item the validator took under a
test acceptance is ever stacked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import NOTE_VALUES
from kiosk.terminal.devices.sim.validator import ValidatorMachine
from kiosk.terminal.devices.validator_driver import ValidatorDriver
from tests.helpers.device_link import Clock, Wire, state_dir
from tests.helpers.validator_system import ACTIONS, System


class RecordingMachine(ValidatorMachine):
    """The simulated validator, noting every escrow id the terminal asked it to stack."""

    def __init__(self, base: Path, now: int, stacked: list[int], **kw: Any) -> None:
        self.stack_commands = stacked
        super().__init__(base, now, **kw)

    def _stack(self, escrow_id: int, now: int) -> None:
        self.stack_commands.append(escrow_id)
        super()._stack(escrow_id, now)


class BillTestSystem(System):
    """The validator system with the technician's test switched on and off."""

    def __init__(self, base: Path) -> None:
        self.stack_commands: list[int] = []
        self.test_acceptances: set[int] = set()
        self.test_escrows: set[int] = set()
        super().__init__(base)

    def new_machine(self) -> ValidatorMachine:
        return RecordingMachine(
            self.base / "bv",
            self.clock.ms,
            self.stack_commands,
            stack_ms=100,
            escrow_timeout_ms=5000,
        )

    def control(self, *words: str) -> str:
        # the oracle: the acceptance the validator is under when it takes the item (as sent)
        self.test_acceptances |= self.driver._test_acceptances
        under_test = self.wire.machine.acceptance_id in self.test_acceptances
        reply = super().control(*words)
        if under_test and reply.startswith("ok escrow"):
            self.test_escrows.add(int(reply.split()[2]))
        return reply

    def step(self, action: str, arg: int) -> None:
        if action in ("test_on", "test_off"):
            self.driver.set_test_mode(action == "test_on")
        else:
            super().step(action, arg)

    def check(self) -> None:
        super().check()
        assert not self.test_escrows & set(self.stack_commands), "a test item was stacked"


TEST_ACTIONS = [*ACTIONS, "test_on", "test_on", "test_off"]


def run_session(base: Path, actions: list[tuple[str, int]]) -> None:
    system = BillTestSystem(base)
    try:
        for action, arg in actions:
            system.step(action, arg)
        system.settle()
        system.check()
    finally:
        system.runtime.close()


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    actions=st.lists(st.tuples(st.sampled_from(TEST_ACTIONS), st.integers(0, 10**6)), max_size=60)
)
def test_random_sessions_never_stack_or_credit_a_test_item(tmp_path_factory, actions):
    run_session(tmp_path_factory.mktemp("bvtest"), actions)


@pytest.mark.slow
@settings(
    max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    actions=st.lists(st.tuples(st.sampled_from(TEST_ACTIONS), st.integers(0, 10**6)), max_size=150)
)
def test_random_sessions_never_stack_or_credit_a_test_item_long(tmp_path_factory, actions):
    run_session(tmp_path_factory.mktemp("bvtest"), actions)


def test_the_test_is_exercised(tmp_path):
    """The fuzz's oracle sees test items (a guard against a vacuous property)."""
    s = BillTestSystem(tmp_path)
    s.driver.set_test_mode(True)
    s.runtime.pump()
    assert s.control("insert", "2000").startswith("ok escrow")
    s.runtime.pump()
    s.runtime.pump()
    assert s.test_escrows and s.driver.test_notes() == [2000]
    assert s.machine.mem.data["handed_back"] == [{"note": 2000, "why": "RETURN_REASON_COMMANDED"}]
    assert s.machine.mem.data["unacked"] == [] and s.runtime.state.credits == [0]
    s.runtime.close()


def driver_and_wire(base: Path, *, echo: bool = True) -> tuple[ValidatorDriver, Wire, Clock]:
    clock = Clock()
    machine = ValidatorMachine(state_dir(base, "bv"), clock.ms) if echo else Unnamed(base, clock)
    wire = Wire(clock, machine)
    driver = ValidatorDriver(wire, clock=clock.seconds, connect_grace=0.5)
    driver.set_enabled(True, (500, 2000))
    driver.poll()
    return driver, wire, clock


class Unnamed(ValidatorMachine):
    """A validator whose firmware does not echo acceptance ids."""

    def __init__(self, base: Path, clock: Clock) -> None:
        super().__init__(state_dir(base, "bv"), clock.ms)

    @property
    def acceptance_id(self) -> int:
        return 0

    @acceptance_id.setter
    def acceptance_id(self, value: int) -> None:
        pass


def test_item_escrowed_under_the_test_is_returned_even_when_its_event_comes_after_it(tmp_path):
    driver, wire, clock = driver_and_wire(tmp_path)
    driver.set_test_mode(True)
    driver.poll()
    assert wire.machine.control(["insert", "10000"], clock.ms).startswith("ok escrow")
    wire.disconnect()  # the escrow event waits on the device side ...
    driver.set_test_mode(False)  # ... while the test stops and the terminal takes money again
    wire.connect(new_peer=False)
    reports = driver.poll() + driver.poll()
    assert not [r for r in reports if isinstance(r, c.InsertBill)]
    assert driver.test_notes() == [10_000]
    assert wire.machine.mem.data["handed_back"] == [
        {"note": 10_000, "why": "RETURN_REASON_COMMANDED"}
    ]


def test_validator_without_acceptance_ids_is_served_by_the_drivers_mode(tmp_path):
    driver, wire, clock = driver_and_wire(tmp_path, echo=False)
    driver.set_test_mode(True)
    driver.poll()
    assert wire.machine.snapshot()["note_values"] == sorted(NOTE_VALUES)
    assert wire.machine.control(["insert", "100"], clock.ms).startswith("ok escrow")
    assert driver.poll() == [] and driver.test_notes() == [100]
    driver.poll()
    assert wire.machine.mem.data["handed_back"] == [{"note": 100, "why": "RETURN_REASON_COMMANDED"}]
    driver.set_test_mode(False)
    driver.poll()
    assert wire.machine.snapshot()["note_values"] == [500, 2000]
    assert wire.machine.control(["insert", "500"], clock.ms).startswith("ok escrow")
    assert driver.poll() == [c.InsertBill(value=500)]


def test_terminal_killed_mid_test_the_note_is_returned_not_credited(tmp_path):
    s = BillTestSystem(tmp_path)
    s.driver.set_test_mode(True)
    s.runtime.pump()
    assert s.control("insert", "2000").startswith("ok escrow")  # the driver never heard of it
    s.kill_terminal()
    assert s.driver.test_mode is False  # a new terminal process: its own acceptance
    s.settle()
    s.check()
    assert s.runtime.state.credits == [0] and s.machine.mem.data["cashbox"]["notes"] == []
    assert s.machine.mem.data["handed_back"] == [{"note": 2000, "why": "RETURN_REASON_COMMANDED"}]
