"""SSP command, reply and poll-event codes, as ITL's SSP manual lists them."""

from __future__ import annotations

import enum

from kiosk.terminal.bridge.native import RejectCause


class Command(enum.IntEnum):
    """Commands a host sends (the first data byte)."""

    RESET = 0x01
    SET_INHIBITS = 0x02
    SETUP_REQUEST = 0x05
    HOST_PROTOCOL_VERSION = 0x06
    POLL = 0x07
    REJECT = 0x08
    DISABLE = 0x09
    ENABLE = 0x0A
    GET_SERIAL_NUMBER = 0x0C
    SYNC = 0x11
    LAST_REJECT_CODE = 0x17
    HOLD = 0x18
    SET_BARCODE_INHIBIT = 0x26
    GET_BARCODE_DATA = 0x27
    SET_GENERATOR = 0x4A
    SET_MODULUS = 0x4B
    REQUEST_KEY_EXCHANGE = 0x4C


class Reply(enum.IntEnum):
    """The first byte of every reply."""

    OK = 0xF0
    UNKNOWN_COMMAND = 0xF2
    WRONG_PARAMETERS = 0xF3
    PARAMETER_OUT_OF_RANGE = 0xF4
    CANNOT_PROCESS = 0xF5
    SOFTWARE_ERROR = 0xF6
    FAIL = 0xF8
    KEY_NOT_SET = 0xFA


class Event(enum.IntEnum):
    """Events after OK in a poll reply."""

    SLAVE_RESET = 0xF1
    READ = 0xEF  # + channel (0: still reading)
    CREDIT = 0xEE  # + channel
    REJECTING = 0xED
    REJECTED = 0xEC
    STACKING = 0xCC
    STACKED = 0xEB
    SAFE_JAM = 0xEA
    UNSAFE_JAM = 0xE9
    DISABLED = 0xE8
    FRAUD_ATTEMPT = 0xE6  # + channel
    STACKER_FULL = 0xE7
    CLEARED_FROM_FRONT = 0xE1  # + channel
    CLEARED_INTO_CASHBOX = 0xE2  # + channel
    CASHBOX_REMOVED = 0xE3
    CASHBOX_REPLACED = 0xE4
    TICKET_ESCROW = 0xE5  # a barcode ticket validated and held
    TICKET_STACKED = 0xD1  # the ticket in escrow reached the stacker


#: Events followed by one data byte (a channel).
WITH_CHANNEL = frozenset(
    {
        Event.READ,
        Event.CREDIT,
        Event.FRAUD_ATTEMPT,
        Event.CLEARED_FROM_FRONT,
        Event.CLEARED_INTO_CASHBOX,
    }
)

#: Barcode inhibit byte: a clear bit enables (bit 0 notes, bit 1 tickets); others stay set.
BARCODE_NOTES_OFF = 0x01
BARCODE_TICKETS_OFF = 0x02

#: Last-reject codes that mean more than "not recognised".
REJECT_CODES: dict[int, RejectCause] = {
    0x06: RejectCause.NOT_ACCEPTED,  # channel inhibited
    0x0A: RejectCause.FAULT,  # rear sensor error
    0x0C: RejectCause.DISABLED,  # disabled by host
    0x0D: RejectCause.FAULT,  # mechanism slow / stalled
}
REJECT_CHANNEL_INHIBITED = 0x06
REJECT_BY_HOST = 0x08
REJECT_DISABLED = 0x0C


def reject_cause(code: int) -> RejectCause:
    """What a last-reject code means to the bridge."""
    return REJECT_CODES.get(code, RejectCause.NOT_RECOGNISED)
