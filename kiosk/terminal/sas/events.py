"""Which SAS exceptions each journaled terminal event raises (the one mapping table).

:func:`effects_of` is pure: an event and the meters after it in, :class:`RowEffects` out.  Real-
time event data (sent with an exception while the host has real-time reporting on) is built
here from the same journaled values: the bill's country, denomination and count (4F), the
credits wagered and the coin-in meter (7E), the win (7F).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kiosk.terminal.core import events as e
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.queue import NewException, RowEffects
from kiosk.terminal.sas.wire import ExceptionCode as X

#: door name (kiosk SetDoor / the cabinet's switches) -> (opened, closed) exceptions
DOOR_EXCEPTIONS: dict[str, tuple[int, int]] = {
    "main": (X.SLOT_DOOR_OPENED, X.SLOT_DOOR_CLOSED),
    "slot": (X.SLOT_DOOR_OPENED, X.SLOT_DOOR_CLOSED),
    "cashbox": (X.CASHBOX_DOOR_OPENED, X.CASHBOX_DOOR_CLOSED),
    "drop": (X.DROP_DOOR_OPENED, X.DROP_DOOR_CLOSED),
    "logic": (X.CARD_CAGE_OPENED, X.CARD_CAGE_CLOSED),
    "card_cage": (X.CARD_CAGE_OPENED, X.CARD_CAGE_CLOSED),
    "belly": (X.BELLY_DOOR_OPENED, X.BELLY_DOOR_CLOSED),
}

#: tilt code -> exception (others: general tilt 20)
TILT_EXCEPTIONS: dict[str, int] = {
    TiltCode.PRINTER: X.PRINTER_COMMUNICATION_ERROR,
    TiltCode.PAPER_OUT: X.PRINTER_PAPER_OUT,
    TiltCode.PRINTER_JAM: X.PRINTER_CARRIAGE_JAMMED,
    TiltCode.HEAD_OPEN: X.PRINTER_COMMUNICATION_ERROR,
    TiltCode.PRINTER_LINK: X.PRINTER_COMMUNICATION_ERROR,
    TiltCode.BILL_JAM: X.BILL_JAM,
    TiltCode.CASHBOX_FULL: X.CASHBOX_FULL,
    TiltCode.CASHBOX_REMOVED: X.CASHBOX_REMOVED,
    TiltCode.BILL_VALIDATOR_LINK: X.BILL_ACCEPTOR_HARDWARE_FAILURE,
}


def _one(code: int, data: bytes = b"", *, rte_only: bool = False) -> RowEffects:
    return RowEffects((NewException(code, data, rte_only),))


def _bill(ev: e.BillStacked, meters: Mapping[str, int]) -> RowEffects:
    code = wire.BILL_ACCEPTED_EXCEPTIONS.get(ev.value, X.BILL_ACCEPTED)
    denomination = wire.BILL_DENOMINATION_CODES.get(ev.value)
    data = b""
    if denomination is not None:  # 4F's data: country, denomination, count of that note
        data = bytes([wire.COUNTRY_CODE_USD, denomination]) + wire.meter_bcd(
            meters.get(f"bills_in.{ev.value}", 0)
        )
    return RowEffects((NewException(code, data),))


def _round_started(ev: e.RoundStarted, meters: Mapping[str, int]) -> RowEffects:
    wagered = sum(bet.bet.total for bet in ev.bets) if ev.bets else 0
    data = (
        wire.to_bcd(min(wagered, 9999), 2)
        + wire.meter_bcd(meters.get("coin_in", 0))
        + b"\x00\x00"  # wager type, progressive group
    )
    return _one(X.GAME_STARTED, data, rte_only=True)


def _round_settled(ev: e.RoundSettled, meters: Mapping[str, int]) -> RowEffects:
    won = sum(seat.paid for seat in ev.seats)
    return _one(X.GAME_ENDED, wire.meter_bcd(won), rte_only=True)


def _door(ev: e.DoorChanged, meters: Mapping[str, int]) -> RowEffects:
    opened, closed = DOOR_EXCEPTIONS.get(ev.door, DOOR_EXCEPTIONS["main"])
    return _one(opened if ev.open else closed)


def _tilt(ev: e.TiltRaised, meters: Mapping[str, int]) -> RowEffects:
    return _one(TILT_EXCEPTIONS.get(ev.code, X.GENERAL_TILT))


def _tilt_cleared(ev: e.TiltCleared, meters: Mapping[str, int]) -> RowEffects:
    if ev.code == TiltCode.CASHBOX_REMOVED:
        return _one(X.CASHBOX_INSTALLED)
    return RowEffects()


def _service(ev: e.ServiceChanged, meters: Mapping[str, int]) -> RowEffects:
    if ev.role == "attendant":
        return _one(X.ATTENDANT_MENU_ENTERED if ev.active else X.ATTENDANT_MENU_EXITED)
    return _one(X.OPERATOR_MENU_ENTERED if ev.active else X.OPERATOR_MENU_EXITED)


def _printed(ev: e.VoucherPrinted, meters: Mapping[str, int]) -> RowEffects:
    return RowEffects(
        (NewException(X.CASHOUT_TICKET_PRINTED),), ((ev.validation_number, ev.value, ev.at),)
    )


def _transferred(ev: e.FundsTransferred, meters: Mapping[str, int]) -> RowEffects:
    if ev.kind != "legacy_bonus":
        return _one(X.AFT_TRANSFER_COMPLETE)
    # 7C's event data: multiplier, multiplied win, tax status, bonus (no multiplied jackpots)
    data = b"\x00" + wire.meter_bcd(0) + bytes([ev.tax_status]) + wire.meter_bcd(ev.cashable)
    return _one(X.LEGACY_BONUS_AWARDED, data)


def _progressive(ev: e.ProgressiveAwarded, meters: Mapping[str, int]) -> RowEffects:
    # a hit at the handpay limit is a handpay (51); 56 and 54 come from the progressive link
    return _one(X.HANDPAY_PENDING) if ev.handpay else RowEffects()


Mapper = Callable[[e.Event, Mapping[str, int]], RowEffects]


def _fixed(code: int) -> Mapper:
    return lambda ev, meters: _one(code)


def _typed(handler: Callable[..., RowEffects]) -> Mapper:
    return handler


#: event class -> its exceptions
MAPPING: dict[type[e.Event], Mapper] = {
    e.PoweredUp: _fixed(X.AC_POWER_APPLIED),
    e.CriticalMemoryError: _fixed(X.RAM_ERROR_NO_DATA_RECOVERED),
    e.StorageFull: _fixed(X.GENERAL_TILT),
    e.RamCleared: _fixed(X.MEMORY_ERROR_RESET),
    e.ConfigChanged: _fixed(X.OPERATOR_CHANGED_OPTIONS),
    e.PeriodMetersReset: _fixed(X.SOFT_METERS_RESET),
    e.BillStacked: _typed(_bill),
    e.BillReturned: _fixed(X.BILL_REJECTED),
    e.TicketRedeemed: _fixed(X.TICKET_TRANSFER_COMPLETE),
    e.TicketReturned: _fixed(X.TICKET_TRANSFER_COMPLETE),
    e.RoundStarted: _typed(_round_started),
    e.RoundSettled: _typed(_round_settled),
    e.VoucherPrinted: _typed(_printed),
    e.HandpayLocked: _fixed(X.HANDPAY_PENDING),
    e.HandpayReset: _fixed(X.HANDPAY_RESET),
    e.TiltRaised: _typed(_tilt),
    e.TiltCleared: _typed(_tilt_cleared),
    e.DoorChanged: _typed(_door),
    e.ServiceChanged: _typed(_service),
    e.FundsTransferred: _typed(_transferred),
    e.ProgressiveAwarded: _typed(_progressive),
}


def effects_of(event: e.Event, meters: Mapping[str, int]) -> RowEffects:
    """The exceptions (and ticket records) one journaled event raises."""
    mapper = MAPPING.get(type(event))
    return RowEffects() if mapper is None else mapper(event, meters)
