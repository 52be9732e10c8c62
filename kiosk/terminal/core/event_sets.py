"""Which events the records keep apart: the one place that decides it, by event class.

- :data:`LOGGED`: the event log's kinds (tilts, doors, power, configuration, money events and
  recoveries); the game round's own events live in recall instead.  The journal writes these
  to its ``event_log`` table; ``turbokiosk events`` and the service menu filter by their names.
- :data:`METERED`: events after which the lifetime meters may have moved; the host link sends a
  meter snapshot with every commit holding one (a RAM clear starts the meters of a new store);
- :data:`ESCROW_ENDINGS`: the logged events that end an escrow (read back at power-up).
"""

from __future__ import annotations

from kiosk.terminal.core import events as e

LOGGED: frozenset[type[e.Event]] = frozenset(
    {
        e.PoweredUp,
        e.CriticalMemoryError,
        e.StorageFull,
        e.RamCleared,
        e.HeadWithdrawn,
        e.ConfigChanged,
        e.PeriodMetersReset,
        e.BillStacked,
        e.BillReturned,
        e.TicketRedeemed,
        e.CashoutStarted,
        e.VoucherPrinted,
        e.VoucherFailed,
        e.HandpayLocked,
        e.HandpayReset,
        e.TiltRaised,
        e.TiltCleared,
        e.DoorChanged,
        e.EnableChanged,
        e.ServiceChanged,
        e.DeviceBaselineRecorded,
        e.FundsTransferred,
        e.ProgressiveAwarded,
    }
)

#: the names of :data:`LOGGED` (as journaled in each row's ``kind``)
LOGGED_KINDS: frozenset[str] = frozenset(cls.type_name for cls in LOGGED)

METERED: frozenset[type[e.Event]] = frozenset(
    {
        e.PoweredUp,
        e.RamCleared,
        e.BillStacked,
        e.TicketRedeemed,
        e.RoundStarted,
        e.RoundSettled,
        e.RoundVoided,
        e.VoucherPrinted,
        e.HandpayReset,
        e.TiltRaised,
        e.DoorChanged,
        e.FundsTransferred,
        e.ProgressiveAwarded,
    }
)


#: logged events that end an escrow: the runtime seeds the core's memory of how each seat's
#: last escrow ended from them at power-up (``TicketReturned`` ends one too, but is not logged)
ESCROW_ENDINGS: frozenset[type[e.Event]] = frozenset(
    {e.BillStacked, e.BillReturned, e.TicketRedeemed}
)


def kind_names(classes: frozenset[type[e.Event]]) -> tuple[str, ...]:
    """The journaled names of event classes, sorted (for the event log's ``kinds`` filter)."""
    return tuple(sorted(cls.type_name for cls in classes))


def is_logged(event: e.Event) -> bool:
    """Whether the event log keeps ``event``."""
    return type(event) in LOGGED


def moves_meters(event: e.Event) -> bool:
    """Whether ``event`` may have moved the lifetime meters."""
    return type(event) in METERED
