"""The technician's bill validator test and test voucher on the serial drivers, end to end.

The simulator programs run on pseudo-terminals, the terminal drives them through its serial
drivers, and the technician works through a service session: notes inserted during the test
come back without credit, meter or journal entry; the test voucher is a VOID PNG printed by the
printer program.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from PIL import Image

from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import NOTE_VALUES, TerminalConfig
from kiosk.terminal.devices.voucher import printed_text
from kiosk.terminal.service import audit_log
from kiosk.terminal.service.access import PinStore, Role
from kiosk.terminal.service.backends import InProcessTerminal
from kiosk.terminal.service.session import ServiceSession
from tests.helpers.serial_rig import Rig
from tests.helpers.service_rig import CHEAP_KDF, PINS, set_up_pins

MONEY_EVENTS = (e.BillEscrowAccepted, e.BillStacked, e.BillReturned, e.TicketReturned)
TICKET = "123456789012345678"


class ServiceSerialRig(Rig):
    """Simulator programs, a serial terminal and a technician in its service menu."""

    def __init__(self, base: Path) -> None:
        super().__init__(base, TerminalConfig(terminal_id="TK-0042", venue="Casino Test"))
        set_up_pins(self.runtime)
        terminal = InProcessTerminal(
            self.runtime,
            validator=self.terminal.validator,
            printer=self.terminal.printer,
            rng=self.terminal.rng,
        )
        self.session = ServiceSession(terminal, PinStore(terminal, kdf=CHEAP_KDF))
        self.session.turn_key(True)
        self.session.enter(Role.TECHNICIAN, PINS[Role.TECHNICIAN])
        self.until(lambda: not self.bv_status()["enabled"])  # service mode: no money in

    def call(self, name: str, args: dict[str, Any] | None = None) -> Any:
        return self.session.call(name, args or {})

    def start_test(self) -> None:
        assert self.call("bill_test", {"action": "start"}).data["running"] is True
        self.until(
            lambda: (
                self.bv_status()["enabled"]
                and self.bv_status()["note_values"] == sorted(NOTE_VALUES)
                and self.bv_status()["tickets"]
            )
        )

    def insert_and_get_back(self, *words: str) -> None:
        """Insert an item, wait until the validator handed it back and forgot the event."""
        before = len(self.bv_status()["handed_back"])
        assert self.bv(" ".join(words)).startswith("ok escrow")
        self.until(
            lambda: (
                len(self.bv_status()["handed_back"]) > before and self.bv_status()["unacked"] == []
            )
        )

    def money_events(self) -> list[e.Event]:
        rows = self.runtime.journal.rows(after=0)
        return [row.event for row in rows if isinstance(row.event, MONEY_EVENTS)]

    def vouchers(self) -> dict[str, Any]:
        vouchers: dict[str, Any] = json.loads(self.printer("vouchers")[3:])
        return vouchers


@pytest.fixture
def srig(tmp_path: Path) -> Iterator[ServiceSerialRig]:
    r = ServiceSerialRig(tmp_path)
    yield r
    r.close()


def test_notes_and_a_ticket_in_test_mode_come_back_without_credit(srig):
    srig.start_test()
    srig.insert_and_get_back("insert", "2000")
    srig.insert_and_get_back("insert", "100")  # not one of the terminal's notes: read all the same
    srig.insert_and_get_back("ticket", TICKET)
    outcome = srig.call("bill_test", {"action": "status"})
    assert outcome.data == {"running": True, "notes": [2000, 100], "tickets": [TICKET]}
    assert "Notes read and returned: 2 ($20.00, $1.00)" in outcome.lines
    handed_back = srig.bv_status()["handed_back"]
    assert handed_back == [
        {"note": 2000, "why": "RETURN_REASON_COMMANDED"},
        {"note": 100, "why": "RETURN_REASON_COMMANDED"},
        {"ticket": TICKET, "why": "RETURN_REASON_COMMANDED"},
    ]
    s = srig.runtime.state
    assert s.credits == [0] and s.escrow == {} and s.ticket_escrow == {}
    assert s.lifetime["bills_in"] == s.lifetime["bills_in_count"] == 0
    assert s.lifetime["tickets_in_count"] == 0
    assert srig.bv_status()["cashbox"] == {"notes": [], "tickets": []}
    assert srig.money_events() == []
    assert srig.runtime.core.audit_credits() is None

    stopped = srig.call("bill_test", {"action": "stop"})
    assert stopped.data["running"] is False and stopped.data["notes"] == [2000, 100]
    srig.until(lambda: not srig.bv_status()["enabled"])  # the terminal's own: service mode
    assert srig.bv("insert 2000") == "ok rejected REJECT_REASON_DISABLED"
    srig.session.leave()
    srig.until(
        lambda: srig.bv_status()["note_values"] == list(srig.runtime.state.config.accepted_notes)
    )
    assert srig.bv("insert 2000").startswith("ok escrow")  # play again: credited as usual
    srig.until(lambda: srig.runtime.state.credits == [2000])
    assert srig.runtime.state.lifetime["bills_in"] == 2000
    assert srig.runtime.core.audit_credits() is None
    assert audit_log.verify(srig.runtime.journal) == len(audit_log.entries(srig.runtime.journal))


def test_note_in_escrow_when_the_test_stops_is_returned(srig):
    srig.start_test()
    assert srig.bv("insert 5000").startswith("ok escrow")  # in escrow on the validator ...
    srig.call("bill_test", {"action": "stop"})  # ... the test stops ...
    srig.session.leave()  # ... and the terminal takes money again at once
    srig.until(lambda: srig.bv_status()["handed_back"] != [] and srig.bv_status()["unacked"] == [])
    assert srig.bv_status()["handed_back"] == [{"note": 5000, "why": "RETURN_REASON_COMMANDED"}]
    srig.until(lambda: srig.bv_status()["enabled"])
    for _ in range(20):
        srig.runtime.pump()
    assert srig.runtime.state.credits == [0] and srig.runtime.state.escrow == {}
    assert srig.bv_status()["cashbox"]["notes"] == [] and srig.money_events() == []


def test_validator_power_cut_mid_test_returns_the_note_without_credit(srig):
    srig.start_test()
    assert srig.bv("insert 10000").startswith("ok escrow")
    srig.sims.processes["bill-validator"].kill()  # before or after the driver's return
    srig.sims.processes["bill-validator"].wait()
    srig.respawn("bill-validator")
    srig.until(lambda: srig.bv_status()["enabled"] and srig.bv_status()["unacked"] == [], 15)
    back = srig.bv_status()["handed_back"]
    assert [item["note"] for item in back] == [10_000]  # once, by command or at power-up
    assert srig.bv_status()["note_values"] == sorted(NOTE_VALUES)  # the test goes on
    srig.insert_and_get_back("insert", "500")
    notes = srig.call("bill_test", {"action": "status"}).data["notes"]
    # listed unless the validator died before its escrow event got out (then it returned the
    # note at power-up, a return the terminal's journal finds nothing to match)
    assert notes in ([10_000, 500], [500])
    assert srig.runtime.state.credits == [0] and srig.money_events() == []
    assert srig.runtime.core.audit_credits() is None


def test_test_voucher_is_a_void_png_and_touches_no_money(srig):
    sequence = srig.runtime.voucher_sequence
    outcome = srig.call("voucher_test")
    assert outcome.ok and outcome.title == "Test voucher printed (VOID, no value)"
    (test,) = srig.vouchers()["tests"]
    assert test["printed"] is True and test["terminal_id"] == "TK-0042"
    png = Path(test["png"])
    lines = printed_text(png)
    assert lines[:5] == [
        "CASINO TEST",
        "TEST VOUCHER",
        "*** VOID ***",
        "NO VALUE - NOT NEGOTIABLE",
        "NO VALIDATION NUMBER",
    ]
    assert "TERMINAL TK-0042" in lines and "TEST # 0001" in lines[5]
    assert zxingcpp.read_barcodes(Image.open(png)) == []  # nothing a validator could redeem
    assert srig.vouchers()["printed"] == {} and srig.vouchers()["voided"] == []
    assert srig.runtime.voucher_sequence == sequence
    assert srig.runtime.state.lifetime["tickets_out_count"] == 0
    status = srig.call("devices").data["printer"]
    assert status["test_vouchers"] == 1 and status["ready"] is True

    assert srig.printer("fault paper-out") == "ok"
    srig.until(lambda: "paper_out" in srig.runtime.state.tilts)
    outcome = srig.call("voucher_test")
    assert not outcome.ok and outcome.title == "Test voucher NOT printed: paper out"
    assert srig.printer("fix paper-out") == "ok"
    srig.until(lambda: "paper_out" not in srig.runtime.state.tilts)

    assert srig.printer("fail-next-print jam") == "ok"  # jams half way
    outcome = srig.call("voucher_test")
    assert outcome.title == "Test voucher NOT printed: printer jam"
    tests = srig.vouchers()["tests"]
    assert [t["printed"] for t in tests] == [True, False]
    assert printed_text(Path(tests[1]["png"]))[-1] == "NOT PRINTED COMPLETELY"
    assert srig.call("devices").data["printer"]["test_vouchers"] == 1
    assert srig.runtime.state.credits == [0] and srig.vouchers()["printed"] == {}
