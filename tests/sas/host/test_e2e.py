"""The host tool against a real terminal over a pty: the short run of the default test suite.

The terminal (its journal, signer, in-process devices and sas16's SAS link) runs in this
process; ``turbokiosk sas host`` is another process that created the pty and follows the
machine with its ticket database.  After notes, a few robot games, a door and a cash-out whose
ticket number the host issued (system validation), the last meter sweep must read every SAS
meter equal to ``turbokiosk meters`` to the cent, and the host's ticket database must hold the
printed ticket.  The long runs (soak, kills, tickets across terminals, the bad-input campaign)
are in ``test_e2e_long.py`` (``tox -e sas``).
"""

from __future__ import annotations

import time
from pathlib import Path

from kiosk.host.sas.tickets import TicketDb, TicketState
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.sas.wire import ExceptionCode as X
from tests.sas.host.e2e import HostTool, expected_sas_meters, terminal_meters
from tests.sas.host.sas_terminal import Driver

#: exceptions this run must have brought to the host
REPORTED = (
    X.SLOT_DOOR_OPENED,
    X.SLOT_DOOR_CLOSED,
    X.SYSTEM_VALIDATION_REQUEST,
    X.CASHOUT_TICKET_PRINTED,
    X.BILL_ACCEPTED_20,
    X.BILL_ACCEPTED_100,
)  # game started/ended (7E/7F) come only with real-time event reporting


def test_host_tool_reads_a_playing_terminal_to_the_cent(tmp_path: Path) -> None:
    tickets = tmp_path / "tickets.sqlite3"
    host = HostTool(tmp_path, 1, tickets, "--interval-ms", "100")
    terminal = build_terminal(tmp_path / "term", sas=SasSettings(port=str(host.link), address=1))
    try:
        terminal.runtime.power_up()
        assert terminal.sas_link is not None
        terminal.sas_link.start()
        driver = Driver(terminal, None)
        driver.bill(2_000)
        driver.bill(10_000)
        driver.robot(4, seed=16, fault_rate=0.0)
        driver.do(["door", "open"])
        driver.do(["door", "close"])
        cashed = driver.cashout()["cashed_out"]
        assert cashed > 0 and terminal.runtime.state.credits[0] == 0
        host.sweep(lambda: driver.pump(0.05))
        link = terminal.sas_link
        deadline = time.monotonic() + 20
        while link.queue.next(False) is not None and time.monotonic() < deadline:  # low last
            driver.pump(0.05)
        driver.pump(0.3)  # the last one's general poll answered and recorded
        report = terminal_meters(tmp_path / "term", in_process=True)
    finally:
        terminal.close()
        status, err = host.stop()
    assert status == 0, err
    read = host.last_values()
    expected = expected_sas_meters(report)
    wrong = {
        key: (read.get(key), value)
        for key, value in expected.items()
        if read.get(key) != str(value)
    }
    assert not wrong, wrong
    assert report["lifetime"]["tickets_out"] >= cashed  # the robot may have cashed out too
    codes = [int(r["value"]) for r in host.records() if r["kind"] == "exception"]
    for code in REPORTED:
        assert code in codes, f"{code!r} never reported"
    db = TicketDb(tickets, lambda: 0)
    try:
        printed = db.all()
        assert {ticket.state for ticket in printed} == {TicketState.PRINTED}
        assert {ticket.issued_by for ticket in printed} == {"machine-1"}
        assert sum(ticket.amount_cents for ticket in printed) == report["lifetime"]["tickets_out"]
        assert len(printed) == report["lifetime"]["tickets_out_count"]
        assert printed[-1].amount_cents == cashed
    finally:
        db.close()
