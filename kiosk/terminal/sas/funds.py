"""Money the host moves, and what it reads of it: AFT, legacy bonusing, validation (issue 28).

The long polls of SAS 6.02's AFT chapter (72 transfer funds, 73 registration, 74 game lock and
status, 75 receipt data), legacy bonusing (8A pay, 90 win amount, 9A meters), validation (50
meters, 7B extended status), game N meters (52) and enabled features (A0), as handlers of
:class:`~kiosk.terminal.sas.machine.SasMachine` in their own table, :mod:`kiosk.terminal.sas.aft`
(72-75), :mod:`kiosk.terminal.sas.bonus` (8A, 90, 9A) and :mod:`kiosk.terminal.sas.reports`
(50, 52, 7B, A0), each table merged into ``machine.LONG_POLLS`` as separate entries.  This module
is their model: the transfer codes, the parsed request, the registration and the SAS thread's
:class:`FundsDesk`.

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
from kiosk.terminal.sas.polling import PollError, PollTarget
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
    #: 72's receipt status of a transfer (kiosk.terminal.sas.receipts; FF: none asked)
    receipt_status: Callable[[str], int] = lambda transaction_id: 0xFF
    #: the ticket printer prints transaction receipts (74's AFT status bit 0)
    receipt_printer: bool = False

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


# --- what the handlers share -------------------------------------------------------------


def desk_of(m: SasMachine) -> FundsDesk:
    if m.funds is None:
        raise PollError("no funds transfers on this link")
    return m.funds


def body_of(frame: LongPollFrame) -> bytes:
    body = frame.data[1:]
    if not frame.data or len(body) != frame.data[0]:
        raise PollError(f"long poll {frame.command:02X}: its length byte does not match")
    return body
