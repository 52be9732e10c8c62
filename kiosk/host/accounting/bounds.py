"""What the host accepts from a terminal at all: amounts, texts, counts and sizes within bounds.

Sans-IO checks run before anything is stored: a request that breaks one is refused whole with
one line naming the field (the servicer turns :class:`BoundsError` into ``INVALID_ARGUMENT``);
the gRPC server itself refuses a request larger than :data:`MAX_REQUEST_BYTES`
(``RESOURCE_EXHAUSTED``).  The money limits are the host's own configuration
(:class:`Limits`), never the terminal's word.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from proto.turbokiosk.v1 import host_pb2

#: the largest request the server reads (a full batch of 1,000 game reports is ~250 KiB)
MAX_REQUEST_BYTES = 1024 * 1024
#: messages in one Report call (the link sends at most 200 + 16)
MAX_BATCH = 1000
#: characters of a text field (a tilt reason, a name, a message id)
MAX_TEXT = 1024
#: characters of a configuration's JSON
MAX_CONFIG_JSON = 64 * 1024
#: entries of a repeated field (seats of a game, spots of a seat, meters of a snapshot)
MAX_ITEMS = 256
#: a meter or count: ten trillion dollars in cents
MAX_METER = 10**15
#: journal sequence numbers and times fit a signed 64-bit column
MAX_INT64 = 2**63 - 1
VALIDATION_DIGITS = 18


class BoundsError(ValueError):
    """A request outside the host's bounds; the message names the field and the bound."""


@dataclass(frozen=True)
class Limits:
    """The host's money limits, in cents (``host serve --ticket-out-limit-cents ...``)."""

    ticket_out_limit: int = 1_000_000  # the largest voucher the host issues
    ticket_in_limit: int = 1_000_000  # the largest voucher the host lets a terminal redeem
    largest_bill: int = 10_000  # the largest note a terminal may report stacked
    largest_amount: int = 100_000_000  # any other amount: a stake, a win, a handpay ($1M)

    def __post_init__(self) -> None:
        for name in ("ticket_out_limit", "ticket_in_limit", "largest_bill", "largest_amount"):
            value = getattr(self, name)
            if not 0 < value <= MAX_METER:
                raise BoundsError(f"{name}: {value} is not between 1 and {MAX_METER} cents")


def check_amount(what: str, value: int, limit: int, *, zero: bool = False) -> None:
    """``value`` cents is positive (``zero``: or nought) and at most ``limit``."""
    low = 0 if zero else 1
    if value < low:
        raise BoundsError(f"{what}: {value} cents is {'negative' if value < 0 else 'zero'}")
    if value > limit:
        raise BoundsError(f"{what}: {value} cents is over the host's limit of {limit} cents")


def check_text(what: str, text: str, limit: int = MAX_TEXT) -> None:
    """At most ``limit`` characters."""
    if len(text) > limit:
        raise BoundsError(f"{what}: {len(text)} characters, at most {limit}")


def check_validation_number(number: str) -> None:
    """18 decimal digits."""
    if len(number) != VALIDATION_DIGITS or not number.isascii() or not number.isdigit():
        shown = number[:24] + ("..." if len(number) > 24 else "")
        raise BoundsError(f"validation number {shown!r}: {VALIDATION_DIGITS} digits please")


def check_report(request: host_pb2.ReportRequest, limits: Limits) -> None:
    """A Report call: its batch size and every message's fields."""
    count = len(request.messages)
    if count > MAX_BATCH:
        raise BoundsError(f"a batch of {count} messages: at most {MAX_BATCH} per call")
    head = request.head
    if head.epoch < 0 or head.seq > MAX_INT64 or len(head.hash) > 64:
        raise BoundsError("head: epoch, sequence number or hash out of range")
    for msg in request.messages:
        check_message(msg, limits)


def check_message(msg: host_pb2.TerminalMessage, limits: Limits) -> None:
    """One store-and-forward message."""
    check_text("message_id", msg.message_id)
    where = f"message {msg.message_id}"
    if msg.journal_seq > MAX_INT64:
        raise BoundsError(f"{where}: journal_seq {msg.journal_seq} is out of range")
    kind = msg.WhichOneof("body")
    if kind is None:
        return  # refused as bodiless by messages.received
    body: Any = getattr(msg, kind)
    # a body of at most MAX_ITEMS bytes has no text over MAX_TEXT and no MAX_ITEMS entries
    if kind in _WITH_BYTES or body.ByteSize() > MAX_ITEMS:
        _check_texts(where, body)
    check: Callable[[str, Any, Limits], None] = _CHECKS.get(kind, _no_amounts)
    check(f"{where} ({kind})", body, limits)


def _check_texts(where: str, body: Any) -> None:
    """Every string of a message (nested ones too) within its bound."""
    for field, value in body.ListFields():
        if field.type == field.TYPE_STRING:
            limit = MAX_CONFIG_JSON if field.name == "config_json" else MAX_TEXT
            check_text(f"{where}: {field.name}", value, limit)
        elif field.type == field.TYPE_BYTES:
            if len(value) > 64:
                raise BoundsError(f"{where}: {field.name} is {len(value)} bytes, at most 64")
        elif field.message_type is not None:
            items = list(value) if field.is_repeated else [value]
            if len(items) > MAX_ITEMS:
                raise BoundsError(f"{where}: {len(items)} {field.name}, at most {MAX_ITEMS}")
            for item in items:
                _check_texts(where, item)


def _has_bytes(descriptor: Any) -> bool:
    return any(
        f.type == f.TYPE_BYTES or (f.message_type is not None and _has_bytes(f.message_type))
        for f in descriptor.fields
    )


#: message kinds with a bytes field (bounded at 64 bytes, below the fast path's size)
_WITH_BYTES = frozenset(
    f.name
    for f in host_pb2.TerminalMessage.DESCRIPTOR.oneofs_by_name["body"].fields
    if f.message_type is not None and _has_bytes(f.message_type)
)


def _no_amounts(where: str, body: Any, limits: Limits) -> None:
    del where, body, limits


def _bill(where: str, body: host_pb2.TerminalMessage.BillStacked, limits: Limits) -> None:
    check_amount(f"{where} value_cents", body.value_cents, limits.largest_bill)


def _voucher_out(where: str, body: host_pb2.TerminalMessage.VoucherRef, limits: Limits) -> None:
    check_amount(f"{where} value_cents", body.value_cents, limits.ticket_out_limit)


def _voucher_in(where: str, body: host_pb2.TerminalMessage.VoucherRef, limits: Limits) -> None:
    check_amount(f"{where} value_cents", body.value_cents, limits.ticket_in_limit)


def _handpay(where: str, body: Any, limits: Limits) -> None:
    check_amount(f"{where} value_cents", body.value_cents, limits.largest_amount, zero=True)


def _game(where: str, body: host_pb2.TerminalMessage.GamePlayed, limits: Limits) -> None:
    top = limits.largest_amount
    for seat in body.seats:
        parts: tuple[Any, ...] = (seat, *seat.spots)
        for part in parts:  # the line is written only for an amount out of range
            if not (0 <= part.stake_cents <= top and 0 <= part.paid_cents <= top):
                check_amount(f"{where} stake_cents", part.stake_cents, top, zero=True)
                check_amount(f"{where} paid_cents", part.paid_cents, top, zero=True)


def _award(where: str, body: host_pb2.TerminalMessage.ProgressiveAwarded, limits: Limits) -> None:
    check_amount(f"{where} award_cents", body.award_cents, limits.largest_amount)
    if len(body.key) > MAX_TEXT or len(body.progressive) > MAX_TEXT or len(body.outcome) > MAX_TEXT:
        raise BoundsError(f"{where}: a text longer than {MAX_TEXT} characters")


def _meters(where: str, body: host_pb2.TerminalMessage.MeterSnapshot, limits: Limits) -> None:
    del limits
    for meter in body.meters:
        if not 0 <= meter.value <= MAX_METER:
            raise BoundsError(f"{where}: meter {meter.name} = {meter.value} is out of range")


def _ram_cleared(where: str, body: host_pb2.TerminalMessage.RamCleared, limits: Limits) -> None:
    del limits
    if body.previous_epoch < 0 or body.previous_seq > MAX_INT64:
        raise BoundsError(f"{where}: previous head out of range")
    if not body.by.strip() or not body.reason.strip():
        raise BoundsError(f"{where}: a RAM clear names who cleared it and why")


#: characters of a progressive's name (its pay-table file's stem)
MAX_PROGRESSIVE_NAME = 64
#: a progressive reading's modes
PROGRESSIVE_MODES = frozenset({"standalone", "table"})


def _progressive(
    where: str, body: host_pb2.TerminalMessage.ProgressiveMeter, limits: Limits
) -> None:
    name = body.name
    if not name or len(name) > MAX_PROGRESSIVE_NAME or not name.isprintable():
        raise BoundsError(
            f"{where}: a progressive's name is 1 to {MAX_PROGRESSIVE_NAME} printable characters"
        )
    if body.mode not in PROGRESSIVE_MODES:
        raise BoundsError(
            f"{where}: mode {body.mode[:24]!r}, one of {', '.join(sorted(PROGRESSIVE_MODES))}"
        )
    if not body.source or len(body.source) > MAX_TEXT or not body.source.isprintable():
        raise BoundsError(f"{where}: a progressive's source names a terminal or a table")
    for what in ("meter_cents", "reset_cents", "last_hit_cents"):
        check_amount(f"{where} {what}", getattr(body, what), limits.largest_amount, zero=True)
    if body.hits > MAX_METER:
        raise BoundsError(f"{where}: hits {body.hits} is out of range")


_CHECKS: dict[str, Callable[[str, Any, Limits], None]] = {
    "progressive": _progressive,
    "bill_stacked": _bill,
    "cashout_started": _voucher_out,
    "voucher_printed": _voucher_out,
    "voucher_voided": _voucher_out,
    "voucher_redeemed": _voucher_in,
    "handpay_locked": _handpay,
    "handpay_reset": _handpay,
    "game_played": _game,
    "progressive_awarded": _award,
    "meters": _meters,
    "ram_cleared": _ram_cleared,
}
