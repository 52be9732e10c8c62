"""Money the host moves, and what it reads of it: AFT, legacy bonusing, validation (issue 28).

The long polls of SAS 6.02's AFT chapter (72 transfer funds, 73 registration, 74 game lock and
status, 75 receipt data), legacy bonusing (8A pay, 90 win amount, 9A meters), validation (50
meters, 7B extended status), game N meters (52) and enabled features (A0), as handlers of
:class:`~kiosk.terminal.sas.machine.SasMachine` in their own table, :data:`FUNDS_POLLS` (merged
into ``machine.LONG_POLLS`` as separate entries).

**Exactly once.**  A transfer is made by the terminal's core (``TransferFunds`` ->
``FundsTransferred``, journaled in the signed store with the limit in force) and nowhere else.
The core refuses a transaction id its journal already holds, so a repeated 72 is answered
with the recorded result, never a second credit.  The SAS thread never waits for the disk: a
new transfer is answered *pending* (40) at once, posted to the terminal's thread, and its
intent appended to ``sas.intents`` first (one ``O_APPEND`` write), so a kill between the
answer and the journal's commit leaves it to be posted again at start-up (the core's id check
makes the repeat harmless).  The host reads the outcome with the interrogation (72 ``FF``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from kiosk.terminal.core.records import TransferRecord
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.meters import meter_value
from kiosk.terminal.sas.polling import PollError, PollTarget, bcd_date_time
from kiosk.terminal.sas.wire import LongPoll as P
from kiosk.terminal.sas.wire import LongPollFrame


class SasMachine(PollTarget, Protocol):
    """The machine as the funds handlers see it: a :class:`PollTarget` with its desk."""

    @property
    def funds(self) -> FundsDesk | None:
        """AFT and legacy bonusing on this link (None: not on it)."""


#: AFT transfer type on the wire -> the terminal's transfer kind (the types it makes)
TRANSFER_TYPES: dict[int, str] = {0x00: "aft_in", 0x10: "aft_bonus", 0x80: "aft_out"}
KIND_TYPES: dict[str, int] = {kind: code for code, kind in TRANSFER_TYPES.items()}

# transfer status codes (SAS 6.02 table 8.3e, as public descriptions give them)
FULL = 0x00
PARTIAL = 0x01
PENDING = 0x40
CANCELLED = 0x80
NOT_A_VALID_FUNCTION = 0x82
NOT_A_VALID_AMOUNT = 0x83
OVER_LIMIT = 0x84
UNABLE_NOW = 0x87
NOT_REGISTERED = 0x88
KEY_MISMATCH = 0x89
ASSET_MISMATCH = 0x93
NOT_LOCKED = 0x94
NOT_COMPATIBLE = 0xC0
UNSUPPORTED_CODE = 0xC1
NO_INFORMATION = 0xFF

#: the core's refusal reason (``TransferRefusedError.reason``) -> transfer status
REFUSALS: dict[str, int] = {
    "amount": NOT_A_VALID_AMOUNT,
    "limit": OVER_LIMIT,
    "credit_limit": OVER_LIMIT,
    "credits": NOT_A_VALID_AMOUNT,
}

# registration status (table 8.1b)
REGISTRATION_READY = 0x00
REGISTERED = 0x01
REGISTRATION_PENDING = 0x40
NOT_REGISTERED_STATUS = 0x80

#: AFT history buffer size reported by 74 (the core keeps this many transfers)
HISTORY = 127
#: 75's data codes this machine keeps (location, address lines, in-house and debit lines)
RECEIPT_FIELDS = frozenset({0x00, 0x01, 0x02, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x22, 0x23})
RECEIPT_FIELD_MAX = 22  # characters a receipt line holds


class FundsError(ValueError):
    """A funds poll whose data is malformed (not answered)."""


@dataclass(frozen=True)
class TransferIntent:
    """A transfer the host asked for, posted to the terminal's thread (and logged first)."""

    kind: str
    transaction_id: str
    cashable: int
    limit: int
    partial: bool = False
    tax_status: int = 0
    pos_id: int = 0
    flags: int = 0


@dataclass(frozen=True)
class TransferRequest:
    """A 72 request to transfer (transfer code 00 or 01), parsed."""

    code: int
    type_code: int
    cashable: int
    restricted: int
    nonrestricted: int
    flags: int
    asset: int
    key: bytes
    transaction_id: str
    receipt_data: bytes


def parse_transfer(body: bytes) -> TransferRequest:
    """The request in a 72's body (after its length byte); FundsError when malformed."""
    if len(body) < 44:
        raise FundsError(f"AFT transfer of {len(body)} bytes is too short")
    try:
        cashable, restricted, nonrestricted = (
            wire.from_bcd(body[3:8]),
            wire.from_bcd(body[8:13]),
            wire.from_bcd(body[13:18]),
        )
    except wire.BcdError as exc:
        raise FundsError(str(exc)) from exc
    id_length = body[43]
    if not 1 <= id_length <= 20 or len(body) < 44 + id_length + 4 + 2 + 1:
        raise FundsError(f"AFT transaction id length {id_length} does not fit the poll")
    raw_id = body[44 : 44 + id_length]
    if not all(0x20 <= b < 0x7F for b in raw_id):
        raise FundsError("an AFT transaction id is printable ASCII")
    rest = body[44 + id_length + 6 :]
    receipt_length = rest[0]
    return TransferRequest(
        code=body[0],
        type_code=body[2],
        cashable=cashable,
        restricted=restricted,
        nonrestricted=nonrestricted,
        flags=body[18],
        asset=int.from_bytes(body[19:23], "little"),
        key=bytes(body[23:43]),
        transaction_id=raw_id.decode("ascii"),
        receipt_data=bytes(rest[1 : 1 + receipt_length]),
    )


@dataclass
class Registration:
    """The AFT registration (kept in the SAS store)."""

    status: int = NOT_REGISTERED_STATUS
    asset: int = 0
    key: bytes = bytes(20)
    pos_id: int = 0

    def to_json(self) -> dict[str, object]:
        """For the SAS store."""
        return {
            "status": self.status,
            "asset": self.asset,
            "key": self.key.hex(),
            "pos_id": self.pos_id,
        }

    @classmethod
    def from_json(cls, d: dict[str, object]) -> Registration:
        """Inverse of :meth:`to_json` (a new registration for an empty record)."""
        if not d:
            return cls()
        return cls(
            status=int(str(d["status"])),
            asset=int(str(d["asset"])),
            key=bytes.fromhex(str(d["key"])),
            pos_id=int(str(d["pos_id"])),
        )


class Store(Protocol):
    """The SAS store's small records (``ExceptionQueue`` satisfies it)."""

    def get_json(self, key: str) -> dict[str, object]:
        """A JSON record, {} when absent."""

    def set_json(self, key: str, value: dict[str, object], *, durable: bool = True) -> None:
        """Write a JSON record."""


@dataclass
class _Lock:
    state: int = 0xFF  # 00 locked, 40 pending, FF not locked
    until: float = 0.0  # monotonic seconds
    conditions: int = 0


@dataclass
class FundsDesk:
    """The SAS thread's side of funds transfers: registration, the game lock, the transfer in
    progress and its refusal, receipt data.  ``post`` hands an intent to the terminal's
    thread (the link logs it first); :meth:`settle` is called there with its outcome."""

    store: Store
    post: Callable[[TransferIntent], None]
    asset: int
    limit: int
    clock: Callable[[], float]
    _guard: threading.Lock = field(default_factory=threading.Lock)
    _pending: dict[str, TransferIntent] = field(default_factory=dict)
    _refused: dict[str, tuple[TransferIntent, int]] = field(default_factory=dict)
    _current: tuple[TransferIntent, TransferRequest | None] | None = None
    lock: _Lock = field(default_factory=_Lock)
    bonus_serial: int = 0
    #: told when the game lock is granted (True) or ends (False): the link stops play
    on_lock: Callable[[bool], None] = lambda locked: None

    # --- the terminal's thread -----------------------------------------------------------------

    def settle(self, intent: TransferIntent, refusal: int | None) -> None:
        """The terminal made the transfer (``refusal`` None) or refused it with that status."""
        with self._guard:
            self._pending.pop(intent.transaction_id, None)
            if refusal is not None and intent.kind != "legacy_bonus":
                self._refused[intent.transaction_id] = (intent, refusal)
                if len(self._refused) > HISTORY:
                    del self._refused[next(iter(self._refused))]

    # --- the SAS thread ------------------------------------------------------------------------

    def registration(self) -> Registration:
        """The AFT registration kept."""
        return Registration.from_json(self.store.get_json("aft_registration"))

    def set_registration(self, registration: Registration) -> None:
        """Keep ``registration`` across restarts."""
        self.store.set_json("aft_registration", registration.to_json())

    def pending(self, transaction_id: str) -> TransferIntent | None:
        """The transfer of this id posted and not settled, or None."""
        with self._guard:
            return self._pending.get(transaction_id)

    def any_pending(self) -> TransferIntent | None:
        """An AFT transfer posted and not settled, or None."""
        with self._guard:
            for intent in self._pending.values():
                if intent.kind != "legacy_bonus":
                    return intent
        return None

    def refused(self, transaction_id: str) -> tuple[TransferIntent, int] | None:
        """A refused transfer of this id and its status, or None."""
        with self._guard:
            return self._refused.get(transaction_id)

    def refuse_now(self, intent: TransferIntent, status: int, request: TransferRequest) -> None:
        """A transfer refused on the SAS thread (never posted): reported as the current one."""
        with self._guard:
            self._refused[intent.transaction_id] = (intent, status)
        self._current = (intent, request)

    def submit(self, intent: TransferIntent, request: TransferRequest | None = None) -> None:
        """Post ``intent`` to the terminal (it is pending until :meth:`settle`)."""
        with self._guard:
            self._pending[intent.transaction_id] = intent
        if intent.kind != "legacy_bonus":
            self._current = (intent, request)
        self.post(intent)

    def current(self) -> tuple[TransferIntent, TransferRequest | None] | None:
        """The last AFT transfer asked for since start-up."""
        return self._current

    def next_bonus_id(self) -> str:
        """An id for a legacy bonus (8A carries none): unique across restarts."""
        self.bonus_serial += 1
        return f"B{int(self.clock() * 1000):d}-{self.bonus_serial}"[-20:]

    def locked(self) -> bool:
        """The game is locked for the host (its lock not yet expired)."""
        if self.lock.state == 0x00 and self.clock() > self.lock.until:
            self.release()
        return self.lock.state == 0x00

    def grant(self, timeout_s: float, conditions: int) -> None:
        """Lock the game for the host for ``timeout_s`` (play stops until it ends)."""
        was = self.lock.state
        self.lock.state, self.lock.until = 0x00, self.clock() + timeout_s
        self.lock.conditions = conditions
        if was != 0x00:
            self.on_lock(True)

    def release(self) -> None:
        """End the game lock (the host's 74 80, or its timeout)."""
        was = self.lock.state
        self.lock.state = 0xFF
        if was == 0x00:
            self.on_lock(False)

    def acknowledge(self) -> bool:
        """The operator acknowledged a registration waiting (40): ready again (00); whether
        one was waiting."""
        registration = self.registration()
        if registration.status != REGISTRATION_PENDING:
            return False
        registration.status = REGISTRATION_READY
        self.set_registration(registration)
        return True

    def receipt_data(self) -> dict[str, str]:
        """75's fields kept, by data code (hex)."""
        return {k: str(v) for k, v in self.store.get_json("aft_receipt").items()}


def _family(kind: str) -> str:
    return "bonus" if kind == "legacy_bonus" else "aft"


def find_transfer(
    transfers: tuple[TransferRecord, ...], transaction_id: str, family: str = "aft"
) -> TransferRecord | None:
    """The journaled transfer of ``transaction_id`` (AFT ids or legacy bonus ids), or None."""
    for record in reversed(transfers):
        if _family(record.kind) == family and record.transaction_id == transaction_id:
            return record
    return None


# --- the handlers ------------------------------------------------------------------------------


def _desk(m: SasMachine) -> FundsDesk:
    if m.funds is None:
        raise PollError("no funds transfers on this link")
    return m.funds


def _body(frame: LongPollFrame) -> bytes:
    body = frame.data[1:]
    if not frame.data or len(body) != frame.data[0]:
        raise PollError(f"long poll {frame.command:02X}: its length byte does not match")
    return body


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
) -> bytes:
    desk = _desk(m)
    txid = transaction_id.encode("ascii")
    when = bcd_date_time(at) if at is not None else bytes(7)
    cumulative = b"\x00\x00\x00"
    if meter is not None:  # the meter of this transfer type after it, then restricted, non-r.
        cumulative = b"\x05" + wire.meter_bcd(meter, 5) + b"\x00\x00"
    body = (
        bytes([position, status, 0xFF, type_code])  # receipt: none printed
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
    )


def _intent_reply(m: SasMachine, intent: TransferIntent, status: int) -> bytes:
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
    desk = _desk(m)
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
    desk = _desk(m)
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
    desk = _desk(m)
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
    desk = _desk(m)
    body = _body(frame)
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
    desk = _desk(m)
    body = _body(frame)
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
    desk = _desk(m)
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
    desk = _desk(m)
    body = _body(frame)
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


def _legacy_bonus(m: SasMachine, frame: LongPollFrame) -> bytes:
    desk = _desk(m)
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


def _game(m: SasMachine, data: bytes) -> int:
    try:
        number = wire.from_bcd(data[:2])
    except wire.BcdError as exc:
        raise PollError(str(exc)) from exc
    if number and m.snapshot().game(number) is None:
        raise PollError(f"no game number {number}")
    return number


def _legacy_bonus_meters(m: SasMachine, frame: LongPollFrame) -> bytes:
    game = _game(m, frame.data)
    snapshot = m.snapshot()
    values = [snapshot.meter(f"legacy_bonus.{tax}") if game == 0 else 0 for tax in (0, 1, 2)]
    return m.respond(frame.command, frame.data[:2] + b"".join(wire.meter_bcd(v) for v in values))


#: validation type (50) -> (count meter, cents meter); the others are validations this
#: terminal never makes (restricted tickets, AFT tickets, handpay receipts): zero
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


#: 7B's status bits this terminal has on (table 15.2c as public descriptions give it): the
#: printer is the cash-out device (bit 0), tickets are redeemed (bit 5)
VALIDATION_STATUS_BITS = 0x0001 | 0x0020


def _extended_validation_status(m: SasMachine, frame: LongPollFrame) -> bytes:
    desk = _desk(m)
    body = _body(frame)
    if len(body) != 8:
        raise PollError("extended validation status takes 8 bytes")
    try:
        wire.from_bcd(body[4:6])
        wire.from_bcd(body[6:8])
    except wire.BcdError as exc:
        raise PollError(str(exc)) from exc
    # the functions are fixed by the hardware and the operator's settings: a host's change is
    # not taken (the answer says what is in force)
    days = min(m.snapshot().voucher_expiry_days, 9999)
    out = (
        desk.asset.to_bytes(4, "little")
        + VALIDATION_STATUS_BITS.to_bytes(2, "little")
        + wire.to_bcd(days, 2)
        + wire.to_bcd(0, 2)
    )
    return m.respond(frame.command, bytes([len(out)]) + out)


def _game_n_meters(m: SasMachine, frame: LongPollFrame) -> bytes:
    game = _game(m, frame.data)
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
    _game(m, frame.data)
    return m.respond(frame.command, frame.data[:2] + FEATURES + b"\x00\x00")


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
FUNDS_POLLS: dict[int, Callable[[SasMachine, LongPollFrame], bytes | None]] = {
    P.SEND_VALIDATION_METERS: _validation_meters,
    P.SEND_GAME_N_METERS: _game_n_meters,
    P.AFT_TRANSFER_FUNDS: _aft_transfer,
    P.AFT_REGISTER: _aft_register,
    P.AFT_LOCK_AND_STATUS: _aft_lock,
    P.SET_AFT_RECEIPT_DATA: _aft_receipt_data,
    P.EXTENDED_VALIDATION_STATUS: _extended_validation_status,
    P.LEGACY_BONUS_PAY: _legacy_bonus,
    P.SEND_LEGACY_BONUS_WIN: _legacy_bonus_win,
    P.SEND_LEGACY_BONUS_METERS: _legacy_bonus_meters,
    P.SEND_ENABLED_FEATURES: _enabled_features,
}
