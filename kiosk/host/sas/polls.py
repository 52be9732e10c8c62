"""The long polls a SAS host sends, how long each answer is, and what the answer says.

A :class:`HostPoll` is one long poll with its data and the shape of its answer
(:class:`ResponseShape`): an ACK/NACK byte, a fixed length, or a length byte after the command.
:func:`decode` turns a response's body into :class:`Field` rows (name, value) for the host
tool's tables and exports; meters are integers (credits of one cent, counts or cents as the
poll defines them), texts are strings.

Frames, codes and BCD come from :mod:`kiosk.terminal.sas.wire`, shared with the gaming machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from kiosk.terminal.sas import wire
from kiosk.terminal.sas.wire import LongPoll as Code
from kiosk.terminal.sas.wire import from_bcd, to_bcd

GENERAL_POLL_FLAG = wire.GENERAL_POLL_BIT


class ShapeKind(Enum):
    """How the host knows an answer is complete."""

    ACK = "ack"  # one byte: the address (ACK) or address | 0x80 (NACK)
    FIXED = "fixed"  # address, command, data, CRC: ``length`` bytes in all
    VARIABLE = "variable"  # address, command, length byte, data, CRC


@dataclass(frozen=True)
class ResponseShape:
    """The answer's framing; ``length`` counts every byte of a fixed answer."""

    kind: ShapeKind
    length: int = 0


ACK = ResponseShape(ShapeKind.ACK)
VARIABLE = ResponseShape(ShapeKind.VARIABLE)


@dataclass(frozen=True)
class Field:
    """One value read from a machine."""

    name: str
    value: int | str


@dataclass(frozen=True)
class HostPoll:
    """One long poll: its command, the data after it (M type: length byte first), its answer."""

    code: int
    data: bytes
    shape: ResponseShape
    label: str

    def frame(self, address: int) -> bytes:
        """The bytes on the line (type R without CRC, S and M with one)."""
        return wire.long_poll(address, self.code, self.data)


# -- single meters (4 BCD bytes) ---------------------------------------------------------------
SINGLE_METERS: dict[int, str] = {
    Code.SEND_CANCELLED_CREDITS: "cancelled_credits",
    Code.SEND_COIN_IN: "coin_in",
    Code.SEND_COIN_OUT: "coin_out",
    Code.SEND_DROP: "drop",
    Code.SEND_JACKPOT: "jackpot",
    Code.SEND_GAMES_PLAYED: "games_played",
    Code.SEND_GAMES_WON: "games_won",
    Code.SEND_GAMES_LOST: "games_lost",
    Code.SEND_CURRENT_CREDITS: "current_credits",
    Code.SEND_TOTAL_BILLS: "total_bills_dollars",
    Code.SEND_TRUE_COIN_IN: "true_coin_in",
    Code.SEND_TRUE_COIN_OUT: "true_coin_out",
    Code.SEND_BILL_METER_1: "bills_1",
    Code.SEND_BILL_METER_2: "bills_2",
    Code.SEND_BILL_METER_5: "bills_5",
    Code.SEND_BILL_METER_10: "bills_10",
    Code.SEND_BILL_METER_20: "bills_20",
    Code.SEND_BILL_METER_50: "bills_50",
    Code.SEND_BILL_METER_100: "bills_100",
    Code.SEND_BILL_METER_500: "bills_500",
    Code.SEND_BILL_METER_1000: "bills_1000",
    Code.SEND_BILL_METER_200: "bills_200",
    Code.SEND_CREDIT_AMOUNT_OF_BILLS: "credit_amount_of_bills",
    Code.SEND_NUMBER_OF_BILLS_IN_STACKER: "bills_in_stacker",
    Code.SEND_CREDIT_AMOUNT_OF_BILLS_IN_STACKER: "credit_amount_of_bills_in_stacker",
}

#: multi-meter polls: the 4-byte BCD meters of the answer, in order
MULTI_METERS: dict[int, tuple[str, ...]] = {
    Code.SEND_METERS_10_TO_15: (
        "cancelled_credits",
        "coin_in",
        "coin_out",
        "drop",
        "jackpot",
        "games_played",
    ),
    Code.SEND_METERS_11_TO_15: ("coin_in", "coin_out", "drop", "jackpot", "games_played"),
    Code.SEND_METERS: (
        "coin_in",
        "coin_out",
        "drop",
        "jackpot",
        "games_played",
        "games_won",
        "slot_door_opened",
        "power_reset",
    ),
    Code.SEND_BILL_METERS: ("bills_1", "bills_5", "bills_10", "bills_20", "bills_50", "bills_100"),
}


def _meters(names: Sequence[str]) -> Callable[[bytes], list[Field]]:
    def decode(body: bytes) -> list[Field]:
        return [Field(n, from_bcd(body[4 * i : 4 * i + 4])) for i, n in enumerate(names)]

    return decode


def _ascii(data: bytes) -> str:
    return data.decode("ascii", errors="replace").rstrip("\x00 ")


def _machine_info(body: bytes) -> list[Field]:
    return [
        Field("game_id", _ascii(body[0:2])),
        Field("additional_id", _ascii(body[2:5])),
        Field("denomination_code", body[5]),
        Field("max_bet", body[6]),
        Field("progressive_group", body[7]),
        Field("game_options", int.from_bytes(body[8:10], "big")),
        Field("paytable_id", _ascii(body[10:16])),
        Field("base_percent", _ascii(body[16:20])),
    ]


def _games_since(body: bytes) -> list[Field]:
    return [
        Field("games_since_power_up", from_bcd(body[0:2])),
        Field("games_since_door_closure", from_bcd(body[2:4])),
    ]


def _handpay(body: bytes) -> list[Field]:
    return [
        Field("progressive_group", body[0]),
        Field("level", body[1]),
        Field("amount", from_bcd(body[2:7])),
        Field("partial_pay", from_bcd(body[7:9])),
        Field("reset_id", body[9]),
    ]


def _selected_meters(body: bytes) -> list[Field]:
    rows = [Field("game_number", from_bcd(body[1:3]))]
    index = 3
    while index < len(body):
        code = body[index]
        size = 5 if code in wire.FIVE_BYTE_SELECTED_METERS else 4
        rows.append(Field(_meter_name(code), from_bcd(body[index + 1 : index + 1 + size])))
        index += 1 + size
    return rows


def _extended_meters(body: bytes) -> list[Field]:
    rows = [Field("game_number", from_bcd(body[1:3]))]
    index = 3
    while index + 3 <= len(body):
        code = int.from_bytes(body[index : index + 2], "little")
        size = body[index + 2]
        if size:  # size 0: a meter the machine does not keep
            rows.append(Field(_meter_name(code), from_bcd(body[index + 3 : index + 3 + size])))
        index += 3 + size
    return rows


def _meter_name(code: int) -> str:
    try:
        return wire.MeterCode(code).name.lower()
    except ValueError:
        return f"meter_{code:02x}"


def _version(body: bytes) -> list[Field]:
    return [Field("sas_version", _ascii(body[1:4])), Field("serial_number", _ascii(body[4:]))]


def _enabled_games(body: bytes) -> list[Field]:
    count = body[1]
    numbers = [from_bcd(body[2 + 2 * i : 4 + 2 * i]) for i in range(count)]
    return [Field("enabled_games", count)] + [Field("game", n) for n in numbers]


def _game_config(body: bytes) -> list[Field]:
    return [Field("game_number", from_bcd(body[0:2])), *_machine_info(body[2:])]


def _game_meters(body: bytes) -> list[Field]:
    names = ("coin_in", "coin_out", "jackpot", "games_played")
    return [Field("game_number", from_bcd(body[0:2])), *_meters(names)(body[2:])]


def _date_time(body: bytes) -> list[Field]:
    month, day, year = from_bcd(body[0:1]), from_bcd(body[1:2]), from_bcd(body[2:4])
    hour, minute, second = from_bcd(body[4:5]), from_bcd(body[5:6]), from_bcd(body[6:7])
    stamp = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"
    return [Field("date_time", stamp)]


def _pending_cashout(body: bytes) -> list[Field]:
    return [Field("cashout_type", body[0]), Field("cashout_amount", from_bcd(body[1:6]))]


def _enhanced_validation(body: bytes) -> list[Field]:
    return [
        Field("validation_type", body[0]),
        Field("index", body[1]),
        Field(
            "date", f"{from_bcd(body[4:6]):04d}-{from_bcd(body[2:3]):02d}-{from_bcd(body[3:4]):02d}"
        ),
        Field(
            "time", f"{from_bcd(body[6:7]):02d}:{from_bcd(body[7:8]):02d}:{from_bcd(body[8:9]):02d}"
        ),
        Field("validation_number", f"{from_bcd(body[9:17]):016d}"),
        Field("amount", from_bcd(body[17:22])),
        Field("ticket_number", from_bcd(body[22:24])),
        Field("validation_system_id", from_bcd(body[24:25])),
        Field("expiration", from_bcd(body[25:29])),
        Field("pool_id", int.from_bytes(body[29:31], "big")),
    ]


def _ticket(body: bytes) -> list[Field]:
    """70 and 71 answers: length, status, amount (5 BCD), parsing code, validation data."""
    rows = [
        Field("status", body[1]),
        Field("amount", from_bcd(body[2:7])),
        Field("parsing_code", body[7]),
    ]
    data = body[8:]
    rows.append(Field("validation_number", f"{from_bcd(data):0{2 * len(data)}d}" if data else ""))
    return rows


DECODERS: dict[int, Callable[[bytes], list[Field]]] = {
    **{code: _meters((name,)) for code, name in SINGLE_METERS.items()},
    **{code: _meters(names) for code, names in MULTI_METERS.items()},
    Code.SEND_GAMES_SINCE_POWER_UP: _games_since,
    Code.SEND_HANDPAY_INFORMATION: _handpay,
    Code.SEND_MACHINE_INFORMATION: _machine_info,
    Code.ROM_SIGNATURE: lambda b: [Field("rom_signature", f"{int.from_bytes(b, 'little'):04x}")],
    Code.SEND_HANDPAID_CANCELLED_CREDITS: lambda b: [
        Field("game_number", from_bcd(b[0:2])),
        Field("handpaid_cancelled_credits", from_bcd(b[2:6])),
    ],
    Code.SEND_SELECTED_METERS: _selected_meters,
    Code.SEND_CASHOUT_TICKET_INFORMATION: lambda b: [
        Field("validation_number", f"{from_bcd(b[0:4]):08d}"),
        Field("amount", from_bcd(b[4:9])),
    ],
    Code.SEND_LAST_ACCEPTED_BILL: lambda b: [
        Field("country_code", b[0]),
        Field("denomination_code", b[1]),
        Field("bill_meter", from_bcd(b[2:6])),
    ],
    Code.SEND_ENHANCED_VALIDATION_INFORMATION: _enhanced_validation,
    Code.SEND_NUMBER_OF_GAMES: lambda b: [Field("number_of_games", from_bcd(b[0:2]))],
    Code.SEND_GAME_N_METERS: _game_meters,
    Code.SEND_GAME_N_CONFIGURATION: _game_config,
    Code.SEND_SAS_VERSION_AND_SERIAL: _version,
    Code.SEND_SELECTED_GAME_NUMBER: lambda b: [Field("selected_game", from_bcd(b[0:2]))],
    Code.SEND_ENABLED_GAME_NUMBERS: _enabled_games,
    Code.SEND_PENDING_CASHOUT_INFORMATION: _pending_cashout,
    Code.RECEIVE_VALIDATION_NUMBER: lambda b: [Field("status", b[0])],
    Code.SEND_EXTENDED_METERS: _extended_meters,
    Code.SEND_EXTENDED_METERS_ALT: _extended_meters,
    Code.SEND_TICKET_VALIDATION_DATA: _ticket,
    Code.REDEEM_TICKET: _ticket,
    Code.SEND_CURRENT_DATE_TIME: _date_time,
    Code.REMOTE_HANDPAY_RESET: lambda b: [Field("reset_code", b[0])],
}


def shape_of(code: int) -> ResponseShape:
    """How the answer to long poll ``code`` is framed (the lengths of
    :mod:`kiosk.terminal.sas.wire`)."""
    if code in wire.VARIABLE_RESPONSES:
        return VARIABLE
    if code in wire.RESPONSE_LENGTH:
        return ResponseShape(ShapeKind.FIXED, wire.RESPONSE_LENGTH[code])
    return ACK


def poll(code: int, data: bytes = b"", label: str = "") -> HostPoll:
    """Long poll ``code`` with ``data`` (an M type's data starts with its length byte)."""
    return HostPoll(code, data, shape_of(code), label or _code_name(code))


def decode(code: int, body: bytes) -> list[Field]:
    """The fields of an answer's body (between the command and the CRC)."""
    decoder = DECODERS.get(code)
    if decoder is None:
        return [Field("data", body.hex())]
    try:
        return decoder(body)
    except (wire.WireError, IndexError) as exc:
        return [Field("undecodable", f"{body.hex()} ({exc})")]


def _code_name(code: int) -> str:
    try:
        return Code(code).name.lower()
    except ValueError:
        return f"long_poll_{code:02x}"


# -- polls with data -------------------------------------------------------------------------
def with_length(code: int, payload: bytes, label: str = "") -> HostPoll:
    """A type M poll: ``payload`` after its length byte."""
    return poll(code, bytes([len(payload)]) + payload, label)


def _game_label(name: str, game: int) -> str:
    """A poll's label: the machine's (game 0) plain, a game's with its number."""
    return name if game == 0 else f"{name}_game_{game}"


def selected_meters(game: int, codes: Sequence[int]) -> HostPoll:
    """Long poll 2F: up to 10 one-byte meter codes of ``game`` (0 = the whole machine)."""
    label = _game_label("send_selected_meters", game)
    return with_length(Code.SEND_SELECTED_METERS, to_bcd(game, 2) + bytes(codes), label)


def extended_meters(game: int, codes: Sequence[int], *, alt: bool = False) -> HostPoll:
    """Long poll 6F (``alt``: AF, every meter at its full width): up to 12 two-byte meter
    codes of ``game``."""
    payload = to_bcd(game, 2) + b"".join(c.to_bytes(2, "little") for c in codes)
    code = Code.SEND_EXTENDED_METERS_ALT if alt else Code.SEND_EXTENDED_METERS
    name = "send_extended_meters_alt" if alt else "send_extended_meters"
    return with_length(code, payload, _game_label(name, game))


def handpaid_cancelled_credits(game: int) -> HostPoll:
    """Long poll 2D: the handpaid cancelled credits of ``game`` (0: the machine)."""
    return poll(
        Code.SEND_HANDPAID_CANCELLED_CREDITS,
        to_bcd(game, 2),
        _game_label("send_handpaid_cancelled_credits", game),
    )


def game_configuration(game: int) -> HostPoll:
    """Long poll 53: the configuration of game ``game``."""
    return poll(
        Code.SEND_GAME_N_CONFIGURATION,
        to_bcd(game, 2),
        _game_label("send_game_configuration", game),
    )


def game_meters(game: int) -> HostPoll:
    """Long poll 52: coin in/out, jackpot and games played of game ``game``."""
    return poll(Code.SEND_GAME_N_METERS, to_bcd(game, 2), _game_label("send_game_meters", game))


def rom_signature(seed: int) -> HostPoll:
    """Long poll 21: the CRC over the installed software, started from ``seed``."""
    return poll(Code.ROM_SIGNATURE, seed.to_bytes(2, "little"))


def enhanced_validation(function: int) -> HostPoll:
    """Long poll 4D: a validation record (0x00 the current, 1..31 the history, 0xFF ...)."""
    return poll(Code.SEND_ENHANCED_VALIDATION_INFORMATION, bytes([function]))


def receive_validation_number(system_id: int, number: int) -> HostPoll:
    """Long poll 58: the host's validation number for the pending cash-out (0 = refused)."""
    return poll(Code.RECEIVE_VALIDATION_NUMBER, to_bcd(system_id, 1) + to_bcd(number, 8))


def set_date_time(year: int, month: int, day: int, hour: int, minute: int, second: int) -> HostPoll:
    """Long poll 7F: set the machine's clock (MMDDYYYY HHMMSS in BCD)."""
    data = to_bcd(month, 1) + to_bcd(day, 1) + to_bcd(year, 2)
    data += to_bcd(hour, 1) + to_bcd(minute, 1) + to_bcd(second, 1)
    return poll(Code.RECEIVE_DATE_TIME, data)


#: transfer codes of long poll 71
TRANSFER_VALID_CASHABLE = 0x00
TRANSFER_STATUS_QUERY = 0xFF
#: the parsing code of an 18-digit validation number in 9 BCD bytes
PARSING_VALIDATION_NUMBER = 0x00
#: a 71 transfer code that rejects the ticket (unable to validate)
TRANSFER_REJECTED = 0x80


def redeem_ticket(transfer_code: int, amount_cents: int, validation_number: str) -> HostPoll:
    """Long poll 71: the host's decision on an inserted ticket (its amount, or a refusal)."""
    payload = bytes([transfer_code]) + to_bcd(amount_cents, 5) + bytes([PARSING_VALIDATION_NUMBER])
    payload += to_bcd(int(validation_number), 9)
    payload += to_bcd(0, 4) + bytes(2)  # no restricted expiration, no pool id
    return with_length(Code.REDEEM_TICKET, payload)


def ticket_status_query() -> HostPoll:
    """Long poll 71 with transfer code FF: where the machine's current ticket stands."""
    return with_length(Code.REDEEM_TICKET, bytes([TRANSFER_STATUS_QUERY]), "ticket_status")


#: the machine-wide meters 2F reads in a sweep (one-byte codes, at most 10 per poll)
SWEEP_SELECTED = (
    (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0B, 0x0C),
    (0x0D, 0x0E, 0x11, 0x12, 0x15, 0x16, 0x22, 0x23, 0x24),
)
#: the meters 6F reads in a sweep (two-byte codes, at most 12 per poll)
SWEEP_EXTENDED = (
    (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0C, 0x0D, 0x0E, 0x24),
    (0x40, 0x42, 0x43, 0x44, 0x46, 0x47, 0x3E, 0x3F, 0x11, 0x12),
)
#: stacker polls a TurboKiosk terminal does not answer (read them with ``--poll 49``)
STACKER_POLLS = frozenset(
    {Code.SEND_NUMBER_OF_BILLS_IN_STACKER, Code.SEND_CREDIT_AMOUNT_OF_BILLS_IN_STACKER}
)
#: the type R polls of a meter sweep, in the order a casino system reads them
SWEEP_R_POLLS = (
    Code.SEND_SAS_VERSION_AND_SERIAL,
    Code.SEND_MACHINE_INFORMATION,
    *(c for c in SINGLE_METERS if c not in STACKER_POLLS),
    Code.SEND_GAMES_SINCE_POWER_UP,
    *MULTI_METERS,
    Code.SEND_HANDPAY_INFORMATION,
    Code.SEND_LAST_ACCEPTED_BILL,
    Code.SEND_NUMBER_OF_GAMES,
    Code.SEND_SELECTED_GAME_NUMBER,
    Code.SEND_ENABLED_GAME_NUMBERS,
    Code.SEND_CURRENT_DATE_TIME,
)


def sweep(rom_seed: int | None = None) -> list[HostPoll]:
    """Every machine-wide poll of a meter sweep (the games' polls follow 56's answer); the
    ROM signature (21, computed by the machine in the background) only with a seed."""
    found = [poll(code) for code in SWEEP_R_POLLS]
    found += [selected_meters(0, codes) for codes in SWEEP_SELECTED]
    found += [extended_meters(0, codes) for codes in SWEEP_EXTENDED]
    found.append(extended_meters(0, SWEEP_EXTENDED[0], alt=True))
    found.append(handpaid_cancelled_credits(0))
    found.append(enhanced_validation(0x00))  # tickets printed whose 3D the host missed
    if rom_seed is not None:
        found.append(rom_signature(rom_seed))
    return found


def game_sweep(game: int) -> list[HostPoll]:
    """A game's configuration and meters."""
    return [
        game_configuration(game),
        selected_meters(game, SWEEP_SELECTED[0]),
        extended_meters(game, SWEEP_EXTENDED[0]),
    ]
