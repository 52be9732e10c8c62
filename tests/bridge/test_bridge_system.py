"""The bill validator through the bridge, end to end and fuzzed, in one process.

The terminal's driver and runtime, the bridge machine (its SQLite journal, the ID-003 host
side) and the ID-003 acceptor's simulated firmware, wired on a fake clock.  Each exchange on
the device's line is one step, so a kill can fall between any two: after the bridge journaled
a stack and before its ``ACK`` went out, between ``STACK`` and ``VEND VALID``...  Random
sessions of notes and vouchers, faults, and restarts of the acceptor, the bridge and the
terminal: afterwards the credits equal the acceptor's cash box to the cent, the bridge's record
agrees with the acceptor's, every voucher in the cash box was credited once, and nothing is
left in escrow anywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.terminal.bridge.id003.device import Id003Device
from kiosk.terminal.bridge.id003.host import Id003Validator
from kiosk.terminal.bridge.validator import BridgeValidator
from kiosk.terminal.core import events as e
from kiosk.terminal.devices.inprocess import InProcessPrinter
from kiosk.terminal.devices.validator_driver import ValidatorDriver
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.port import sqlite_journal
from rng import Csprng
from tests.helpers.device_link import Clock, FakeHost, Wire, terminal_restarted

TICKETS = {"111111111111111111": 2500, "222222222222222222": 10_000, "333333333333333333": 7}
UNKNOWN = "999999999999999999"
RNG = Csprng()
FAULTS = ("jam", "stacker-jam", "cashbox-full", "cashbox-removed", "cheat", "failure")


class BridgedDevice:
    """What the terminal's wire sees: the bridge, with the acceptor behind it on a line that
    carries one transmission per :meth:`tick` (a kill can fall between any two)."""

    def __init__(self, base: Path, now: int) -> None:
        self.base = base
        self.device = Id003Device(base / "id003", now, escrow_timeout_ms=8000)
        self.bridge = self.new_bridge(now)
        self._turn = 0

    def new_bridge(self, now: int) -> BridgeValidator:
        native = Id003Validator(link_timeout_ms=1000)
        return BridgeValidator(native, self.base / "bridge", now, escrow_timeout_ms=5000)

    def restart_bridge(self, now: int) -> None:
        self.bridge.mem.close()  # type: ignore[attr-defined]  # committed rows stay
        self.bridge = self.new_bridge(now)

    def restart_device(self, now: int) -> None:
        self.device = Id003Device(self.base / "id003", now, escrow_timeout_ms=8000)

    def tick(self, now: int) -> None:
        self.device.tick(now)
        self._turn ^= 1
        if self._turn:
            out = self.bridge.device_transmit(now)
            if out:
                self.device.receive(out, now)
        else:
            back = self.device.take_output()
            if back:
                self.bridge.device_receive(back, now)
        self.bridge.tick(now)

    # the Machine the wire drives is the bridge
    def on_link_up(self, new_peer: bool, now: int) -> None:
        self.bridge.on_link_up(new_peer, now)

    def on_link_down(self, now: int) -> None:
        self.bridge.on_link_down(now)

    def on_command(self, payload: bytes, now: int) -> None:
        self.bridge.on_command(payload, now)

    def take_outgoing(self) -> list[bytes]:
        return self.bridge.take_outgoing()

    def control(self, words: list[str], now: int) -> str:
        return self.device.control(words, now)


class System:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.clock = Clock()
        self.host = FakeHost(TICKETS)
        self.unit = BridgedDevice(base, self.clock.ms)
        self.wire = Wire(self.clock, self.unit)
        self.boot()

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

    def kill_bridge(self) -> None:
        self.unit.restart_bridge(self.clock.ms)
        self.wire.device_restarted(self.unit)  # the terminal sees its device restart

    def control(self, *words: str) -> str:
        reply: str = self.unit.control(list(words), self.clock.ms)
        self.wire.run()
        return reply

    def run(self, ms: int) -> None:
        for _ in range(max(1, ms // 10)):
            self.clock.advance(10)
            self.wire.run()

    def step(self, action: str, arg: int) -> None:
        if action == "insert":
            self.control("insert", str((100, 500, 2000, 10_000, 300)[arg % 5]))
        elif action == "ticket":
            self.control("ticket", [*TICKETS, UNKNOWN, "123"][arg % 5])
        elif action == "pump":
            self.runtime.pump()
        elif action == "time":
            self.run(arg % 700)
        elif action == "line":  # one exchange on the device's line
            self.clock.advance(1 + arg % 30)
            self.wire.run()
        elif action in ("fault", "fix"):
            self.control(action, FAULTS[arg % len(FAULTS)])
        elif action == "restart_device":
            self.unit.restart_device(self.clock.ms)
        elif action == "kill_bridge":
            self.kill_bridge()
        elif action == "kill_terminal":
            self.kill_terminal()

    def settle(self) -> None:
        for fault in FAULTS:
            self.control("fix", fault)
        for i in range(400):  # until nothing is left in flight (and a while more)
            self.runtime.pump()
            self.run(50)
            if i > 40 and self.quiet():
                break

    def quiet(self) -> bool:
        bridge = self.unit.bridge.mem.data
        return (
            self.unit.device.mem.data["path"] is None
            and bridge["escrow"] is None
            and not bridge["unacked"]
            and not self.runtime.state.escrow
            and not self.runtime.state.ticket_escrow
        )

    def check(self) -> None:
        state = self.runtime.state
        device = self.unit.device.mem.data
        bridge = self.unit.bridge.mem.data
        box_notes = device["lifetime"]["notes"][1]
        stacked_tickets = [item["ticket"] for item in device["stacked"] if "ticket" in item]
        assert device["path"] is None, "an item left in the acceptor's path"
        assert state.escrow == {} and state.ticket_escrow == {}
        assert bridge["escrow"] is None
        assert bridge["lifetime"]["notes"] == device["lifetime"]["notes"], "bridge != acceptor"
        assert bridge["lifetime"]["tickets"] == device["lifetime"]["tickets"]
        expected = box_notes + sum(TICKETS[n] for n in stacked_tickets)
        assert state.credits == [expected], "credits differ from the cash box"
        assert state.lifetime["bills_in"] == box_notes
        assert len(stacked_tickets) == len(set(stacked_tickets)), "a voucher stacked twice"
        redeemed = [
            row.event.validation_number
            for row in self.runtime.journal.rows(after=0)
            if isinstance(row.event, e.TicketRedeemed)
        ]
        assert sorted(redeemed) == sorted(stacked_tickets), "credited != stacked vouchers"
        assert self.runtime.core.audit_credits() is None
        assert not any(code.startswith(("bill", "cashbox")) for code in state.tilts), state.tilts


ACTIONS = [
    "insert", "insert", "ticket", "pump", "pump", "pump", "pump", "time", "time", "line",
    "line", "line", "fault", "fix", "restart_device", "kill_bridge", "kill_terminal",
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
        system.unit.bridge.mem.close()  # type: ignore[attr-defined]
    return system


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=sessions)
def test_random_sessions_through_the_bridge_credit_exactly_once(tmp_path_factory, actions):
    run_session(tmp_path_factory.mktemp("bridge"), actions)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@settings(
    max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), max_size=150))
def test_random_sessions_through_the_bridge_credit_exactly_once_long(tmp_path_factory, actions):
    run_session(tmp_path_factory.mktemp("bridge"), actions)


def test_a_note_through_the_bridge(tmp_path: Path) -> None:
    s = System(tmp_path)
    s.settle()
    assert s.control("insert", "2000") == "ok accepting"
    for _ in range(100):
        s.runtime.pump()
        s.run(20)
    assert s.runtime.state.credits == [2000]
    s.check()
    s.runtime.close()


@pytest.mark.parametrize("kill", ["bridge", "device", "terminal"])
@pytest.mark.parametrize("steps", range(0, 48, 4))
def test_a_kill_at_each_step_of_a_note_credits_it_at_most_once(
    tmp_path: Path, kill: str, steps: int
) -> None:
    s = System(tmp_path)
    s.settle()
    s.control("insert", "5000")
    for _ in range(steps):  # walk the note along one line exchange at a time
        s.runtime.pump()
        s.step("line", 9)
    issued = s.unit.bridge.mem.data["next_event_id"]
    {
        "bridge": s.kill_bridge,
        "device": lambda: s.unit.restart_device(s.clock.ms),
        "terminal": s.kill_terminal,
    }[kill]()
    # the sealed link's event ids go on from the journal across the bridge's restarts
    assert s.unit.bridge.mem.data["next_event_id"] >= issued
    s.settle()
    s.check()
    s.runtime.close()


def test_a_barcode_ticket_in_escrow_is_redeemed_through_the_bridge(tmp_path: Path) -> None:
    s = System(tmp_path)
    s.settle()
    assert s.control("ticket", "222222222222222222") == "ok accepting"
    for _ in range(100):
        s.runtime.pump()
        s.run(20)
    assert s.runtime.state.credits == [10_000]
    assert s.host.redeemed == ["222222222222222222"]
    assert s.unit.device.mem.data["cashbox"]["tickets"] == 1
    assert s.control("ticket", "999999999999999999") == "ok accepting"  # unknown to the host
    for _ in range(100):
        s.runtime.pump()
        s.run(20)
    assert s.runtime.state.credits == [10_000]
    assert s.unit.device.mem.data["handed_back"][-1]["ticket"] == "999999999999999999"
    s.check()
    s.runtime.close()
