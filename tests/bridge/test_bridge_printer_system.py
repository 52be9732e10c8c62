"""The printer through the bridge, end to end and fuzzed, in one process: the terminal's
driver and runtime, the bridge (its journal, the TCL host side) and the TCL printer's
simulated firmware on a fake clock, one exchange on the printer's line per step.

Cash-outs with faults, cut-short prints, and the printer, the bridge and the terminal killed
at any step: afterwards every voucher presented (a PNG in the printer's output) is one the
journal paid out, once; the bridge's record of printed vouchers is the printer's; and the
credits still on the meter plus the vouchers paid out (and hand pays) are the credits cashed in.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.terminal.bridge.printer import BridgePrinter
from kiosk.terminal.bridge.tcl.device import TclPrinterDevice
from kiosk.terminal.bridge.tcl.host import TclPrinter
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Phase
from kiosk.terminal.devices.inprocess import InProcessBillValidator
from kiosk.terminal.devices.printer_driver import PrinterDriver
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.port import sqlite_journal
from rng import Csprng
from tests.helpers.device_link import Clock, Wire, terminal_restarted

RNG = Csprng()
START = 50_000


class BridgedPrinter:
    """The bridge as the terminal's wire sees it, the TCL printer behind it."""

    def __init__(self, base: Path, now: int) -> None:
        self.base = base
        self.device = self.new_device(now)
        self.bridge = self.new_bridge(now)
        self._turn = 0

    def new_device(self, now: int) -> TclPrinterDevice:
        return TclPrinterDevice(self.base / "tcl", now, print_ms=200, take_ms=400)

    def new_bridge(self, now: int) -> BridgePrinter:
        return BridgePrinter(TclPrinter(link_timeout_ms=1000), self.base / "bridge", now)

    def restart_bridge(self, now: int) -> None:
        self.bridge.mem.close()  # type: ignore[attr-defined]
        self.bridge = self.new_bridge(now)

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
        self.unit = BridgedPrinter(base, self.clock.ms)
        self.wire = Wire(self.clock, self.unit)
        self.boot()
        self.runtime.execute(c.InsertTicket("5" * 18, value=START))
        self.runtime.execute(c.TicketStackedReport("5" * 18))

    def boot(self) -> None:
        self.driver = PrinterDriver(
            self.wire, clock=self.clock.seconds, connect_grace=0.5, answer_timeout=3.0
        )
        self.runtime = TerminalRuntime(
            self.base / "terminal",
            journal=sqlite_journal(self.base / "terminal"),
            deck_factory=RngDeckFactory(RNG),
            validator=InProcessBillValidator(self.base / "bv"),
            printer=self.driver,
            validation_numbers=LocalValidationNumbers(RNG.randbelow),
            clock=self.clock,
        )
        self.runtime.power_up()

    def run(self, ms: int) -> None:
        for _ in range(max(1, ms // 10)):
            self.clock.advance(10)
            self.wire.run()

    def control(self, *words: str) -> str:
        reply: str = self.unit.control(list(words), self.clock.ms)
        self.wire.run()
        return reply

    def step(self, action: str, arg: int) -> None:
        state = self.runtime.state
        if action == "cash_out":
            if state.phase is not Phase.CASHOUT and state.credits[0] and not state.lockups():
                self.runtime.cash_out()
        elif action == "pump":
            self.runtime.pump()
        elif action == "time":
            self.run(arg % 400)
        elif action == "line":
            self.clock.advance(1 + arg % 20)
            self.wire.run()
        elif action in ("fault", "fix"):
            self.control(action, ("paper-out", "jam", "head-open", "paper-low")[arg % 4])
        elif action == "fail_next":
            self.control("fail-next-print", ("paper-out", "jam", "head-open")[arg % 3])
        elif action == "restart_printer":
            self.unit.device = self.unit.new_device(self.clock.ms)
        elif action == "kill_bridge":
            self.unit.restart_bridge(self.clock.ms)
            self.wire.device_restarted(self.unit)
        elif action == "kill_terminal":
            self.runtime.journal.db.close()
            self.wire = terminal_restarted(self.wire, self.clock)
            self.boot()
        elif action == "attendant" and state.handpay is not None:
            self.runtime.execute(c.AttendantReset())
        elif action == "attendant" and "voucher_unknown" in state.tilts:
            self.runtime.execute(c.ClearTilt("voucher_unknown", by="attendant"))

    def settle(self) -> None:
        for fault in ("paper-out", "jam", "head-open"):
            self.control("fix", fault)
        for _ in range(60):
            self.runtime.pump()
            self.run(100)
            if (
                self.runtime.state.phase is not Phase.CASHOUT
                and self.unit.bridge.mem.data["printing"] is None
            ):
                break

    def presented(self) -> list[str]:
        return sorted(p.name[:18] for p in (self.base / "tcl" / "vouchers").glob("*[0-9].png"))

    def check(self) -> None:
        state = self.runtime.state
        assert state.phase is not Phase.CASHOUT
        rows = [row.event for row in self.runtime.journal.rows(after=0)]
        paid = sorted(ev.validation_number for ev in rows if isinstance(ev, e.VoucherPrinted))
        assert paid == self.presented(), "vouchers presented != vouchers paid out"
        assert sorted(self.unit.device.mem.data["printed"]) == paid
        bridge = self.unit.bridge.mem.data
        assert sorted(bridge["printed"]) == paid, "the bridge's record != the printer's"
        handpaid = sum(ev.value for ev in rows if isinstance(ev, e.HandpayReset))
        out = sum(v["value"] for v in bridge["printed"].values()) + handpaid
        assert state.credits[0] + out == START, "credits lost or paid twice"
        assert self.runtime.core.audit_credits() is None


ACTIONS = [
    "cash_out", "cash_out", "pump", "pump", "pump", "time", "time", "line", "line", "fault",
    "fix", "fix", "fail_next", "restart_printer", "kill_bridge", "kill_terminal", "attendant",
]  # fmt: skip


def run_cash_outs(base: Path, actions: list[tuple[str, int]]) -> None:
    system = System(base)
    try:
        for action, arg in actions:
            system.step(action, arg)
        system.settle()
        system.check()
    finally:
        system.runtime.close()
        system.unit.bridge.mem.close()  # type: ignore[attr-defined]


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), max_size=40))
def test_random_cash_outs_through_the_bridge(tmp_path_factory, actions):
    run_cash_outs(tmp_path_factory.mktemp("bp"), actions)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), max_size=100))
def test_random_cash_outs_through_the_bridge_long(tmp_path_factory, actions):
    run_cash_outs(tmp_path_factory.mktemp("bp"), actions)


@pytest.mark.parametrize("kill", ["bridge", "printer", "terminal"])
@pytest.mark.parametrize("steps", [0, 6, 14, 30, 50, 70])
def test_a_kill_at_each_step_of_a_cash_out(tmp_path: Path, kill: str, steps: int) -> None:
    s = System(tmp_path)
    s.run(500)
    s.runtime.pump()
    s.runtime.cash_out()
    for _ in range(steps):
        s.runtime.pump()
        s.step("line", 9)
    s.step(
        {"bridge": "kill_bridge", "printer": "restart_printer", "terminal": "kill_terminal"}[kill],
        0,
    )
    s.settle()
    s.check()
    s.runtime.close()
