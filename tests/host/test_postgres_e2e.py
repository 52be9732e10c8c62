"""``turbokiosk host serve --db postgresql://...`` as a real process, with a real terminal.

The host is a subprocess on loopback (gRPC, mutual TLS) keeping its records on the test
PostgreSQL server; the terminal is a runtime in this process (its link, journal and outbox as in
the field).  It plays games, stacks a bill, cashes out two vouchers and redeems one through the
host's ticket-in validation.  Then ``turbokiosk host terminals|meters|vouchers --json`` (real
processes too) must show what the terminal's own journal and meters say, to the cent.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.kernel import integrity
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import Phase
from kiosk.terminal.hostlink.wiring import HostEndpoint
from kiosk.terminal.robot import Robot
from tests.helpers.host_checks import journal_reports
from tests.helpers.host_process import host_process
from tests.helpers.host_rig import Pki, TerminalRig

TERMINAL = "TK-A"


def _turbokiosk(*argv: str) -> list[str]:
    return [sys.executable, "-m", "kiosk", *argv]


@pytest.fixture
def pg_host(postgres_server: Any, pki_set: Pki, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A running ``turbokiosk host serve --db postgresql://...``: (address, database URL)."""
    url: str = postgres_server.new_database(url=True)
    enrolled = subprocess.run(
        _turbokiosk("host", "terminals", "enroll", TERMINAL, "--db", url),
        capture_output=True,
        text=True,
        check=True,
    )
    assert enrolled.stdout == f"{TERMINAL}: enrolled (was not enrolled)\n"
    serve = ("--db", url, "--pki", str(pki_set.dir), "--meter-period", "1")
    with host_process(*serve, log=tmp_path / "host.log") as address:
        yield address, url


def _query(url: str, *argv: str) -> Any:
    done = subprocess.run(
        _turbokiosk("host", *argv, "--db", url, "--json"),
        capture_output=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def _cash_out(rig: TerminalRig, cents: int) -> str:
    rt = rig.runtime
    rig.validator.insert(cents)
    rig.pump_until(lambda: rt.state.credits[0] == cents)
    rt.cash_out()
    rig.pump_until(lambda: rt.state.phase is not Phase.CASHOUT)
    printed = [r.event for r in rt.journal.rows() if isinstance(r.event, e.VoucherPrinted)]
    return printed[-1].validation_number


def test_a_terminal_on_a_postgresql_host_process(
    pg_host: tuple[str, str], pki_set: Pki, tmp_path: Path
) -> None:
    address, url = pg_host
    rig = TerminalRig(
        tmp_path / TERMINAL, HostEndpoint(address, pki_set.terminal(TERMINAL), TERMINAL)
    ).start()
    try:
        rt = rig.runtime
        kept, redeemed = _cash_out(rig, 2000), _cash_out(rig, 5000)
        rig.pump_until(rig.outbox_empty)  # the host has both vouchers as printed
        # the patron inserts the second voucher: the host reserves it, the terminal credits it
        answer = rig.wiring.client.validate_ticket(redeemed)
        assert (answer.accepted, answer.value) == (True, 5000)
        # the escrow path a voucher takes: the host's answer, then stacked
        rt.execute(c.InsertTicket(validation_number=redeemed, value=answer.value))
        rt.execute(c.TicketStackedReport(validation_number=redeemed))
        rig.wiring.client.ticket_stacked(redeemed)
        robot = Robot(rt, rig.validator, rig.printer, random.Random(11), fault_rate=0.0)
        for _ in range(8):
            robot.play_game()
        rig.validator.insert(10_000)
        rig.pump_until(lambda: rt.state.credits[0] >= 10_000)
        rig.pump_until(lambda: rig.outbox_empty() and rig.link.connected)
        meters = rt.state.lifetime.as_dict()
        journal = [row.event for row in rt.journal.rows()]
        reports = journal_reports(rt.journal)
    finally:
        rig.close()

    (terminal,) = _query(url, "terminals")
    assert terminal["terminal_id"] == TERMINAL and terminal["enabled"] == 1
    assert terminal["software_signature"] == integrity.manifest().digest
    assert terminal["events"] == len(reports)

    snapshot = _query(url, "meters", TERMINAL)[TERMINAL][0]
    assert snapshot["meters"] == meters  # every lifetime meter, to the cent
    bills = [x.value for x in journal if isinstance(x, e.BillStacked)]
    printed = {x.validation_number: x.value for x in journal if isinstance(x, e.VoucherPrinted)}
    games = [x for x in journal if isinstance(x, e.RoundSettled)]
    assert (meters["bills_in"], meters["bills_in_count"]) == (sum(bills), len(bills))
    assert (meters["tickets_out"], meters["tickets_out_count"]) == (
        sum(printed.values()),
        len(printed),
    )
    assert (meters["tickets_in"], meters["tickets_in_count"]) == (5000, 1)
    assert meters["games_played"] == len(games) >= 8
    assert meters["bills_in"] >= 2000 + 5000 + 10_000

    vouchers = {v["validation_number"]: v for v in _query(url, "vouchers", "--last", "1000")}
    assert {n: v["value_cents"] for n, v in vouchers.items()} == printed
    assert (vouchers[redeemed]["state"], vouchers[redeemed]["holder"]) == ("redeemed", TERMINAL)
    assert {v["state"] for n, v in vouchers.items() if n != redeemed} == {"issued"}
    assert vouchers[kept]["value_cents"] == 2000
