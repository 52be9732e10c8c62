"""Journals of the previous release credited vouchers with ``RedeemTicket``: a ``TicketRedeemed``
with no ``TicketEscrowAccepted`` before it.  The command is gone; such journals still decode,
replay, recover and pass the audit."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.store.audit import audit
from tests.helpers.terminal_rig import Rig

NUMBER = "4" * 18


def test_a_journal_with_an_escrowless_ticket_redeemed_replays_and_audits(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "t")
    rt = rig.runtime
    # what RedeemTicket journaled: the credit alone, committed as the old runtime did
    rt.journal.commit(
        [e.TicketRedeemed(at=rig.clock(), seat=0, value=700, validation_number=NUMBER)]
    )
    rt = rig.power_cut()  # recovery replays the row
    assert rt.state.credits == [700]
    assert rt.state.lifetime["tickets_in"] == 700 and rt.state.lifetime["tickets_in_count"] == 1
    [row] = rt.journal.event_log(kinds=["TicketRedeemed"])
    assert row.event == e.TicketRedeemed(
        at=row.event.at, seat=0, value=700, validation_number=NUMBER
    )
    # the terminal carries on: the credits cash out through the printer as usual
    rt.cash_out()
    rt.pump()
    assert rt.state.credits == [0] and rt.state.lifetime["tickets_out"] == 700
    # a voucher stack reported for it again is a duplicate, never a second credit
    with pytest.raises(c.DuplicateReportError):
        rt.execute(c.TicketStackedReport(NUMBER))
    assert rt.state.credits == [0]
    rt.close()
    assert audit(rig.data_dir).ok  # full replay from genesis equals the recovered state
