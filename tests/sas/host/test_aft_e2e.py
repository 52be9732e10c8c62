"""The host tool's AFT and bonus commands against a real terminal over a pty (issue 28).

``turbokiosk sas host --commands`` asks for a transfer in, a transfer out and a legacy bonus
from its console; the terminal (journal, SAS link) runs in this process.  Each arrives once,
as the journal's ``FundsTransferred`` rows, to the cent.
"""

from __future__ import annotations

import time
from pathlib import Path

from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import events as e
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.textui.session import PlaySession
from tests.sas.host.e2e import HostTool
from tests.sas.host.sas_terminal import Driver


def _aft_records(host: HostTool) -> list[dict[str, str]]:
    return [r for r in host.records() if r["kind"] == "aft"]


def _wait(driver: Driver, check: object, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not callable(check) or not check():
        assert time.monotonic() < deadline, "not in time"
        driver.pump(0.05)


def test_host_tool_moves_money_in_and_out_once(tmp_path: Path) -> None:
    host = HostTool(tmp_path, 1, None, "--interval-ms", "50", console=True)
    terminal = build_terminal(tmp_path / "term", sas=SasSettings(port=str(host.link), address=1))
    try:
        terminal.runtime.power_up()
        assert terminal.sas_link is not None
        terminal.sas_link.start()
        driver = Driver(terminal, None)
        host.command("aft-in 3000")
        _wait(driver, lambda: len(_aft_records(host)) == 1)
        host.command("aft-out 5000")  # partial: the 3000 there
        _wait(driver, lambda: len(_aft_records(host)) == 2)
        host.command("bonus 250")
        _wait(driver, lambda: terminal.runtime.state.credits[0] == 250)
        _wait(driver, lambda: any(r["name"] == "legacy_bonus" for r in host.records()))
        rows = [
            row.event
            for row in terminal.runtime.journal.rows()
            if isinstance(row.event, e.FundsTransferred)
        ]
    finally:
        terminal.close()
        status, err = host.stop()
    assert status == 0, err
    made = [(r["source"], int(r["value"])) for r in _aft_records(host)]
    assert made == [("aft_in", 3000), ("aft_out", 3000)]
    assert [(row.kind, row.cashable) for row in rows] == [
        ("aft_in", 3000),
        ("aft_out", 3000),
        ("legacy_bonus", 250),
    ]
    assert [r["name"] for r in _aft_records(host)] == [row.transaction_id for row in rows[:2]]


def test_host_tool_turns_cash_out_tickets_off_over_a_pty(tmp_path: Path) -> None:
    """7B from the host tool: cash-out tickets off and the host's expiry; the machine answers
    the status in force, and the next cash-out is a handpay."""
    host = HostTool(tmp_path, 1, None, "--interval-ms", "50", console=True)
    terminal = build_terminal(tmp_path / "term", sas=SasSettings(port=str(host.link), address=1))
    try:
        terminal.runtime.power_up()
        assert terminal.sas_link is not None
        terminal.sas_link.start()
        driver = Driver(terminal, None)
        host.command("cashout-tickets off")
        values = host.last_values
        _wait(driver, lambda: ("validation_status", "validation_status_bits") in values())
        host.command("ticket-expiry 120")
        _wait(driver, lambda: values()[("validation_status", "cashable_expiration_days")] == "120")
        bridge = terminal.sas_link.bridge
        assert not bridge.validation_status().cashout_tickets
        runtime = terminal.runtime
        out: list[str] = []
        session = PlaySession(terminal, out.append)
        session.handle("bill 20")
        _wait(driver, lambda: runtime.state.credits[0] == 2000)
        session.handle("cashout")
        _wait(driver, lambda: runtime.state.handpay is not None)
    finally:
        terminal.close()
        status, err = host.stop()
    assert status == 0, err
    shown = host.last_values()
    assert shown[("validation_status", "validation_status_bits")] == "0020"
    assert shown[("validation_status", "cashable_expiration_days")] == "120"
    assert runtime.state.handpay is not None and runtime.state.handpay.value == 2000
