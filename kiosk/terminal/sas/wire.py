"""SAS 6.02 on the wire: poll codes, exception codes, meter codes, BCD, frames (sans-IO).

What both ends of a SAS link share, with no I/O and no state:

- **General poll**: one byte, ``0x80 | address``, sent with the wakeup bit.  The gaming
  machine answers with one exception byte (``0x00`` when it has none), no address, no CRC.
- **Long poll**: ``address, command[, data...][, CRC]`` — the address byte with the wakeup bit.
  Type *R* polls (a request with no data) are just ``address, command``; type *S* (fixed data)
  and *M* (variable data, length byte after the command) carry a CRC-16
(:mod:`kiosk.terminal.sas.crc`).
  Every data response is ``address, command, data..., CRC``.
- **ACK** of a command is the machine's address alone; **NACK** is ``address | 0x80``.
- Address 0 is the broadcast (date and time, for instance): no gaming machine answers it.

Numbers are BCD, most significant byte first, unless a field says binary; two-byte codes in the
extended meter polls (6F/AF) go low byte first.  Parsing errors are typed (:class:`WireError`
and subclasses) so that a caller can count each kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from kiosk.terminal.sas.crc import CRC_BYTES, crc_ok, with_crc

GENERAL_POLL_BIT = 0x80
NACK_BIT = 0x80
BROADCAST_ADDRESS = 0
MIN_ADDRESS = 1
MAX_ADDRESS = 127
NO_ACTIVITY = 0x00
SAS_VERSION = b"602"

BAUD_RATE = 19_200
#: a gaming machine starts its answer within this long after the poll's last byte (SAS 6.02)
RESPONSE_LIMIT_S = 0.020
#: most a sender may leave between two bytes of one message before the receiver drops it
INTER_BYTE_LIMIT_S = 0.005
#: time one 11-bit character (start, 8 data, wakeup, stop) takes at 19,200 baud
CHARACTER_TIME_S = 11 / BAUD_RATE


class WireError(ValueError):
    """Bytes that are not a well-formed SAS message."""


class CrcError(WireError):
    """The CRC does not match the message."""


class TruncatedError(WireError):
    """Fewer bytes than the message needs."""


class OverlongError(WireError):
    """More bytes than the message may have."""


class AddressError(WireError):
    """An address outside 1..127 (or a byte that is no address)."""


class BcdError(WireError):
    """A nibble that is not a decimal digit, or a value too large for its field."""


class LongPoll(IntEnum):
    """Long-poll command codes (SAS 6.02 section 7 onwards) this package knows by name."""

    SHUTDOWN = 0x01
    STARTUP = 0x02
    SOUND_OFF = 0x03
    SOUND_ON = 0x04
    ENABLE_BILL_ACCEPTOR = 0x06
    DISABLE_BILL_ACCEPTOR = 0x07
    CONFIGURE_BILL_DENOMINATIONS = 0x08
    ENTER_MAINTENANCE_MODE = 0x0A
    EXIT_MAINTENANCE_MODE = 0x0B
    ENABLE_REAL_TIME_EVENTS = 0x0E
    SEND_METERS_10_TO_15 = 0x0F
    SEND_CANCELLED_CREDITS = 0x10
    SEND_COIN_IN = 0x11
    SEND_COIN_OUT = 0x12
    SEND_DROP = 0x13
    SEND_JACKPOT = 0x14
    SEND_GAMES_PLAYED = 0x15
    SEND_GAMES_WON = 0x16
    SEND_GAMES_LOST = 0x17
    SEND_GAMES_SINCE_POWER_UP = 0x18
    SEND_METERS_11_TO_15 = 0x19
    SEND_CURRENT_CREDITS = 0x1A
    SEND_HANDPAY_INFORMATION = 0x1B
    SEND_METERS = 0x1C
    SEND_BILL_METERS = 0x1E
    SEND_MACHINE_INFORMATION = 0x1F
    SEND_TOTAL_BILLS = 0x20
    ROM_SIGNATURE = 0x21
    SEND_TRUE_COIN_IN = 0x2A
    SEND_TRUE_COIN_OUT = 0x2B
    SEND_HANDPAID_CANCELLED_CREDITS = 0x2D
    SEND_SELECTED_METERS = 0x2F
    SEND_BILL_METER_1 = 0x31
    SEND_BILL_METER_2 = 0x32
    SEND_BILL_METER_5 = 0x33
    SEND_BILL_METER_10 = 0x34
    SEND_BILL_METER_20 = 0x35
    SEND_BILL_METER_50 = 0x36
    SEND_BILL_METER_100 = 0x37
    SEND_BILL_METER_500 = 0x38
    SEND_BILL_METER_1000 = 0x39
    SEND_BILL_METER_200 = 0x3A
    SEND_BILL_METER_25 = 0x3B
    SEND_BILL_METER_2000 = 0x3C
    SEND_CASHOUT_TICKET_INFORMATION = 0x3D
    SEND_BILL_METER_2500 = 0x3E
    SEND_BILL_METER_5000 = 0x3F
    SEND_BILL_METER_10000 = 0x40
    SEND_BILL_METER_20000 = 0x41
    SEND_BILL_METER_25000 = 0x42
    SEND_BILL_METER_50000 = 0x43
    SEND_BILL_METER_100000 = 0x44
    SEND_BILL_METER_250 = 0x45
    SEND_CREDIT_AMOUNT_OF_BILLS = 0x46
    SEND_COIN_AMOUNT_TO_DROP = 0x47
    SEND_LAST_ACCEPTED_BILL = 0x48
    SEND_NUMBER_OF_BILLS_IN_STACKER = 0x49
    SEND_CREDIT_AMOUNT_OF_BILLS_IN_STACKER = 0x4A
    SET_SECURE_ENHANCED_VALIDATION_ID = 0x4C
    SEND_ENHANCED_VALIDATION_INFORMATION = 0x4D
    SEND_VALIDATION_METERS = 0x50
    SEND_NUMBER_OF_GAMES = 0x51
    SEND_GAME_N_METERS = 0x52
    SEND_GAME_N_CONFIGURATION = 0x53
    SEND_SAS_VERSION_AND_SERIAL = 0x54
    SEND_SELECTED_GAME_NUMBER = 0x55
    SEND_ENABLED_GAME_NUMBERS = 0x56
    SEND_PENDING_CASHOUT_INFORMATION = 0x57
    RECEIVE_VALIDATION_NUMBER = 0x58
    SEND_EXTENDED_METERS = 0x6F
    SEND_TICKET_VALIDATION_DATA = 0x70
    REDEEM_TICKET = 0x71
    AFT_TRANSFER_FUNDS = 0x72
    AFT_REGISTER = 0x73
    AFT_LOCK_AND_STATUS = 0x74
    SET_AFT_RECEIPT_DATA = 0x75
    EXTENDED_VALIDATION_STATUS = 0x7B
    SEND_CURRENT_DATE_TIME = 0x7E
    RECEIVE_DATE_TIME = 0x7F
    SINGLE_LEVEL_PROGRESSIVE_BROADCAST = 0x80
    SEND_PROGRESSIVE_WIN_AMOUNT = 0x84
    SEND_SAS_PROGRESSIVE_WIN_AMOUNT = 0x85
    MULTIPLE_LEVEL_PROGRESSIVE_BROADCAST = 0x86
    SEND_MULTIPLE_SAS_PROGRESSIVE_WIN_AMOUNTS = 0x87

    LEGACY_BONUS_PAY = 0x8A
    SEND_LEGACY_BONUS_WIN = 0x90
    REMOTE_HANDPAY_RESET = 0x94
    SEND_LEGACY_BONUS_METERS = 0x9A
    SEND_ENABLED_FEATURES = 0xA0
    SEND_EXTENDED_METERS_ALT = 0xAF


#: long polls a host sends as ``address, command`` only (type R: no data, no CRC)
R_TYPE: frozenset[int] = frozenset(
    {
        *range(0x0F, 0x21),  # the single and multi meters, 1B, 1F, 20
        *range(0x2A, 0x2C),
        *range(0x31, 0x4B),  # bill meters, 3D, 46-4A
        0x51,
        0x54,
        0x55,
        0x56,
        0x57,
        0x70,
        0x7E,
        0x84,  # the progressive win reports (kiosk/terminal/sas/progressive.py)
        0x85,
        0x87,
        0x90,  # legacy bonus win amount
    }
)
#: type S polls: the number of data bytes between the command and the CRC
S_TYPE_DATA: dict[int, int] = {
    0x01: 0,
    0x02: 0,
    0x03: 0,
    0x04: 0,
    0x06: 0,
    0x07: 0,
    0x0A: 0,
    0x0B: 0,
    0x0E: 1,
    0x21: 2,
    0x2D: 2,
    0x4C: 6,
    0x4D: 1,
    0x50: 1,  # validation type
    0x52: 2,
    0x53: 2,
    0x58: 9,
    0x74: 4,  # lock code, transfer condition, lock timeout (2 BCD)
    0x7F: 7,
    0x80: 7,  # single-level progressive broadcast: group, level, 5 BCD
    0x8A: 5,  # bonus amount (4 BCD), tax status
    0x94: 0,
    0x9A: 2,  # game number
    0xA0: 2,  # game number
}
#: type M polls: a length byte follows the command; the largest length a poll may give
M_TYPE_MAX_LENGTH: dict[int, int] = {
    0x2F: 2 + 10,  # game number, up to 10 one-byte meter codes
    0x6F: 2 + 2 * 12,  # game number, up to 12 two-byte meter codes
    0xAF: 2 + 2 * 12,
    0x71: 1 + 5 + 1 + 32 + 4 + 2,  # transfer code, amount, parsing code, data, expiry, pool
    0x86: 1 + 32 * 6,  # multiple-level progressive broadcast: group, 32 x (level, 5 BCD)
    0x72: 0xFF,  # AFT transfer: up to the length byte's largest (receipt data is variable)
    0x73: 0x1D,  # AFT registration: code alone, or code, asset, key, POS id
    0x75: 0xFF,  # AFT receipt data: code, length, text, again and again
    0x7B: 0x08,  # extended validation status: masks and expirations
}


def request_length(command: int, header: bytes) -> int | None:
    """Whole length (address to CRC) of the long poll ``command``, given its first bytes.

    ``header`` is what has arrived so far (address and command at least).  Returns None while
    a type M poll's length byte has not arrived, and raises :class:`OverlongError` for a
    length byte larger than the poll allows and :class:`WireError` for an unknown command
    (whose length nobody can know).
    """
    if command in R_TYPE:
        return 2
    if command in S_TYPE_DATA:
        return 2 + S_TYPE_DATA[command] + CRC_BYTES
    if command in M_TYPE_MAX_LENGTH:
        if len(header) < 3:
            return None
        length = header[2]
        if length > M_TYPE_MAX_LENGTH[command]:
            raise OverlongError(f"long poll {command:02X}: length {length} is too large")
        return 3 + length + CRC_BYTES
    raise WireError(f"long poll {command:02X} is not one this machine knows")


#: commands answered with the address alone (ACK) or with bit 7 set (NACK)
ACK_RESPONSES: frozenset[int] = frozenset(
    {0x01, 0x02, 0x03, 0x04, 0x06, 0x07, 0x0A, 0x0B, 0x0E, 0x75, 0x7F, 0x8A}
)
#: whole length (address to CRC) of a machine's fixed-length data response, by command
RESPONSE_LENGTH: dict[int, int] = {
    0x0F: 28,
    **dict.fromkeys(range(0x10, 0x19), 8),
    0x19: 24,
    0x1A: 8,
    0x1B: 24,
    0x1C: 36,
    0x1E: 28,
    0x1F: 24,
    0x20: 8,
    0x21: 6,
    0x2A: 8,
    0x2B: 8,
    0x2D: 10,
    **dict.fromkeys(range(0x31, 0x48), 8),
    0x48: 10,
    0x49: 8,
    0x4A: 8,
    0x4C: 10,
    0x4D: 35,
    0x51: 6,
    0x53: 26,
    0x55: 6,
    0x57: 10,
    0x58: 5,
    0x7E: 11,
    0x84: 11,  # group, level, 5 BCD
    0x85: 11,
    0x94: 5,
    0x50: 14,  # validation type, count (4 BCD), amount (5 BCD)
    0x52: 22,  # game number, coin in, coin out, jackpot, games played
    0x90: 14,  # multiplier, multiplied win, tax status, bonus
    0x9A: 18,  # game number, deductible, non-deductible, wager match
    0xA0: 12,  # game number, four feature bytes, two reserved
}
#: data responses whose third byte is a length (the whole is 3 + length + CRC)
VARIABLE_RESPONSES: frozenset[int] = frozenset(
    {0x2F, 0x54, 0x56, 0x6F, 0x70, 0x71, 0x72, 0x73, 0x74, 0x7B, 0xAF, 0x87}
)


def response_length(command: int, header: bytes) -> int | None:
    """Whole length of the machine's data response to ``command`` given its first bytes.

    None while a variable response's length byte has not arrived; :class:`WireError` for a
    command answered by ACK/NACK or unknown here.
    """
    if command in RESPONSE_LENGTH:
        return RESPONSE_LENGTH[command]
    if command in VARIABLE_RESPONSES:
        return None if len(header) < 3 else 3 + header[2] + CRC_BYTES
    raise WireError(f"no data response is defined for long poll {command:02X}")


class ExceptionCode(IntEnum):
    """General-poll exception codes (SAS 6.02 table 7.6a) a TurboKiosk terminal reports."""

    NO_ACTIVITY = 0x00
    SLOT_DOOR_OPENED = 0x11
    SLOT_DOOR_CLOSED = 0x12
    DROP_DOOR_OPENED = 0x13
    DROP_DOOR_CLOSED = 0x14
    CARD_CAGE_OPENED = 0x15
    CARD_CAGE_CLOSED = 0x16
    AC_POWER_APPLIED = 0x17
    AC_POWER_LOST = 0x18
    CASHBOX_DOOR_OPENED = 0x19
    CASHBOX_DOOR_CLOSED = 0x1A
    CASHBOX_REMOVED = 0x1B
    CASHBOX_INSTALLED = 0x1C
    BELLY_DOOR_OPENED = 0x1D
    BELLY_DOOR_CLOSED = 0x1E
    GENERAL_TILT = 0x20
    CASHBOX_FULL = 0x27
    BILL_JAM = 0x28
    BILL_ACCEPTOR_HARDWARE_FAILURE = 0x29
    REVERSE_BILL = 0x2A
    BILL_REJECTED = 0x2B
    COUNTERFEIT_BILL = 0x2C
    CASHBOX_NEAR_FULL = 0x2E
    RAM_ERROR_DATA_RECOVERED = 0x31
    RAM_ERROR_NO_DATA_RECOVERED = 0x32
    RAM_ERROR_BAD_DEVICE = 0x33
    EEPROM_ERROR_DATA = 0x34
    EEPROM_ERROR_BAD_DEVICE = 0x35
    EPROM_ERROR_CHECKSUM_CHANGED = 0x36
    EPROM_ERROR_BAD_CHECKSUM = 0x37
    MEMORY_ERROR_RESET = 0x3A
    LOW_BACKUP_BATTERY = 0x3B
    OPERATOR_CHANGED_OPTIONS = 0x3C
    CASHOUT_TICKET_PRINTED = 0x3D
    HANDPAY_VALIDATED = 0x3E
    VALIDATION_ID_NOT_CONFIGURED = 0x3F
    BILL_ACCEPTED_1 = 0x47
    BILL_ACCEPTED_5 = 0x48
    BILL_ACCEPTED_10 = 0x49
    BILL_ACCEPTED_20 = 0x4A
    BILL_ACCEPTED_50 = 0x4B
    BILL_ACCEPTED_100 = 0x4C
    BILL_ACCEPTED_2 = 0x4D
    BILL_ACCEPTED_500 = 0x4E
    BILL_ACCEPTED = 0x4F
    BILL_ACCEPTED_200 = 0x50
    HANDPAY_PENDING = 0x51
    HANDPAY_RESET = 0x52
    PLAYER_CANCELLED_HANDPAY = 0x55
    PROGRESSIVE_WIN = 0x54  # progressive win, credit or cashout paid
    SAS_PROGRESSIVE_LEVEL_HIT = 0x56  # the host asks 85 or 87 for the amount
    SYSTEM_VALIDATION_REQUEST = 0x57
    PRINTER_COMMUNICATION_ERROR = 0x60
    PRINTER_PAPER_OUT = 0x61
    CASHOUT_BUTTON_PRESSED = 0x66
    TICKET_INSERTED = 0x67
    TICKET_TRANSFER_COMPLETE = 0x68
    AFT_TRANSFER_COMPLETE = 0x69
    AFT_REQUEST_HOST_CASHOUT = 0x6A
    AFT_REQUEST_REGISTRATION = 0x6C
    AFT_REGISTRATION_ACKNOWLEDGED = 0x6D
    AFT_REGISTRATION_CANCELLED = 0x6E
    GAME_LOCKED = 0x6F
    EXCEPTION_BUFFER_OVERFLOW = 0x70
    PRINTER_PAPER_LOW = 0x74
    PRINTER_POWER_OFF = 0x75
    PRINTER_POWER_ON = 0x76
    PRINTER_CARRIAGE_JAMMED = 0x78
    SOFT_METERS_RESET = 0x7A
    BILL_TOTALS_RESET = 0x7B
    LEGACY_BONUS_AWARDED = 0x7C
    GAME_STARTED = 0x7E
    GAME_ENDED = 0x7F
    ATTENDANT_MENU_ENTERED = 0x82
    ATTENDANT_MENU_EXITED = 0x83
    OPERATOR_MENU_ENTERED = 0x84
    OPERATOR_MENU_EXITED = 0x85
    OUT_OF_SERVICE = 0x86
    GAME_RECALL_DISPLAYED = 0x8A
    GAME_SELECTED = 0x8C
    COMPONENT_LIST_CHANGED = 0x8E
    AUTHENTICATION_COMPLETE = 0x8F
    POWER_OFF_CARD_CAGE_ACCESS = 0x98
    POWER_OFF_SLOT_DOOR_ACCESS = 0x99
    POWER_OFF_CASHBOX_DOOR_ACCESS = 0x9A
    POWER_OFF_DROP_DOOR_ACCESS = 0x9B


class MeterCode(IntEnum):
    """Meter codes of the selected (2F) and extended (6F/AF) meter polls (SAS table C-7)."""

    TOTAL_COIN_IN = 0x00
    TOTAL_COIN_OUT = 0x01
    TOTAL_JACKPOT = 0x02
    TOTAL_HANDPAID_CANCELLED_CREDITS = 0x03
    TOTAL_CANCELLED_CREDITS = 0x04
    GAMES_PLAYED = 0x05
    GAMES_WON = 0x06
    GAMES_LOST = 0x07
    TOTAL_CREDITS_FROM_COIN_ACCEPTOR = 0x08
    TOTAL_CREDITS_PAID_FROM_HOPPER = 0x09
    TOTAL_CREDITS_FROM_COINS_TO_DROP = 0x0A
    TOTAL_CREDITS_FROM_BILLS_ACCEPTED = 0x0B
    CURRENT_CREDITS = 0x0C
    TOTAL_CASHABLE_TICKET_IN_CENTS = 0x0D
    TOTAL_CASHABLE_TICKET_OUT_CENTS = 0x0E
    TOTAL_RESTRICTED_TICKET_IN_CENTS = 0x0F
    TOTAL_RESTRICTED_TICKET_OUT_CENTS = 0x10
    TOTAL_CASHABLE_TICKET_IN_COUNT = 0x11
    TOTAL_CASHABLE_TICKET_OUT_COUNT = 0x12
    TOTAL_RESTRICTED_TICKET_IN_COUNT = 0x13
    TOTAL_RESTRICTED_TICKET_OUT_COUNT = 0x14
    TOTAL_TICKET_IN_CREDITS = 0x15
    TOTAL_TICKET_OUT_CREDITS = 0x16
    TOTAL_ELECTRONIC_TRANSFERS_TO_MACHINE = 0x17
    TOTAL_ELECTRONIC_TRANSFERS_TO_HOST = 0x18
    TOTAL_MACHINE_PAID_EXTERNAL_BONUS_WIN = 0x1E
    TOTAL_ATTENDANT_PAID_EXTERNAL_BONUS_WIN = 0x21
    TOTAL_MACHINE_PAID_PAYTABLE_WIN = 0x1C
    TOTAL_MACHINE_PAID_PROGRESSIVE_WIN = 0x1D
    TOTAL_ATTENDANT_PAID_PAYTABLE_WIN = 0x1F
    TOTAL_ATTENDANT_PAID_PROGRESSIVE_WIN = 0x20
    TOTAL_WON_CREDITS = 0x22
    TOTAL_HANDPAID_CREDITS = 0x23
    TOTAL_DROP = 0x24
    GAMES_SINCE_POWER_RESET = 0x25
    GAMES_SINCE_SLOT_DOOR_CLOSURE = 0x26
    TOTAL_REGULAR_CASHABLE_TICKET_IN_CREDITS = 0x29
    TOTAL_CASHABLE_TICKET_OUT_CREDITS = 0x2C
    BILLS_IN_STACKER = 0x3E
    VALUE_OF_BILLS_IN_STACKER = 0x3F
    BILLS_1 = 0x40
    BILLS_2 = 0x41
    BILLS_5 = 0x42
    BILLS_10 = 0x43
    BILLS_20 = 0x44
    BILLS_25 = 0x45
    BILLS_50 = 0x46
    BILLS_100 = 0x47
    BILLS_200 = 0x48
    BILLS_250 = 0x49
    BILLS_500 = 0x4A
    BILLS_1000 = 0x4B
    REGULAR_CASHABLE_TICKET_IN_CENTS = 0x80
    REGULAR_CASHABLE_TICKET_IN_COUNT = 0x81
    REGULAR_CASHABLE_TICKET_OUT_CENTS = 0x86
    REGULAR_CASHABLE_TICKET_OUT_COUNT = 0x87
    AFT_CASHABLE_IN_CENTS = 0xA0
    AFT_CASHABLE_IN_COUNT = 0xA1
    AFT_BONUS_CASHABLE_IN_CENTS = 0xAE
    AFT_BONUS_CASHABLE_IN_COUNT = 0xAF
    AFT_CASHABLE_OUT_CENTS = 0xB8
    AFT_CASHABLE_OUT_COUNT = 0xB9


#: bytes a meter takes in a 2F response (table C-7: the four ticket-cents meters take 5)
FIVE_BYTE_SELECTED_METERS = frozenset({0x0D, 0x0E, 0x0F, 0x10})
#: bill denomination in cents -> SAS bill denomination code (table C-6; bill meter 0x40 + code)
BILL_DENOMINATION_CODES: dict[int, int] = {
    100: 0x00,
    200: 0x01,
    500: 0x02,
    1000: 0x03,
    2000: 0x04,
    2500: 0x05,
    5000: 0x06,
    10000: 0x07,
    20000: 0x08,
    25000: 0x09,
    50000: 0x0A,
    100000: 0x0B,
}
#: bill denomination in cents -> its own "bill accepted" exception (others: BILL_ACCEPTED)
BILL_ACCEPTED_EXCEPTIONS: dict[int, int] = {
    100: 0x47,
    500: 0x48,
    1000: 0x49,
    2000: 0x4A,
    5000: 0x4B,
    10000: 0x4C,
    200: 0x4D,
    50000: 0x4E,
    20000: 0x50,
}
#: country code of the notes the terminal takes (SAS table C-5: US dollars)
COUNTRY_CODE_USD = 0x00
#: accounting denomination code for one credit = one cent (SAS table C-4)
DENOMINATION_CODE_1_CENT = 0x01


def to_bcd(value: int, size: int) -> bytes:
    """``value`` as ``size`` bytes of packed BCD, most significant first."""
    if value < 0 or value >= 10 ** (2 * size):
        raise BcdError(f"{value} does not fit in {size} BCD bytes")
    digits = f"{value:0{2 * size}d}"
    return bytes(int(digits[i : i + 2], 16) for i in range(0, len(digits), 2))


def from_bcd(data: bytes) -> int:
    """The number packed BCD ``data`` holds; :class:`BcdError` for a non-decimal nibble."""
    value = 0
    for byte in data:
        high, low = byte >> 4, byte & 0x0F
        if high > 9 or low > 9:
            raise BcdError(f"byte {byte:02X} is not packed BCD")
        value = value * 100 + high * 10 + low
    return value


def meter_bcd(value: int, size: int = 4) -> bytes:
    """A meter on the wire: its low ``2 * size`` decimal digits, as a meter rolls over."""
    return to_bcd(value % 10 ** (2 * size), size)


def check_address(address: int) -> int:
    """``address`` if it is a gaming machine's address (1..127)."""
    if not MIN_ADDRESS <= address <= MAX_ADDRESS:
        raise AddressError(f"SAS address {address} is not in {MIN_ADDRESS}..{MAX_ADDRESS}")
    return address


def general_poll(address: int) -> bytes:
    """The one-byte general poll to ``address`` (send it with the wakeup bit)."""
    return bytes([GENERAL_POLL_BIT | check_address(address)])


def long_poll(address: int, command: int, data: bytes = b"") -> bytes:
    """A long poll as a host sends it: type R without a CRC, S and M with one.

    For a type M poll ``data`` begins with its length byte.
    """
    if address != BROADCAST_ADDRESS:
        check_address(address)
    frame = bytes([address, command]) + data
    if command in R_TYPE and not data:
        return frame
    return with_crc(frame)


def response(address: int, command: int, data: bytes) -> bytes:
    """A gaming machine's data response: ``address, command, data, CRC``."""
    return with_crc(bytes([check_address(address), command]) + data)


def ack(address: int) -> bytes:
    """The ACK of a command: the machine's address alone."""
    return bytes([check_address(address)])


def nack(address: int) -> bytes:
    """The NACK of a command: the machine's address with bit 7 set."""
    return bytes([NACK_BIT | check_address(address)])


@dataclass(frozen=True)
class LongPollFrame:
    """A long poll that arrived whole, its CRC checked."""

    address: int
    command: int
    data: bytes  # between the command and the CRC (a type M poll's length byte included)


def parse_long_poll(frame: bytes) -> LongPollFrame:
    """The long poll ``frame`` holds, checked: length by its command, CRC for S and M types."""
    if len(frame) < 2:
        raise TruncatedError(f"{len(frame)} bytes cannot hold a long poll")
    command = frame[1]
    expected = request_length(command, frame)
    if expected is None or len(frame) < expected:
        raise TruncatedError(f"long poll {command:02X}: {len(frame)} bytes of {expected}")
    if len(frame) > expected:
        raise OverlongError(f"long poll {command:02X}: {len(frame)} bytes, {expected} expected")
    if expected == 2:
        return LongPollFrame(frame[0], command, b"")
    if not crc_ok(frame):
        raise CrcError(f"long poll {command:02X}: CRC does not match")
    return LongPollFrame(frame[0], command, frame[2:-CRC_BYTES])


def parse_response(frame: bytes, command: int) -> bytes:
    """The data of a machine's response to ``command`` (CRC checked), for a host."""
    if len(frame) < 2 + CRC_BYTES:
        raise TruncatedError(f"{len(frame)} bytes cannot hold a response")
    if frame[1] != command:
        raise WireError(f"response to {frame[1]:02X}, not to {command:02X}")
    if not crc_ok(frame):
        raise CrcError(f"response to {command:02X}: CRC does not match")
    return frame[2:-CRC_BYTES]
