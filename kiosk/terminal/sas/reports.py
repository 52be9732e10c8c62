"""Reporting polls: 50 validation meters, 7B extended validation status, 52 game N meters, A0
enabled features (docs/sas.md)."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.terminal.sas import wire
from kiosk.terminal.sas.funds import SasMachine, body_of, desk_of
from kiosk.terminal.sas.meters import meter_value
from kiosk.terminal.sas.polling import PollError, game_number
from kiosk.terminal.sas.validation_status import NEVER_DAYS, STORE_KEY, ValidationStatus
from kiosk.terminal.sas.wire import LongPoll as P
from kiosk.terminal.sas.wire import LongPollFrame

VALIDATION_METERS: dict[int, tuple[str, str] | None] = {
    0x00: ("tickets_out_count", "tickets_out"),
    0x01: None,
    0x02: None,
    0x03: None,
    0x04: None,
    0x10: None,
    0x20: None,
    0x40: None,
    0x60: None,
    0x80: ("tickets_in_count", "tickets_in"),
    0x81: None,
    0x82: None,
}


def _validation_meters(m: SasMachine, frame: LongPollFrame) -> bytes:
    kind = frame.data[0]
    if kind not in VALIDATION_METERS:
        raise PollError(f"validation type {kind:02X}")
    names = VALIDATION_METERS[kind]
    snapshot = m.snapshot()
    count, cents = (snapshot.meter(names[0]), snapshot.meter(names[1])) if names else (0, 0)
    return m.respond(
        frame.command, bytes([kind]) + wire.meter_bcd(count) + wire.meter_bcd(cents, 5)
    )


def _extended_validation_status(m: SasMachine, frame: LongPollFrame) -> bytes:
    """7B: apply the host's masked bits and expirations (kept before the answer), then answer
    with the status in force (kiosk.terminal.sas.validation_status)."""
    desk = desk_of(m)
    body = body_of(frame)
    if len(body) != 8:
        raise PollError("extended validation status takes 8 bytes")
    try:
        cashable_days = wire.from_bcd(body[4:6])
        restricted_days = wire.from_bcd(body[6:8])
    except wire.BcdError as exc:
        raise PollError(str(exc)) from exc
    mask, states = int.from_bytes(body[0:2], "little"), int.from_bytes(body[2:4], "little")
    kept = ValidationStatus.from_json(desk.store.get_json(STORE_KEY))
    status = kept.changed(mask, states, cashable_days, restricted_days)
    if status != kept:
        desk.store.set_json(STORE_KEY, status.to_json())  # durable before the answer
    days = min(status.expiry_days(m.snapshot().voucher_expiry_days), NEVER_DAYS)
    out = (
        desk.asset.to_bytes(4, "little")
        + status.bits.to_bytes(2, "little")
        + wire.to_bcd(days, 2)
        + wire.to_bcd(status.restricted_days, 2)
    )
    return m.respond(frame.command, bytes([len(out)]) + out)


def _game_n_meters(m: SasMachine, frame: LongPollFrame) -> bytes:
    game = game_number(m, frame.data)
    snapshot = m.snapshot()
    codes = (
        wire.MeterCode.TOTAL_COIN_IN,
        wire.MeterCode.TOTAL_COIN_OUT,
        wire.MeterCode.TOTAL_JACKPOT,
        wire.MeterCode.GAMES_PLAYED,
    )
    values = [meter_value(snapshot, code, game) or 0 for code in codes]
    return m.respond(frame.command, frame.data[:2] + b"".join(wire.meter_bcd(v) for v in values))


#: A0's feature bytes (tables 7.14c-f as public descriptions give them): legacy bonus awards,
#: AFT bonus awards, system validation, ticket redemption; meters won when won, tickets in the
#: drop and cancelled credits, extended meters, AFT
FEATURES = bytes([0x02 | 0x04 | (0b01 << 5) | 0x80, 0x01 | 0x04 | 0x08 | 0x40, 0x00, 0x00])


def _enabled_features(m: SasMachine, frame: LongPollFrame) -> bytes:
    game_number(m, frame.data)
    return m.respond(frame.command, frame.data[:2] + FEATURES + b"\x00\x00")


#: the reporting polls, added to ``machine.LONG_POLLS`` as separate entries
REPORT_POLLS: dict[int, Callable[[SasMachine, LongPollFrame], bytes | None]] = {
    P.SEND_VALIDATION_METERS: _validation_meters,
    P.SEND_GAME_N_METERS: _game_n_meters,
    P.EXTENDED_VALIDATION_STATUS: _extended_validation_status,
    P.SEND_ENABLED_FEATURES: _enabled_features,
}
