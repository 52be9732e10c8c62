"""SAS 7B: the validation host's changes are applied, kept across a restart and answered with
the status in force (decision 0067).  Against a real terminal's journal and its SAS store."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from kiosk.terminal.app.wiring import Terminal, build_terminal
from kiosk.terminal.devices.ports import Voucher
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.sas.validation_status import (
    CASHOUT_TICKETS,
    HANDPAY_RECEIPTS,
    RESTRICTED_TICKETS,
    TICKET_REDEMPTION,
    VALIDATE_HANDPAYS,
    ValidationStatus,
)
from kiosk.terminal.sas.wire import ExceptionCode as X
from kiosk.terminal.sas.wire import LongPoll as P
from kiosk.terminal.sas.wire import from_bcd, to_bcd
from kiosk.terminal.textui.session import PlaySession
from tests.helpers.sas_rig import ADDRESS, SasRig


def status_poll(
    rig: SasRig, mask: int = 0, states: int = 0, days: int = 0, restricted: int = 0
) -> tuple[int, int, int]:
    """Send 7B; the answer's (status bits, cashable expiration, restricted expiration)."""
    body = (
        mask.to_bytes(2, "little")
        + states.to_bytes(2, "little")
        + to_bcd(days, 2)
        + to_bcd(restricted, 2)
    )
    answer = rig.m_poll(P.EXTENDED_VALIDATION_STATUS, body)
    assert answer[0] == 10 and int.from_bytes(answer[1:5], "little") == ADDRESS
    return int.from_bytes(answer[5:7], "little"), from_bcd(answer[7:9]), from_bcd(answer[9:11])


def test_the_answer_says_what_is_in_force() -> None:
    kept = ValidationStatus()
    assert kept.bits == CASHOUT_TICKETS | TICKET_REDEMPTION
    off = kept.changed(CASHOUT_TICKETS, 0, 0, 0)
    assert off.bits == TICKET_REDEMPTION and not off.cashout_tickets
    # a bit not masked keeps its state; the functions this terminal does not make stay off
    asked = HANDPAY_RECEIPTS | VALIDATE_HANDPAYS | RESTRICTED_TICKETS
    assert off.changed(asked, asked, 0, 0).bits == TICKET_REDEMPTION
    assert off.changed(CASHOUT_TICKETS, CASHOUT_TICKETS, 0, 0).bits == kept.bits
    # expirations: 0000 keeps the one in force, 9999 never expires
    dated = kept.changed(0, 0, 90, 7)
    assert (dated.cashable_days, dated.restricted_days) == (90, 7)
    assert dated.changed(0, 0, 0, 0) == dated
    assert dated.changed(0, 0, 9999, 0).expiry_days(30) == 9999
    assert kept.expiry_days(30) == 30  # the operator's until the host sets one
    assert ValidationStatus.from_json(dated.to_json()) == dated
    assert ValidationStatus.from_json({"bits": "x"}) == ValidationStatus()


def test_cash_out_tickets_off_make_a_cash_out_a_handpay(rig: SasRig) -> None:
    """Issue 28: the host turns cash-out tickets off; the next cash-out is a handpay at once
    (no number asked of the host), and turned on again a cash-out asks for one."""
    runtime = rig.terminal.runtime
    rig.drain()
    assert status_poll(rig, CASHOUT_TICKETS, 0)[0] == TICKET_REDEMPTION
    started = time.monotonic()
    rig.play("bill 20", "cashout")
    assert time.monotonic() - started < rig.link.bridge.wait  # not waited for a number
    assert runtime.state.handpay is not None and runtime.state.handpay.value == 2000
    exceptions = rig.drain()
    assert X.HANDPAY_PENDING in exceptions and X.SYSTEM_VALIDATION_REQUEST not in exceptions
    assert runtime.state.lifetime["tickets_out"] == 0
    assert (
        status_poll(rig, CASHOUT_TICKETS, CASHOUT_TICKETS)[0] == CASHOUT_TICKETS | TICKET_REDEMPTION
    )


def test_ticket_redemption_off_returns_a_ticket_unasked(rig: SasRig) -> None:
    bridge = rig.link.bridge
    rig.drain()
    assert status_poll(rig, TICKET_REDEMPTION, 0)[0] == CASHOUT_TICKETS
    accepted, cents, reason = bridge.request_ticket("012345678901234567")
    assert (accepted, cents) == (False, 0) and "ticket redemption off" in reason
    assert X.TICKET_INSERTED not in rig.drain()
    status = rig.m_poll(P.REDEEM_TICKET, b"\xff")
    assert status[1] == 0x80  # rejected


def test_the_hosts_expiration_is_printed_on_cash_out_tickets(
    rig: SasRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = rig.terminal.runtime
    printed: list[Voucher] = []
    real = runtime.printer.print_voucher

    def keep(voucher: Voucher) -> None:
        printed.append(voucher)
        real(voucher)

    monkeypatch.setattr(runtime.printer, "print_voucher", keep)
    assert status_poll(rig, days=90)[1] == 90
    rig.play("bill 20")
    rig.drain()

    def host() -> None:  # the validation host gives the number while the terminal waits
        deadline = time.monotonic() + 5
        while rig.link.bridge.pending_cashout() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        rig.long(P.RECEIVE_VALIDATION_NUMBER, to_bcd(1, 1) + to_bcd(4242, 8))

    poller = threading.Thread(target=host)
    poller.start()
    runtime.cash_out()
    poller.join(5)
    runtime.pump()
    assert [(v.value, v.expires_days) for v in printed] == [(2000, 90)]
    assert runtime.state.config.voucher_expiry_days == 30  # the operator's setting is unchanged


def test_a_malformed_7b_is_not_answered_and_changes_nothing(rig: SasRig) -> None:
    from kiosk.terminal.sas import wire

    body = bytes([8]) + CASHOUT_TICKETS.to_bytes(2, "little") + bytes(2) + b"\x00\x9a" + bytes(2)
    assert rig.poll(wire.long_poll(ADDRESS, P.EXTENDED_VALIDATION_STATUS, body)) is None
    assert status_poll(rig)[0] == CASHOUT_TICKETS | TICKET_REDEMPTION


def test_the_hosts_status_survives_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    settings = SasSettings(port="/dev/null", address=ADDRESS, wakeup="gap")

    def rig_of(terminal: Terminal) -> SasRig:
        out: list[str] = []
        session = PlaySession(terminal, out.append)
        session.start()
        assert terminal.sas_link is not None
        return SasRig(terminal, session, terminal.sas_link, lines=out)

    terminal = build_terminal(data, sas=settings)
    try:
        assert status_poll(rig_of(terminal), CASHOUT_TICKETS, 0, days=45) == (
            TICKET_REDEMPTION,
            45,
            0,
        )
    finally:
        terminal.close()
    terminal = build_terminal(data, sas=settings)
    try:
        rig = rig_of(terminal)
        assert status_poll(rig) == (TICKET_REDEMPTION, 45, 0)
        assert not rig.link.bridge.validation_status().cashout_tickets
    finally:
        terminal.close()
