"""What the text terminal says for each event outside a round (a characterisation of
kiosk/terminal/textui/narrate.py, recorded before its match statement became a table of sayings);
rounds are narrated in tests/cli/test_play_session.py."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.textui.narrate import Narrator

STATE = SimpleNamespace(config=SimpleNamespace(terminal_id="T-7"), credits={0: 12_345, 1: 50})

SAYINGS: list[tuple[e.Event, list[str]]] = [
    (
        e.PoweredUp(at=1, software_version="1.4", recovered="round 7 settled"),
        ["Terminal T-7 powered up (software 1.4).", "Recovery: round 7 settled"],
    ),
    (
        e.PoweredUp(at=1, software_version="1.4", recovered=""),
        ["Terminal T-7 powered up (software 1.4)."],
    ),
    (
        e.CriticalMemoryError(at=1, reason="bad chain"),
        ["CRITICAL MEMORY ERROR: bad chain. The terminal is locked."],
    ),
    (e.BillStacked(at=1, seat=1, value=2000), ["$20.00 note stacked: credits $0.50."]),
    (
        e.RoundVoided(at=1, game_number=9, reason="table closed", returned=500),
        ["Game 9 voided: table closed; $5.00 returned: credits $123.45."],
    ),
    (
        e.BillReturned(at=1, seat=0, value=500, reason="stacker full"),
        ["$5.00 note returned: stacker full."],
    ),
    (
        e.TicketRedeemed(at=1, seat=0, value=750, validation_number="1"),
        ["Voucher $7.50 redeemed: credits $123.45."],
    ),
    (
        e.CashoutStarted(at=1, seat=0, value=12_345, validation_number="1"),
        ["Printing a voucher for $123.45..."],
    ),
    (
        e.VoucherPrinted(at=1, seat=0, value=100, validation_number="001122"),
        ["Voucher printed: $1.00, validation number 001122. Credits $123.45."],
    ),
    (
        e.VoucherFailed(at=1, seat=0, value=100, validation_number="1", reason="paper out"),
        ["Voucher not printed (paper out): the credits stay."],
    ),
    (
        e.HandpayLocked(at=1, seat=0, value=150_000, kind="cancelled_credits", game_number=0),
        ["HANDPAY $1,500.00 (cancelled credits): call an attendant (type 'attendant')."],
    ),
    (
        e.HandpayReset(at=1, seat=0, value=150_000, kind="jackpot", by="attendant"),
        ["Handpay $1,500.00 paid by attendant. Credits $123.45."],
    ),
    (
        e.TiltRaised(at=1, code="printer", reason="paper out", needs_attendant=True),
        ["TILT printer: paper out (needs an attendant)."],
    ),
    (e.TiltRaised(at=1, code="door", reason="open", needs_attendant=False), ["TILT door: open."]),
    (e.TiltCleared(at=1, code="printer", by="attendant"), ["Tilt printer cleared by attendant."]),
    (e.TiltCleared(at=1, code="printer", by=""), ["Tilt printer cleared."]),
    (e.DoorChanged(at=1, door="main", open=True), ["main door opened."]),
    (e.DoorChanged(at=1, door="cash box", open=False), ["cash box door closed."]),
    (e.EnableChanged(at=1, enabled=True, reason=""), ["Play enabled."]),
    (
        e.EnableChanged(at=1, enabled=False, reason="host link lost"),
        ["Play disabled: host link lost."],
    ),
    (e.ServiceChanged(at=1, active=True, role="operator"), ["Service menu entered by operator."]),
    (e.ServiceChanged(at=1, active=False, role=""), ["Service menu left."]),
    (
        e.ConfigChanged(at=1, before={}, after={}, by="operator"),
        ["Configuration changed by operator."],
    ),
    (e.PeriodMetersReset(at=1, by="operator"), ["Period meters reset by operator."]),
    (e.PinAccepted(at=1, role="operator"), []),
    (e.StorageFull(at=1, reason="disk full", since=0), []),
]


def test_each_event_outside_a_round_is_told_as_before() -> None:
    narrator = Narrator(lambda: cast(TerminalState, cast(Any, STATE)), lambda: 0)
    for event, lines in SAYINGS:
        assert narrator.event_lines(event) == lines, event
    assert narrator.lines(event for event, _ in SAYINGS) == [x for _, ls in SAYINGS for x in ls]
