"""Legacy bonusing: 8A pay a bonus, 90 the last bonus, 9A the bonus meters (docs/sas.md).

A bonus is a transfer like AFT's (:mod:`kiosk.terminal.sas.funds`): logged, posted to the
terminal's thread, made once by the core (``FundsTransferred`` of kind ``legacy_bonus``)."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.terminal.sas import wire
from kiosk.terminal.sas.funds import SasMachine, TransferIntent, desk_of
from kiosk.terminal.sas.polling import game_number
from kiosk.terminal.sas.wire import LongPoll as P
from kiosk.terminal.sas.wire import LongPollFrame


def _legacy_bonus(m: SasMachine, frame: LongPollFrame) -> bytes:
    desk = desk_of(m)
    try:
        amount = wire.from_bcd(frame.data[:4])
    except wire.BcdError:
        return wire.nack(m.address)
    tax = frame.data[4]
    if tax > 2 or amount <= 0 or amount > desk.limit:
        return wire.nack(m.address)
    intent = TransferIntent(
        kind="legacy_bonus",
        transaction_id=desk.next_bonus_id(),
        cashable=amount,
        limit=desk.limit,
        tax_status=tax,
    )
    desk.submit(intent)
    return m.ack()


def _legacy_bonus_win(m: SasMachine, frame: LongPollFrame) -> bytes:
    bonuses = [t for t in m.snapshot().transfers if t.kind == "legacy_bonus"]
    last = bonuses[-1] if bonuses else None
    amount, tax = (last.cashable, last.tax_status) if last else (0, 0)
    body = b"\x00" + wire.meter_bcd(0) + bytes([tax]) + wire.meter_bcd(amount)
    return m.respond(frame.command, body)


def _legacy_bonus_meters(m: SasMachine, frame: LongPollFrame) -> bytes:
    game = game_number(m, frame.data)
    snapshot = m.snapshot()
    values = [snapshot.meter(f"legacy_bonus.{tax}") if game == 0 else 0 for tax in (0, 1, 2)]
    return m.respond(frame.command, frame.data[:2] + b"".join(wire.meter_bcd(v) for v in values))


#: validation type (50) -> (count meter, cents meter); the others are validations this
#: terminal never makes (restricted tickets, AFT tickets, handpay receipts): zero


#: the legacy bonus polls, added to ``machine.LONG_POLLS`` as separate entries
BONUS_POLLS: dict[int, Callable[[SasMachine, LongPollFrame], bytes | None]] = {
    P.LEGACY_BONUS_PAY: _legacy_bonus,
    P.SEND_LEGACY_BONUS_WIN: _legacy_bonus_win,
    P.SEND_LEGACY_BONUS_METERS: _legacy_bonus_meters,
}
