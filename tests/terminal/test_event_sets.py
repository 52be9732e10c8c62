"""Which events are logged, metered or end an escrow: decided once, by class."""

from __future__ import annotations

from kiosk.terminal.core import event_sets
from kiosk.terminal.core import events as e
from kiosk.terminal.store import journal


def test_the_event_log_keeps_the_kinds_it_always_kept() -> None:
    assert journal.LOGGED_KINDS is event_sets.LOGGED_KINDS
    always = {
        "PoweredUp", "CriticalMemoryError", "StorageFull", "RamCleared", "ConfigChanged",
        "PeriodMetersReset", "BillStacked", "BillReturned", "TicketRedeemed", "CashoutStarted",
        "VoucherPrinted", "VoucherFailed", "HandpayLocked", "HandpayReset", "TiltRaised",
        "TiltCleared", "DoorChanged", "EnableChanged", "ServiceChanged", "DeviceBaselineRecorded",
        "HeadWithdrawn",  # a signed head the store no longer had (issue 23)
        "FundsTransferred",  # SAS AFT and legacy bonus transfers (issue 28)
        "ProgressiveAwarded",  # a progressive hit paid (decision 0066)
    }  # fmt: skip
    assert always == event_sets.LOGGED_KINDS


def test_the_escrow_endings_read_back_at_power_up_are_logged() -> None:
    assert event_sets.ESCROW_ENDINGS <= event_sets.LOGGED
    assert event_sets.kind_names(event_sets.ESCROW_ENDINGS) == (
        "BillReturned",
        "BillStacked",
        "TicketRedeemed",
    )
    assert event_sets.is_logged(e.BillStacked(at=1, seat=0, value=0)) and not event_sets.is_logged(
        e.CardsDealt(at=1, stage="", shared=[], per_seat=[], offers=0)
    )
    assert event_sets.moves_meters(
        e.RoundSettled(at=1, game_number=0, seats=())
    ) and not event_sets.moves_meters(e.TiltCleared(at=1, code="", by=""))
