"""The host's side of AFT and legacy bonusing (issue 28): the polls it sends, what they answer.

Builders return :class:`~kiosk.host.sas.polls.HostPoll` (the poller sends them like any long
poll); :func:`transfer_reply` reads a 72 answer into a :class:`TransferReply`, the record a
host keeps as the transfer's receipt (status, amount, id, the meter of its type after it).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.host.sas.polls import DECODERS, Field, HostPoll, poll, with_length

__all__ = [
    "HostPoll",
    "TransferReply",
    "chirped_address",
    "interrogate",
    "legacy_bonus",
    "lock",
    "receipt_data",
    "register",
    "transfer",
    "transfer_reply",
    "validation_status",
]
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.wire import LongPoll as Code
from kiosk.terminal.sas.wire import from_bcd, to_bcd

#: the transfer kinds the host tool asks for -> AFT transfer type
TRANSFER_TYPES: dict[str, int] = {"in": 0x00, "bonus": 0x10, "out": 0x80}
KINDS: dict[int, str] = {0x00: "aft_in", 0x10: "aft_bonus", 0x80: "aft_out"}
#: statuses of a transfer that is over (made, or refused); 40 is pending
DONE_STATUSES = frozenset({0x00, 0x01}) | frozenset(range(0x80, 0x100)) - {0xFF}


@dataclass(frozen=True)
class TransferReply:
    """A 72 answer: one transfer's state as the machine reports it."""

    position: int
    status: int
    receipt_status: int
    type_code: int
    cashable: int
    asset: int
    transaction_id: str
    meter: int | None  # the cumulative meter of the transfer's type after it (when complete)

    @property
    def made(self) -> bool:
        """The money moved (full or partial)."""
        return self.status in (0x00, 0x01)

    @property
    def pending(self) -> bool:
        """Not over yet: ask again."""
        return self.status == 0x40


def transfer_reply(body: bytes) -> TransferReply:
    """The answer's body (after the command, its length byte first) read; WireError if short."""
    if len(body) < 1 + 4 + 15 + 1 + 4 + 1:
        raise wire.TruncatedError(f"AFT answer of {len(body)} bytes")
    data = body[1:]
    id_length = data[24]
    txid = data[25 : 25 + id_length].decode("ascii", "replace")
    rest = data[25 + id_length + 7 + 4 + 2 :]
    meter = from_bcd(rest[1 : 1 + rest[0]]) if rest and rest[0] else None
    return TransferReply(
        position=data[0],
        status=data[1],
        receipt_status=data[2],
        type_code=data[3],
        cashable=from_bcd(data[4:9]),
        asset=int.from_bytes(data[20:24], "little"),
        transaction_id=txid,
        meter=meter,
    )


def transfer(
    kind: str,
    cents: int,
    transaction_id: str,
    *,
    asset: int,
    key: bytes = bytes(20),
    partial: bool = False,
    only_if_locked: bool = False,
    receipt: bool = False,
) -> HostPoll:
    """Long poll 72: move ``cents`` in (to the machine), out (to the host) or as a bonus;
    ``receipt``: ask the machine to print a transaction receipt (flag bit 7)."""
    txid = transaction_id.encode("ascii")
    if not 1 <= len(txid) <= 20:
        raise ValueError("an AFT transaction id has 1 to 20 characters")
    if len(key) != 20:
        raise ValueError("an AFT registration key has 20 bytes")
    flags = (0x40 if only_if_locked else 0x00) | (0x80 if receipt else 0x00)
    payload = (
        bytes([0x01 if partial else 0x00, 0x00, TRANSFER_TYPES[kind]])
        + to_bcd(cents, 5)
        + to_bcd(0, 5)
        + to_bcd(0, 5)
        + bytes([flags])
        + asset.to_bytes(4, "little")
        + key
        + bytes([len(txid)])
        + txid
        + to_bcd(0, 4)  # expiration (restricted only)
        + bytes(2)  # pool id
        + b"\x00"  # no receipt data
        + to_bcd(0, 2)  # lock timeout
    )
    return with_length(Code.AFT_TRANSFER_FUNDS, payload, f"aft_{kind}")


def interrogate(index: int = 0) -> HostPoll:
    """Long poll 72 FF: the current transfer (0) or one of the history buffer."""
    return with_length(Code.AFT_TRANSFER_FUNDS, bytes([0xFF, index]), "aft_interrogate")


def register(code: int, asset: int, key: bytes = bytes(20), pos_id: int = 0) -> HostPoll:
    """Long poll 73: 00 initialise, 01 register, 40 ask the operator, 80 unregister, FF read."""
    if code in (0x80, 0xFF):
        return with_length(Code.AFT_REGISTER, bytes([code]), "aft_register")
    payload = bytes([code]) + asset.to_bytes(4, "little") + key + pos_id.to_bytes(4, "little")
    return with_length(Code.AFT_REGISTER, payload, "aft_register")


def lock(code: int = 0xFF, conditions: int = 0, timeout_cs: int = 0) -> HostPoll:
    """Long poll 74: 00 lock (for ``timeout_cs`` hundredths of a second), 80 unlock, FF read."""
    data = bytes([code, conditions]) + to_bcd(timeout_cs, 2)
    return poll(Code.AFT_LOCK_AND_STATUS, data, "aft_lock_status")


def receipt_data(fields: dict[int, str]) -> HostPoll:
    """Long poll 75: receipt lines by data code (location 00, address 01/02, in-house 10-13)."""
    payload = b"".join(
        bytes([code, len(text)]) + text.encode("ascii") for code, text in fields.items()
    )
    return with_length(Code.SET_AFT_RECEIPT_DATA, payload, "aft_receipt_data")


def validation_status(
    mask: int = 0, states: int = 0, cashable_days: int = 0, restricted_days: int = 0
) -> HostPoll:
    """Long poll 7B: set the masked status bits (bit 0 cash-out tickets, 5 ticket redemption)
    to ``states`` and the expirations (days; 0 keeps the machine's, 9999 never); mask 0 and
    days 0 only read the status."""
    payload = (
        mask.to_bytes(2, "little")
        + states.to_bytes(2, "little")
        + to_bcd(cashable_days, 2)
        + to_bcd(restricted_days, 2)
    )
    return with_length(Code.EXTENDED_VALIDATION_STATUS, payload, "validation_status")


def legacy_bonus(cents: int, tax_status: int = 0) -> HostPoll:
    """Long poll 8A: pay a legacy bonus (tax status 00 deductible, 01 not, 02 wager match)."""
    return poll(Code.LEGACY_BONUS_PAY, to_bcd(cents, 4) + bytes([tax_status]), "legacy_bonus")


def _transfer_fields(body: bytes) -> list[Field]:
    reply = transfer_reply(body)
    fields = [
        Field("position", reply.position),
        Field("status", f"{reply.status:02x}"),
        Field("transfer", KINDS.get(reply.type_code, f"{reply.type_code:02x}")),
        Field("cashable", reply.cashable),
        Field("transaction_id", reply.transaction_id),
        Field("receipt_status", f"{reply.receipt_status:02x}"),
    ]
    if reply.meter is not None:
        fields.append(Field("cumulative", reply.meter))
    return fields


def _registration(body: bytes) -> list[Field]:
    data = body[1:]
    return [
        Field("registration_status", f"{data[0]:02x}"),
        Field("asset", int.from_bytes(data[1:5], "little")),
        Field("registration_key", data[5:25].hex()),
        Field("pos_id", int.from_bytes(data[25:29], "little")),
    ]


def _lock_status(body: bytes) -> list[Field]:
    data = body[1:]
    return [
        Field("asset", int.from_bytes(data[0:4], "little")),
        Field("game_lock", f"{data[4]:02x}"),
        Field("available_transfers", f"{data[5]:02x}"),
        Field("aft_status", f"{data[7]:02x}"),
        Field("current_cashable", from_bcd(data[9:14])),
        Field("transfer_limit", from_bcd(data[24:29])),
    ]


DECODERS.update(
    {
        Code.AFT_TRANSFER_FUNDS: _transfer_fields,
        Code.AFT_REGISTER: _registration,
        Code.AFT_LOCK_AND_STATUS: _lock_status,
        Code.SEND_LEGACY_BONUS_WIN: lambda b: [
            Field("tax_status", b[5]),
            Field("legacy_bonus", from_bcd(b[6:10])),
        ],
        Code.SEND_LEGACY_BONUS_METERS: lambda b: [
            Field("game_number", from_bcd(b[0:2])),
            Field("bonus_deductible", from_bcd(b[2:6])),
            Field("bonus_non_deductible", from_bcd(b[6:10])),
            Field("bonus_wager_match", from_bcd(b[10:14])),
        ],
        Code.SEND_VALIDATION_METERS: lambda b: [
            Field("validation_type", f"{b[0]:02x}"),
            Field("validations", from_bcd(b[1:5])),
            Field("validation_amount", from_bcd(b[5:10])),
        ],
        Code.EXTENDED_VALIDATION_STATUS: lambda b: [
            Field("asset", int.from_bytes(b[1:5], "little")),
            Field("validation_status_bits", f"{int.from_bytes(b[5:7], 'little'):04x}"),
            Field("cashable_expiration_days", from_bcd(b[7:9])),
            Field("restricted_expiration_days", from_bcd(b[9:11])),
        ],
        Code.SEND_ENABLED_FEATURES: lambda b: [
            Field("game_number", from_bcd(b[0:2])),
            Field("features", b[2:6].hex()),
        ],
    }
)


def chirped_address(data: bytes) -> int | None:
    """The address a machine announced: ``data`` read off a quiet line (no poll sent) holding
    one address byte said again and again (SAS's chirp), or None."""
    addresses = {b for b in data if wire.MIN_ADDRESS <= b <= wire.MAX_ADDRESS}
    if len(addresses) == 1 and len(addresses) == len(set(data)):
        return addresses.pop()
    return None
