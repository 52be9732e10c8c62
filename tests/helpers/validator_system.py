"""The validator system under random actions, checked against its cash box."""

from __future__ import annotations

from pathlib import Path

from kiosk.terminal.core import events as e
from kiosk.terminal.devices.inprocess import InProcessPrinter
from kiosk.terminal.devices.sim.validator import ValidatorMachine
from kiosk.terminal.devices.validator_driver import ValidatorDriver
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.port import sqlite_journal
from rng import Csprng
from tests.helpers.device_link import Clock, FakeHost, Wire, terminal_restarted


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


TICKETS = {"111111111111111111": 2500, "222222222222222222": 10_000, "333333333333333333": 7}


UNKNOWN = "999999999999999999"


RNG = Csprng()
