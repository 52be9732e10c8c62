"""Events: what happened, as journaled.  The terminal's state is a fold over its events.

Every event is a frozen dataclass of JSON-ready fields (ints, strings, bools, lists, dicts) or
of the typed money records of kiosk/terminal/core/records.py (a round's bets and seat results),
declared with :func:`_records`.  :func:`encode` and :func:`decode` turn them into journal
records and back, the records through their ``to_json``/``from_json`` (the only place an event's
JSON is made or read); replaying the same events always rebuilds the same state.  Each event
carries ``at``, the wall-clock time (epoch seconds, as an int of milliseconds) the runtime
stamped on the command that caused it.
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Protocol, TypeVar

import orjson

from kiosk.terminal.core.records import SeatBetRecord, SeatResult


class EventDecodeError(ValueError):
    """A journal record that is not a known event."""


@dataclass(frozen=True)
class Event:
    """Base of every event."""

    type_name: ClassVar[str] = ""
    at: int  # epoch milliseconds


_REGISTRY: dict[str, type[Event]] = {}

R = TypeVar("R", bound="_JsonRecord")


class _JsonRecord(Protocol):
    def to_json(self) -> dict[str, Any]: ...


#: metadata key of a field holding records: its (encode, decode) pair
_CODEC = "json_codec"


def _records(record: Callable[[Mapping[str, Any]], R]) -> Any:
    """A required field holding a tuple of records, written as a JSON list of their ``to_json``."""

    def encode_all(values: tuple[R, ...]) -> list[dict[str, Any]]:
        return [v.to_json() for v in values]

    def decode_all(data: object) -> tuple[R, ...]:
        if not isinstance(data, list):
            raise TypeError(f"{data!r} is not a list")
        return tuple(record(item) for item in data)

    return field(metadata={_CODEC: (encode_all, decode_all)})


#: metadata key of a field added after the event's first release: left out of the record at
#: its default, so older records (without it) decode and unchanged events encode as before
_LATER = "added_later"


def _later(default: Any) -> Any:
    """A field added to a released event (see :data:`_LATER`)."""
    return field(default=default, metadata={_LATER: True})


def _event(cls: type[Event]) -> type[Event]:
    cls.type_name = cls.__name__
    _REGISTRY[cls.__name__] = cls
    return cls


# --- power, recovery, integrity ------------------------------------------------------------


@_event
@dataclass(frozen=True, kw_only=True)
class PoweredUp(Event):
    """The terminal started (after a clean stop or a power cut)."""

    software_version: str
    recovered: str  # what recovery resolved, human readable; "" when nothing was open


@_event
@dataclass(frozen=True, kw_only=True)
class CriticalMemoryError(Event):
    """Non-volatile memory cannot be trusted; the terminal locks until a RAM clear."""

    reason: str


@_event
@dataclass(frozen=True, kw_only=True)
class StorageFull(Event):
    """The store's disk was full at ``since``: a step was refused whole and the terminal locked
    up until a power-up with space free.  Journaled at the first write that succeeds again;
    it changes nothing else (the log records the fault)."""

    reason: str
    since: int  # epoch ms of the failed write


@_event
@dataclass(frozen=True, kw_only=True)
class HeadWithdrawn(Event):
    """At power-up the signer held a head (``epoch``, ``seq``, ``chain_hash`` in hex) that the
    store does not: its last signed commit never reached the store (a power cut between signing
    and committing) or was cut from it.  The store went on from its own head, ``store_seq``.
    ``game_number`` names the round whose cards were sealed when drawn (0: none in play), which
    comes back with those same cards.  Reported to the host (an alarm on the floor); a second
    within the runtime's window locks the terminal for the operator."""

    epoch: int
    seq: int
    chain_hash: str
    store_seq: int
    game_number: int


@_event
@dataclass(frozen=True, kw_only=True)
class RamCleared(Event):
    """The operator's RAM clear: the first event of a new store (a new signer epoch).

    The old store was moved aside (kept); ``previous_*`` name the head the signer had signed
    last for it (its epoch, row and chain hash in hex).
    """

    previous_epoch: int
    previous_seq: int
    previous_hash: str
    epoch: int  # the new store's epoch
    by: str  # the role and how it came (e.g. "operator via ssh, session 3fa9c0d1e2b4")
    reason: str
    kept_as: str  # where the old store was moved, relative to the data directory
    #: the old store's creation time (epoch ms), which names it to the accounting host (its
    #: meter epoch); 0 when the old store could not be read
    previous_store: int


@_event
@dataclass(frozen=True, kw_only=True)
class ConfigChanged(Event):
    """The operator changed the configuration (only with zero credits and no game)."""

    before: dict[str, Any]
    after: dict[str, Any]
    by: str


@_event
@dataclass(frozen=True, kw_only=True)
class PeriodMetersReset(Event):
    """The period meter set was cleared (the lifetime set never is)."""

    by: str


# --- money in ---------------------------------------------------------------------------------


@_event
@dataclass(frozen=True, kw_only=True)
class BillEscrowAccepted(Event):
    """A note in escrow is to be stacked; it is credited only when stacked."""

    seat: int
    value: int


@_event
@dataclass(frozen=True, kw_only=True)
class BillReturned(Event):
    """A note was returned to the player (or rejected by the validator)."""

    seat: int
    value: int
    reason: str


@_event
@dataclass(frozen=True, kw_only=True)
class BillStacked(Event):
    """A note reached the cash box and is credited."""

    seat: int
    value: int
    #: the validator that stacked it (model and serial number) and its event number for the
    #: note, which only grows (device.proto): the host refuses a count it has seen
    device: str = _later("")
    device_count: int = _later(0)


@_event
@dataclass(frozen=True, kw_only=True)
class TicketEscrowAccepted(Event):
    """A voucher the host reserved for this terminal is to be stacked; credited when stacked."""

    seat: int
    value: int
    validation_number: str


@_event
@dataclass(frozen=True, kw_only=True)
class TicketReturned(Event):
    """A voucher went back to the player (refused by the host or the terminal, or returned)."""

    seat: int
    value: int
    validation_number: str
    reason: str


@_event
@dataclass(frozen=True, kw_only=True)
class TicketRedeemed(Event):
    """A voucher inserted, validated by the host and stacked: credited."""

    seat: int
    value: int
    validation_number: str


# --- the game round ----------------------------------------------------------------------------


@_event
@dataclass(frozen=True, kw_only=True)
class RoundStarted(Event):
    """Wagers are committed and taken from the credit meters; no card is dealt yet."""

    game_number: int
    edition: str
    paytables: dict[str, str]
    bets: tuple[SeatBetRecord, ...] = _records(SeatBetRecord.from_json)  # in seat order


@_event
@dataclass(frozen=True, kw_only=True)
class TableRoundJoined(Event):
    """The round just started is table ``table_id``'s game ``table_game`` (kiosk/terminal/seat): its
    cards come from that table's controller.  Journaled with its RoundStarted (a round the
    terminal deals itself has none, and RoundStarted keeps its journal bytes)."""

    game_number: int
    table_id: str
    table_game: int


@_event
@dataclass(frozen=True, kw_only=True)
class RoundVoided(Event):
    """A table round that cannot be finished (voided by the controller, or the seat's wager
    never taken): every cent the seats wagered in it (``returned``) is back on their credits."""

    game_number: int
    reason: str
    returned: int


@_event
@dataclass(frozen=True, kw_only=True)
class CardsDealt(Event):
    """Cards drawn from the RNG for the round: journaled before anyone sees them."""

    stage: str  # "first" (community / array), "second" (per seat / dealer)
    shared: list[int]
    per_seat: list[list[int]]
    offers: int  # first stage: how many DecisionOffered events follow


@_event
@dataclass(frozen=True, kw_only=True)
class DecisionOffered(Event):
    """A seat may raise / play; ``default`` is taken when the timer runs out."""

    seat: int
    kind: str
    choices: list[str]
    default: str
    take: str
    extra_wager: int
    spot: str
    deadline: int  # epoch ms


@_event
@dataclass(frozen=True, kw_only=True)
class DecisionMade(Event):
    """A seat's decision; when it takes the extra wager, that leaves its credits."""

    seat: int
    choice: str
    extra_wager: int
    automatic: bool


@_event
@dataclass(frozen=True, kw_only=True)
class RoundSettled(Event):
    """Every wager paid; wins below the handpay limit reach the credit meters."""

    game_number: int
    seats: tuple[SeatResult, ...] = _records(SeatResult.from_json)  # in seat order


# --- money out ---------------------------------------------------------------------------------


@_event
@dataclass(frozen=True, kw_only=True)
class CashoutStarted(Event):
    """A voucher for ``value`` is about to be printed; the credits stay until it is."""

    seat: int
    value: int
    validation_number: str


@_event
@dataclass(frozen=True, kw_only=True)
class VoucherPrinted(Event):
    """The printer confirmed the voucher: the credits leave the meter."""

    seat: int
    value: int
    validation_number: str


@_event
@dataclass(frozen=True, kw_only=True)
class VoucherFailed(Event):
    """The voucher was not printed (the credits stay); the reason says why."""

    seat: int
    value: int
    validation_number: str
    reason: str


@_event
@dataclass(frozen=True, kw_only=True)
class HandpayLocked(Event):
    """An attendant must pay by hand: a jackpot or a cash-out the printer cannot take."""

    seat: int
    value: int
    kind: str  # "jackpot", "progressive" or "cancelled_credits"
    game_number: int


@_event
@dataclass(frozen=True, kw_only=True)
class HandpayReset(Event):
    """The attendant paid; cancelled credits leave the meter, a jackpot is metered."""

    seat: int
    value: int
    kind: str
    by: str


@_event
@dataclass(frozen=True, kw_only=True)
class FundsTransferred(Event):
    """An electronic funds transfer made (SAS AFT in, bonus or out; a legacy bonus): the credits
    moved by ``cashable`` cents, ``requested`` asked for, under the transfer ``limit``."""

    seat: int
    kind: str
    transaction_id: str
    cashable: int
    requested: int
    limit: int
    tax_status: int
    pos_id: int


@_event
@dataclass(frozen=True, kw_only=True)
class ProgressiveAwarded(Event):
    """A progressive hit paid to ``seat`` (decision 0066): ``award`` cents of ``progressive``
    for the wager ``key``; credited, or (``handpay``) locked for the attendant to pay."""

    seat: int
    key: str
    progressive: str
    outcome: str
    award: int
    handpay: bool


# --- conditions ---------------------------------------------------------------------------------


@_event
@dataclass(frozen=True, kw_only=True)
class TiltRaised(Event):
    """A fault that stops play until it is resolved (and, if it must be, cleared)."""

    code: str
    reason: str
    needs_attendant: bool


@_event
@dataclass(frozen=True, kw_only=True)
class TiltCleared(Event):
    """A tilt was resolved (automatically, or by an attendant)."""

    code: str
    by: str


@_event
@dataclass(frozen=True, kw_only=True)
class DeviceBaselineRecorded(Event):
    """A device's money record is reconciled against the journal from here on: its counters
    and the journal's meters at this instant (the device was paired or replaced)."""

    device: str
    journal: dict[str, int]
    counters: dict[str, int]


@_event
@dataclass(frozen=True, kw_only=True)
class DoorChanged(Event):
    """A cabinet door opened or closed."""

    door: str
    open: bool


@_event
@dataclass(frozen=True, kw_only=True)
class EnableChanged(Event):
    """The host (or a lost link) disabled play, or enabled it again."""

    enabled: bool
    reason: str


@_event
@dataclass(frozen=True, kw_only=True)
class ServiceChanged(Event):
    """The service menu was entered or left (play and credit acceptance stop meanwhile)."""

    active: bool
    role: str


# --- service PINs and the configuration version ----------------------------------------------
# A PIN is never in an event: only its salted hash (kiosk/terminal/core/pins.py).


@_event
@dataclass(frozen=True, kw_only=True)
class PinSet(Event):
    """A role's PIN record replaced (changed by the role, set by the operator, or renewed)."""

    role: str
    record: dict[str, Any]  # kdf, n, r, p, salt, hash
    must_change: bool
    reason: str  # "changed", "set by operator", "renewed with stronger KDF parameters"


@_event
@dataclass(frozen=True, kw_only=True)
class PinRefused(Event):
    """A wrong PIN; ``failures`` is the role's count of wrong PINs in a row, this one included."""

    role: str
    failures: int


@_event
@dataclass(frozen=True, kw_only=True)
class PinLockedOut(Event):
    """The role is locked out until ``until`` (epoch ms): its PIN is not even checked."""

    role: str
    until: int
    failures: int


@_event
@dataclass(frozen=True, kw_only=True)
class PinAccepted(Event):
    """A good PIN after wrong ones: the role's count of wrong PINs is cleared."""

    role: str


@_event
@dataclass(frozen=True, kw_only=True)
class PinLockoutLifted(Event):
    """The operator set the role's PIN while it was locked out or had wrong PINs counted."""

    role: str
    by: str


@_event
@dataclass(frozen=True, kw_only=True)
class PinsMigrated(Event):
    """The PIN records of the previous release's ``service/pins.json``, taken in once."""

    records: dict[str, Any]
    source: str


@_event
@dataclass(frozen=True, kw_only=True)
class ConfigVersioned(Event):
    """The configuration now in force has this version (it follows its ConfigChanged)."""

    version: int
    source: str  # "service menu" or "import of <file> (key id ...)"


Encoder = Callable[[Any], Any]

#: per event class: its fields, each with the encoder of a records field (None: JSON already)
_FIELD_ENCODERS: dict[type[Event], tuple[tuple[str, Encoder | None], ...]] = {}
#: per event class: the names of its fields, and the decoders of its records fields
_FIELD_DECODERS: dict[type[Event], tuple[frozenset[str], tuple[tuple[str, Encoder], ...]]] = {}


def _encoders(cls: type[Event]) -> tuple[tuple[str, Encoder | None], ...]:
    codecs = _FIELD_ENCODERS.get(cls)
    if codecs is None:
        codecs = _FIELD_ENCODERS[cls] = tuple(
            (f.name, f.metadata[_CODEC][0] if _CODEC in f.metadata else None) for f in fields(cls)
        )
    return codecs


def _decoders(cls: type[Event]) -> tuple[frozenset[str], tuple[tuple[str, Encoder], ...]]:
    codecs = _FIELD_DECODERS.get(cls)
    if codecs is None:
        all_fields = fields(cls)
        codecs = _FIELD_DECODERS[cls] = (
            frozenset(f.name for f in all_fields),
            tuple((f.name, f.metadata[_CODEC][1]) for f in all_fields if _CODEC in f.metadata),
        )
    return codecs


_LATER_FIELDS: dict[type[Event], tuple[tuple[str, Any], ...]] = {}


def _later_fields(cls: type[Event]) -> tuple[tuple[str, Any], ...]:
    """The fields added later (name, default) of an event class."""
    later = _LATER_FIELDS.get(cls)
    if later is None:
        later = _LATER_FIELDS[cls] = tuple(
            (f.name, f.default) for f in fields(cls) if f.metadata.get(_LATER)
        )
    return later


def _later_names(cls: type[Event]) -> frozenset[str]:
    return frozenset(name for name, _ in _later_fields(cls))


def _no_default(value: object) -> object:
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _make_canonical() -> Callable[[Any], str]:
    """The canonical JSON encoder: sorted keys, no spaces, ASCII only.

    The standard library's C encoder is built once and called directly: ``json.dumps`` builds
    a new one on every call, which costs more than encoding a small event.  The output is the
    same text (``tests/store/test_encoding.py`` checks it against ``json.dumps``).
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # a Python without the C accelerator
        encoder = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
        return encoder.encode
    chunks = make(
        None, _no_default, json.encoder.encode_basestring_ascii, None, ":", ",", True, False, True
    )
    join = "".join

    def canonical(data: Any) -> str:
        return join(chunks(data, 0))

    return canonical


#: canonical JSON of a JSON-ready value (sorted keys, no spaces), as ``json.dumps(data,
#: sort_keys=True, separators=(",", ":"))`` writes it
canonical: Callable[[Any], str] = _make_canonical()

_FAST_OPTIONS = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def canonical_record(data: Any) -> str:
    """:func:`canonical` of a record without floats (events, recall), about 7 times faster.

    orjson writes the same text for sorted, compact, ASCII JSON of ints, strings, bools, None,
    lists and dicts with string keys.  Anything else makes it fail, and the record goes
    through :func:`canonical`: a non-ASCII character or DEL (``json`` escapes them), a
    non-string key, an int beyond 64 bits, any other type.  The terminal's records hold no
    floats (money is int cents, times int milliseconds; no event field is a float): a float
    would be written exactly, but in orjson's notation (``1e-7``, not ``1e-07``), and a NaN
    as ``null``.  ``tests/store/test_encoding.py`` checks the equality on generated records.
    """
    try:
        text = orjson.dumps(data, default=_no_default, option=_FAST_OPTIONS).decode("ascii")
    except (TypeError, UnicodeDecodeError):  # orjson.JSONEncodeError is a TypeError
        return canonical(data)
    if "\x7f" in text:  # the one ASCII character json escapes and orjson does not
        return canonical(data)
    return text


def encode(event: Event) -> str:
    """Canonical JSON of an event: ``{"kind": ..., "data": {...}}`` with sorted keys."""
    cls = type(event)
    data = {
        name: getattr(event, name) if to_json is None else to_json(getattr(event, name))
        for name, to_json in _encoders(cls)
    }
    for name, default in _later_fields(cls):
        if data[name] == default:
            del data[name]
    # "data" sorts before "kind", and a kind is a class name (plain ASCII, nothing to escape)
    return f'{{"data":{canonical_record(data)},"kind":"{cls.type_name}"}}'


def decode(text: str) -> Event:
    """The event of a journal record (EventDecodeError when it is not one)."""
    try:
        record = json.loads(text)
        cls = _REGISTRY[record["kind"]]
        data = record["data"]
        names, from_json = _decoders(cls)
        if not isinstance(data, dict) or (
            data.keys() != names
            and not (data.keys() <= names and names - data.keys() <= _later_names(cls))
        ):
            raise EventDecodeError(f"{record['kind']}: fields {sorted(data)} != {sorted(names)}")
        for name, decode_field in from_json:
            data[name] = decode_field(data[name])
        return cls(**data)
    except EventDecodeError:
        raise
    except (KeyError, TypeError, ValueError) as exc:  # json.JSONDecodeError is a ValueError
        raise EventDecodeError(f"not an event record: {exc}") from exc


def kinds() -> tuple[str, ...]:
    """Every event kind, for the event log's filters."""
    return tuple(_REGISTRY)
