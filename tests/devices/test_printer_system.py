"""The printer end to end (driver, printer firmware, terminal runtime): credits leave the meter
only for a voucher printed completely, and are never lost.

Random sessions of cash-outs with faults, cut-short prints, cables pulled, printer and terminal
killed at any point: afterwards the credits cashed out equal the vouchers presented (PNG files),
each presented voucher is one the journal paid out, and no voucher is both presented and still
on the credit meter.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import zxingcpp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Phase
from kiosk.terminal.devices.inprocess import InProcessBillValidator
from kiosk.terminal.devices.printer_driver import PrinterDriver
from kiosk.terminal.devices.sim.printer import PrinterMachine
from kiosk.terminal.runtime.deck import RngDeckFactory
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.runtime.validation import LocalValidationNumbers
from kiosk.terminal.store.port import sqlite_journal
from rng import Csprng
from tests.helpers.device_link import Clock, Wire, terminal_restarted

RNG = Csprng()
START = 50_000


class System:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.clock = Clock()
        self.machine = self.new_machine()
        self.wire = Wire(self.clock, self.machine)
        self.boot()
        # money to cash out, through the escrow path a voucher takes (host answer, stacked)
        self.runtime.execute(c.InsertTicket("5" * 18, value=START))
        self.runtime.execute(c.TicketStackedReport("5" * 18))

    def new_machine(self) -> PrinterMachine:
        return PrinterMachine(self.base / "printer", self.clock.ms, print_ms=100)

    def boot(self) -> None:
        self.driver = PrinterDriver(
            self.wire, clock=self.clock.seconds, connect_grace=0.5, answer_timeout=0.5
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

    def control(self, *words: str) -> str:
        reply: str = self.wire.machine.control(list(words), self.clock.ms)
        self.wire.run()
        return reply

    def cash_out(self) -> None:
        state = self.runtime.state
        if state.phase is Phase.CASHOUT or state.credits[0] == 0 or state.lockups():
            return
        self.runtime.cash_out()

    def step(self, action: str, arg: int) -> None:
        if action == "cash_out":
            self.cash_out()
        elif action == "pump":
            self.runtime.pump()
        elif action == "time":
            self.clock.advance(arg % 400)
        elif action in ("fault", "fix"):
            self.control(action, ("paper-out", "jam", "head-open", "paper-low")[arg % 4])
        elif action == "fail_next":
            self.control("fail-next-print", ("paper-out", "jam", "head-open")[arg % 3])
        elif action == "disconnect":
            self.wire.disconnect()
        elif action == "reconnect" and not self.wire.up:
            self.wire.connect(new_peer=False)
        elif action == "restart_printer":
            self.machine = self.new_machine()
            self.wire.device_restarted(self.machine)
        elif action == "kill_terminal":
            self.runtime.journal.db.close()
            self.wire = terminal_restarted(self.wire, self.clock)
            self.boot()
        elif action == "attendant" and self.runtime.state.handpay is not None:
            self.runtime.execute(c.AttendantReset())
        elif action == "attendant" and "voucher_unknown" in self.runtime.state.tilts:
            self.runtime.execute(c.ClearTilt("voucher_unknown", by="attendant"))

    def settle(self) -> None:
        if not self.wire.up:
            self.wire.connect(new_peer=False)
        for fault in ("paper-out", "jam", "head-open"):
            self.control("fix", fault)
        for _ in range(40):
            self.runtime.pump()
            self.clock.advance(100)

    def presented(self) -> list[str]:
        return sorted(p.name[:18] for p in (self.base / "printer" / "vouchers").glob("*[0-9].png"))

    def check(self) -> None:
        state = self.runtime.state
        assert state.phase is not Phase.CASHOUT
        rows = [row.event for row in self.runtime.journal.rows(after=0)]
        paid = sorted(ev.validation_number for ev in rows if isinstance(ev, e.VoucherPrinted))
        assert paid == self.presented(), "vouchers presented != vouchers paid out"
        printed = self.machine.vouchers()["printed"]
        assert sorted(printed) == paid
        handpaid = sum(ev.value for ev in rows if isinstance(ev, e.HandpayReset))
        out = sum(v["value"] for v in printed.values()) + handpaid
        pending_handpay = state.handpay.value if state.handpay else 0
        assert state.credits[0] + out == START, "credits lost or paid twice"
        assert pending_handpay <= state.credits[0]
        assert self.runtime.core.audit_credits() is None


ACTIONS = [
    "cash_out", "cash_out", "pump", "pump", "pump", "time", "time", "fault", "fix", "fix",
    "fail_next", "disconnect", "reconnect", "restart_printer", "kill_terminal", "attendant",
]  # fmt: skip


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), max_size=40))
def test_random_cash_outs_never_both_ticket_and_credits(tmp_path_factory, actions):
    run_cash_outs(tmp_path_factory.mktemp("pr"), actions)


def run_cash_outs(base: Path, actions: list[tuple[str, int]]) -> None:
    system = System(base)
    try:
        for action, arg in actions:
            system.step(action, arg)
        system.settle()
        system.check()
    finally:
        system.runtime.close()


def test_voucher_printed_png_barcode_matches_the_journal(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    (started,) = s.runtime.cash_out()
    assert isinstance(started, e.CashoutStarted)
    s.settle()
    assert s.runtime.state.credits == [0]
    png = tmp_path / "printer" / "vouchers" / f"{started.validation_number}.png"
    (code,) = zxingcpp.read_barcodes(Image.open(png))
    assert code.format == zxingcpp.BarcodeFormat.ITF
    assert code.text == started.validation_number
    assert json.loads(s.control("vouchers")[3:])["printed"][code.text]["value"] == START
    s.runtime.close()


def test_paper_out_mid_print_keeps_the_credits_then_retry_prints(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    s.control("fail-next-print", "paper-out")
    (first,) = s.runtime.cash_out()
    assert isinstance(first, e.CashoutStarted)
    for _ in range(5):
        s.runtime.pump()
        s.clock.advance(100)
    state = s.runtime.state
    assert state.credits == [START] and state.phase is not Phase.CASHOUT
    assert "paper_out" in state.tilts
    assert s.presented() == []
    assert (tmp_path / "printer" / "vouchers" / f"{first.validation_number}-void.png").exists()
    s.control("fix", "paper-out")
    s.runtime.pump()
    assert "paper_out" not in s.runtime.state.tilts
    (second,) = s.runtime.cash_out()
    assert isinstance(second, e.CashoutStarted)
    assert second.validation_number != first.validation_number
    s.settle()
    assert s.runtime.state.credits == [0] and s.presented() == [second.validation_number]
    s.check()
    s.runtime.close()


def test_printer_restarted_mid_print_voids_and_keeps_credits(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    s.runtime.cash_out()
    s.wire.run()  # the job reached the printer
    s.machine = s.new_machine()  # power lost while printing
    s.wire.device_restarted(s.machine)
    s.settle()
    assert s.runtime.state.credits == [START] and s.presented() == []
    s.check()
    s.runtime.close()


def test_link_lost_mid_print_then_back(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    s.runtime.cash_out()
    s.wire.run()
    s.wire.disconnect()
    s.clock.advance(500)
    s.wire.machine.tick(s.clock.ms)  # printed while the terminal could not hear
    s.runtime.pump()
    assert "printer_link" in s.runtime.state.tilts
    assert s.runtime.state.phase is Phase.CASHOUT and s.runtime.state.credits == [START]
    s.wire.connect(new_peer=False)
    s.settle()
    assert s.runtime.state.credits == [0] and "printer_link" not in s.runtime.state.tilts
    s.check()
    s.runtime.close()


def test_terminal_killed_mid_print_asks_the_printer_at_power_up(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    s.runtime.cash_out()
    s.wire.run()
    s.clock.advance(200)
    s.wire.run()  # printed; the terminal dies before hearing it
    s.runtime.journal.db.close()
    s.wire = terminal_restarted(s.wire, s.clock)
    s.boot()
    assert s.runtime.state.credits == [0]
    assert "printed: credits paid out" in s.runtime.last_recovery.actions[-1]
    s.check()
    s.runtime.close()


def test_printer_unplugged_at_power_up_keeps_the_cash_out_open_until_it_answers(tmp_path):
    s = System(tmp_path)
    s.runtime.pump()
    s.runtime.cash_out()
    s.wire.run()
    s.clock.advance(200)
    s.wire.run()  # printed ...
    s.wire.disconnect()  # ... and the printer unplugged before the terminal heard it
    s.runtime.journal.db.close()
    s.wire = terminal_restarted(s.wire, s.clock)
    s.boot()
    s.runtime.pump()
    state = s.runtime.state
    assert state.phase is Phase.CASHOUT and state.credits == [START]
    assert {"voucher_unknown", "printer_link"} <= set(state.tilts)
    s.wire.connect(new_peer=True)
    s.runtime.pump()
    assert s.runtime.state.credits == [0] and s.runtime.state.phase is not Phase.CASHOUT
    s.runtime.execute(c.ClearTilt("voucher_unknown", by="attendant"))
    s.check()
    s.runtime.close()


def test_paper_low_is_a_warning_not_a_tilt(tmp_path):
    s = System(tmp_path)
    s.control("fault", "paper-low")
    s.runtime.pump()
    assert s.driver.paper_low and s.runtime.state.tilts == {}
    assert s.driver.ready()
    s.runtime.close()


@pytest.mark.slow
@settings(
    max_examples=800, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), max_size=120))
def test_random_cash_outs_never_both_ticket_and_credits_long(tmp_path_factory, actions):
    run_cash_outs(tmp_path_factory.mktemp("pr"), actions)
