"""The AFT long polls: 72 transfer funds, 73 registration, 74 game lock and status, 75 receipt
data (SAS 6.02 section 8, docs/sas.md); the model is :mod:`kiosk.terminal.sas.funds`."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.terminal.core.records import TransferRecord
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.funds import (
    ASSET_MISMATCH,
    FULL,
    HISTORY,
    KEY_MISMATCH,
    KIND_TYPES,
    NO_INFORMATION,
    NOT_A_VALID_AMOUNT,
    NOT_A_VALID_FUNCTION,
    NOT_COMPATIBLE,
    NOT_LOCKED,
    NOT_REGISTERED,
    NOT_REGISTERED_STATUS,
    OVER_LIMIT,
    PARTIAL,
    PENDING,
    RECEIPT_FIELD_MAX,
    RECEIPT_FIELDS,
    REGISTERED,
    REGISTRATION_PENDING,
    REGISTRATION_READY,
    TRANSFER_TYPES,
    UNABLE_NOW,
    UNSUPPORTED_CODE,
    FundsError,
    Registration,
    SasMachine,
    TransferIntent,
    TransferRequest,
    body_of,
    desk_of,
    find_transfer,
    parse_transfer,
)
from kiosk.terminal.sas.polling import PollError, bcd_date_time
from kiosk.terminal.sas.wire import LongPoll as P
from kiosk.terminal.sas.wire import LongPollFrame


def _amounts(cashable: int) -> bytes:
    return wire.meter_bcd(cashable, 5) + wire.meter_bcd(0, 5) + wire.meter_bcd(0, 5)


def _transfer_reply(
    m: SasMachine,
    *,
    position: int,
    status: int,
    type_code: int,
    cashable: int,
    flags: int,
    transaction_id: str,
    at: int | None,
    meter: int | None,
    receipt: int = 0xFF,
) -> bytes:
    desk = desk_of(m)
    txid = transaction_id.encode("ascii")
    when = bcd_date_time(at) if at is not None else bytes(7)
    cumulative = b"\x00\x00\x00"
    if meter is not None:  # the meter of this transfer type after it, then restricted, non-r.
        cumulative = b"\x05" + wire.meter_bcd(meter, 5) + b"\x00\x00"
    body = (
        bytes([position, status, receipt, type_code])
        + _amounts(cashable)
        + bytes([flags])
        + desk.asset.to_bytes(4, "little")
        + bytes([len(txid)])
        + txid
        + when
        + bytes(4)  # expiration (restricted only)
        + bytes(2)  # pool id
        + cumulative
    )
    return m.respond(P.AFT_TRANSFER_FUNDS, bytes([len(body)]) + body)


def _record_reply(m: SasMachine, record: TransferRecord, position: int) -> bytes:
    status = PARTIAL if record.partial else FULL
    return _transfer_reply(
        m,
        position=position,
        status=status,
        type_code=KIND_TYPES[record.kind],
        cashable=record.cashable,
        flags=0,
        transaction_id=record.transaction_id,
        at=record.at,
        meter=record.meter,
        receipt=desk_of(m).receipt_status(record.transaction_id),
    )


def _intent_reply(m: SasMachine, intent: TransferIntent, status: int) -> bytes:
    owed = status == PENDING and intent.flags & 0x80 and desk_of(m).receipt_printer
    return _transfer_reply(
        m,
        position=0,
        status=status,
        type_code=KIND_TYPES.get(intent.kind, 0),
        cashable=intent.cashable,
        flags=intent.flags,
        transaction_id=intent.transaction_id,
        at=None,
        meter=None,
        receipt=0x40 if owed else 0xFF,
    )


def _no_information(m: SasMachine, position: int = 0) -> bytes:
    return _transfer_reply(
        m,
        position=position,
        status=NO_INFORMATION,
        type_code=0,
        cashable=0,
        flags=0,
        transaction_id="",
        at=None,
        meter=None,
    )


def _status_of(m: SasMachine, intent: TransferIntent) -> bytes:
    """The reply for a transfer asked for: journaled, pending or refused."""
    desk = desk_of(m)
    record = find_transfer(m.snapshot().transfers, intent.transaction_id)
    if record is not None:
        return _record_reply(m, record, 0)
    if desk.pending(intent.transaction_id) is not None:
        return _intent_reply(m, intent, PENDING)
    refused = desk.refused(intent.transaction_id)
    if refused is not None:
        return _intent_reply(m, refused[0], refused[1])
    return _intent_reply(m, intent, PENDING)  # posted, the commit not seen yet


def _interrogate(m: SasMachine, index: int) -> bytes:
    desk = desk_of(m)
    aft = [t for t in m.snapshot().transfers if t.kind != "legacy_bonus"]
    if index == 0:
        current = desk.current()
        if current is not None:
            return _status_of(m, current[0])
        return _record_reply(m, aft[-1], 0) if aft else _no_information(m)
    if index < 0x80:  # an absolute position of the history buffer
        for record in reversed(aft):
            if record.position == index:
                return _record_reply(m, record, index)
        return _no_information(m, index)
    back = index - 0x80  # relative: 0x81 is the newest
    if 1 <= back <= len(aft):
        record = aft[-back]
        return _record_reply(m, record, record.position)
    return _no_information(m, index)


def _check(m: SasMachine, request: TransferRequest) -> int | None:
    """Why the SAS side refuses a transfer before the terminal sees it, or None."""
    desk = desk_of(m)
    snapshot = m.snapshot()
    if request.type_code not in TRANSFER_TYPES:
        return NOT_A_VALID_FUNCTION
    if request.restricted or request.nonrestricted or request.cashable <= 0:
        return NOT_A_VALID_AMOUNT  # the terminal keeps cashable credits only
    if request.asset != desk.asset:
        return ASSET_MISMATCH
    registration = desk.registration()
    if registration.status == REGISTERED:
        if request.key != registration.key:
            return KEY_MISMATCH
    elif any(request.key):
        return NOT_REGISTERED
    if request.flags & 0x40 and not desk.locked():
        return NOT_LOCKED
    if request.cashable > desk.limit:
        return OVER_LIMIT
    if not snapshot.can_transfer:
        return UNABLE_NOW
    return None


def _aft_transfer(m: SasMachine, frame: LongPollFrame) -> bytes | None:
    desk = desk_of(m)
    body = body_of(frame)
    if not body:
        return None
    code = body[0]
    if code in (0xFE, 0xFF):
        return _interrogate(m, body[1] if len(body) > 1 else 0)
    if code == 0x80:  # cancel: a transfer posted is already the terminal's; report it
        current = desk.current()
        return _no_information(m) if current is None else _status_of(m, current[0])
    if code not in (0x00, 0x01):
        return (
            _no_information(m)
            if len(body) < 2
            else _intent_reply(m, TransferIntent("aft_in", "", 0, desk.limit), UNSUPPORTED_CODE)
        )
    try:
        request = parse_transfer(body)
    except FundsError as exc:
        raise PollError(str(exc)) from exc
    kind = TRANSFER_TYPES.get(request.type_code, "aft_in")
    intent = TransferIntent(
        kind=kind,
        transaction_id=request.transaction_id,
        cashable=request.cashable,
        limit=desk.limit,
        partial=code == 0x01,
        pos_id=desk.registration().pos_id,
        flags=request.flags,
    )
    if find_transfer(m.snapshot().transfers, request.transaction_id) is not None:
        return _status_of(m, intent)  # made already: its record, never a second transfer
    if desk.pending(request.transaction_id) is not None:
        return _intent_reply(m, intent, PENDING)
    other = desk.any_pending()
    if other is not None:
        return _intent_reply(m, intent, NOT_COMPATIBLE)
    refusal = _check(m, request)
    if refusal is not None:
        desk.refuse_now(intent, refusal, request)
        return _intent_reply(m, intent, refusal)
    desk.submit(intent, request)
    return _intent_reply(m, intent, PENDING)


def _registration_reply(m: SasMachine, registration: Registration) -> bytes:
    body = (
        bytes([registration.status])
        + registration.asset.to_bytes(4, "little")
        + registration.key
        + registration.pos_id.to_bytes(4, "little")
    )
    return m.respond(P.AFT_REGISTER, bytes([len(body)]) + body)


def _aft_register(m: SasMachine, frame: LongPollFrame) -> bytes | None:
    desk = desk_of(m)
    body = body_of(frame)
    if len(body) not in (1, 0x1D):
        raise PollError(f"AFT registration of {len(body)} bytes")
    code = body[0]
    registration = desk.registration()
    if code == 0xFF:
        return _registration_reply(m, registration)
    if code == 0x80:
        registration = Registration(NOT_REGISTERED_STATUS, desk.asset, bytes(20), 0)
        desk.set_registration(registration)
        m.queue_exception(wire.ExceptionCode.AFT_REGISTRATION_CANCELLED)
        return _registration_reply(m, registration)
    if len(body) != 0x1D or code not in (0x00, 0x01, 0x40):
        raise PollError(f"AFT registration code {code:02X}")
    asset = int.from_bytes(body[1:5], "little")
    key = bytes(body[5:25])
    pos_id = int.from_bytes(body[25:29], "little")
    if asset != desk.asset:  # another machine's asset number: nothing changes
        return _registration_reply(m, registration)
    if pos_id == 0xFFFFFFFF:
        pos_id = registration.pos_id
    if code == 0x00:
        registration = Registration(REGISTRATION_READY, asset, registration.key, pos_id)
    elif code == 0x40:
        registration = Registration(REGISTRATION_PENDING, asset, key, pos_id)
        m.queue_exception(wire.ExceptionCode.AFT_REQUEST_REGISTRATION)
    else:
        if registration.status not in (REGISTRATION_READY, REGISTERED):  # 00 (or the
            return _registration_reply(m, registration)  # operator's acknowledgement) first
        registration = Registration(REGISTERED, asset, key, pos_id)
    desk.set_registration(registration)
    return _registration_reply(m, registration)


def _available(m: SasMachine) -> int:
    snapshot = m.snapshot()
    bits = 0
    if snapshot.can_transfer:
        bits |= 0x01 | 0x10  # to the machine, bonus to the machine
        if snapshot.credits > 0:
            bits |= 0x02  # from the machine
    return bits


def _aft_lock(m: SasMachine, frame: LongPollFrame) -> bytes:
    desk = desk_of(m)
    code, conditions = frame.data[0], frame.data[1]
    try:
        timeout = wire.from_bcd(frame.data[2:4])
    except wire.BcdError as exc:
        raise PollError(str(exc)) from exc
    if code == 0x00:
        if conditions & _available(m) or (conditions == 0 and m.snapshot().can_transfer):
            desk.grant(timeout / 100, conditions)
            m.queue_exception(wire.ExceptionCode.GAME_LOCKED)
        else:
            desk.release()  # the conditions cannot be met now: not locked
    elif code == 0x80:
        desk.release()
    elif code != 0xFF:
        raise PollError(f"AFT lock code {code:02X}")
    snapshot = m.snapshot()
    registration = desk.registration()
    status = 0x10 | 0x20 | 0x80  # in-house and bonus transfers enabled, AFT enabled
    if desk.receipt_printer:
        status |= 0x01  # the printer prints transaction receipts
    if registration.status == REGISTERED:
        status |= 0x08
    status |= 0x02  # a transfer to the host of less than the credits is allowed
    body = (
        desk.asset.to_bytes(4, "little")
        + bytes([0x00 if desk.locked() else 0xFF, _available(m), 0x00, status, HISTORY])
        + wire.meter_bcd(snapshot.credits, 5)
        + wire.meter_bcd(0, 5)
        + wire.meter_bcd(0, 5)
        + wire.meter_bcd(min(desk.limit, max(0, snapshot.credit_limit - snapshot.credits)), 5)
        + wire.to_bcd(0, 4)
        + bytes(2)
    )
    return m.respond(frame.command, bytes([len(body)]) + body)


def _aft_receipt_data(m: SasMachine, frame: LongPollFrame) -> bytes:
    desk = desk_of(m)
    body = body_of(frame)
    fields: dict[str, object] = dict(desk.store.get_json("aft_receipt"))
    i = 0
    while i < len(body):
        if i + 2 > len(body):
            raise PollError("AFT receipt data: a code without its length")
        code, length = body[i], body[i + 1]
        text = body[i + 2 : i + 2 + length]
        if code not in RECEIPT_FIELDS or length > RECEIPT_FIELD_MAX or len(text) != length:
            return wire.nack(m.address)
        if not all(0x20 <= b < 0x7F for b in text):
            return wire.nack(m.address)
        if length == 0:
            fields.pop(f"{code:02X}", None)  # back to the default
        else:
            fields[f"{code:02X}"] = text.decode("ascii")
        i += 2 + length
    desk.store.set_json("aft_receipt", fields)
    return m.ack()


def receipt_lines(record: TransferRecord, fields: dict[str, str], asset: int) -> list[str]:
    """The transaction receipt of a journaled transfer (SAS's layout, 22 characters a line)."""
    title = {
        "aft_in": "TRANSFER TO MACHINE",
        "aft_bonus": "BONUS TO MACHINE",
        "aft_out": "TRANSFER TO HOST",
        "legacy_bonus": "BONUS AWARD",
    }[record.kind]
    lines = [fields.get(code, "") for code in ("00", "01", "02")]
    lines += [
        title,
        f"ASSET {asset}",
        f"ID {record.transaction_id}",
        f"AMOUNT ${record.cashable // 100}.{record.cashable % 100:02d}",
    ]
    lines += [fields.get(f"{0x10 + i:02X}", "") for i in range(4)]  # the in-house lines
    return [line[:RECEIPT_FIELD_MAX] for line in lines if line]


#: the funds polls, added to ``machine.LONG_POLLS`` as separate entries


#: the AFT polls, added to ``machine.LONG_POLLS`` as separate entries
AFT_POLLS: dict[int, Callable[[SasMachine, LongPollFrame], bytes | None]] = {
    P.AFT_TRANSFER_FUNDS: _aft_transfer,
    P.AFT_REGISTER: _aft_register,
    P.AFT_LOCK_AND_STATUS: _aft_lock,
    P.SET_AFT_RECEIPT_DATA: _aft_receipt_data,
}
