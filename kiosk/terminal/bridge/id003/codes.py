"""ID-003 command and status codes, denominations, reject and failure reasons.

From the public descriptions of the protocol (docs/devices.md, "Sources"): the host sends a
command, the acceptor answers every one (a status, ``ACK`` for an operation, the setting echoed
for a setting); the host answers ``VEND VALID`` with ``ACK``, which the acceptor does not answer.
"""

from __future__ import annotations

from kiosk.terminal.bridge.native import RejectCause

# host -> acceptor: requests and operations
STATUS_REQUEST = 0x11
RESET = 0x40
STACK_1 = 0x41
STACK_2 = 0x42
RETURN = 0x43
HOLD = 0x44
WAIT = 0x45
ACK = 0x50  # also the acceptor's answer to an operation
# host -> acceptor: settings (echoed by the acceptor)
SET_DENOMINATIONS = 0xC0  # two bytes, a bit set inhibits that denomination
SET_SECURITY = 0xC1
SET_COMMUNICATION_MODE = 0xC2
SET_INHIBIT = 0xC3  # one byte: 0x00 accept, 0x01 inhibit
SET_DIRECTION = 0xC4
SET_OPTIONAL_FUNCTION = 0xC5
SET_BARCODE_FUNCTION = 0xC6  # type (0x01 interleaved 2 of 5), number of characters
SET_BAR_INHIBIT = 0xC7  # bit 0 inhibits notes, bit 1 tickets; the high bits are set
# host -> acceptor: setting and information requests
VERSION_REQUEST = 0x88
BOOT_VERSION_REQUEST = 0x89
CURRENCY_ASSIGN_REQUEST = 0x8A

SETTINGS = frozenset(range(SET_DENOMINATIONS, SET_BAR_INHIBIT + 1))
REQUESTS = frozenset({VERSION_REQUEST, BOOT_VERSION_REQUEST, CURRENCY_ASSIGN_REQUEST})
OPERATIONS = frozenset({RESET, STACK_1, STACK_2, RETURN, HOLD, WAIT})

# acceptor -> host: status
ENABLE = 0x11  # idling, accepting
ACCEPTING = 0x12
ESCROW = 0x13  # + denomination code, or BARCODE_TICKET + the characters
STACKING = 0x14
VEND_VALID = 0x15
STACKED = 0x16
REJECTING = 0x17  # + reason
RETURNING = 0x18
HOLDING = 0x19
DISABLE = 0x1A  # inhibited
INITIALIZE = 0x1B
# acceptor -> host: power-up
POWER_UP = 0x40
POWER_UP_BILL_IN_ACCEPTOR = 0x41
POWER_UP_BILL_IN_STACKER = 0x42
# acceptor -> host: errors
STACKER_FULL = 0x43
STACKER_OPEN = 0x44
JAM_IN_ACCEPTOR = 0x45
JAM_IN_STACKER = 0x46
PAUSE = 0x47
CHEATED = 0x48
FAILURE = 0x49  # + failure code
COMMUNICATION_ERROR = 0x4A
INVALID_COMMAND = 0x4B

POWER_UPS = frozenset({POWER_UP, POWER_UP_BILL_IN_ACCEPTOR, POWER_UP_BILL_IN_STACKER})
#: statuses that are a condition of the acceptor (a tilt at the terminal)
ERRORS = frozenset(
    {STACKER_FULL, STACKER_OPEN, JAM_IN_ACCEPTOR, JAM_IN_STACKER, PAUSE, CHEATED, FAILURE}
)
#: statuses in which nothing is in the acceptor's path
IDLE = frozenset({ENABLE, DISABLE})

BARCODE_TICKET = 0x6F
BARCODE_ITF = 0x01
TICKET_DIGITS = 18

#: denomination code -> cents: the default (US dollar) assignment, which the acceptor's
#: CURRENCY ASSIGN answer replaces
DEFAULT_DENOMINATIONS: dict[int, int] = {
    0x61: 100,
    0x62: 200,
    0x63: 500,
    0x64: 1000,
    0x65: 2000,
    0x66: 5000,
    0x67: 10000,
}
COUNTRY_USD = 0x01

#: reject reason byte -> (the device's words, our cause)
REJECT_REASONS: dict[int, tuple[str, RejectCause]] = {
    0x71: ("insertion error", RejectCause.NOT_RECOGNISED),
    0x72: ("magnetic pattern error", RejectCause.NOT_RECOGNISED),
    0x73: ("return by remaining note in the head", RejectCause.FAULT),
    0x74: ("calibration error", RejectCause.NOT_RECOGNISED),
    0x75: ("conveying error", RejectCause.FAULT),
    0x76: ("denomination assessment error", RejectCause.NOT_RECOGNISED),
    0x77: ("photo pattern error", RejectCause.NOT_RECOGNISED),
    0x78: ("photo level error", RejectCause.NOT_RECOGNISED),
    0x79: ("return by inhibit", RejectCause.NOT_ACCEPTED),
    0x7B: ("operation error", RejectCause.FAULT),
    0x7C: ("return by remaining note in the stacker", RejectCause.FAULT),
    0x7D: ("length error", RejectCause.NOT_RECOGNISED),
    0x7E: ("colour pattern error", RejectCause.NOT_RECOGNISED),
    0x7F: ("false barcode", RejectCause.NOT_RECOGNISED),
}

#: failure code -> the device's words
FAILURES: dict[int, str] = {
    0xA2: "stack motor failure",
    0xA5: "transport motor speed failure",
    0xA6: "transport motor failure",
    0xA8: "solenoid failure",
    0xA9: "PB unit failure",
    0xAB: "cash box not ready",
    0xAF: "validator head removed",
    0xB0: "boot ROM failure",
    0xB1: "external ROM failure",
    0xB2: "RAM failure",
    0xB3: "external ROM writing failure",
}


def reject_reason(code: int) -> tuple[str, RejectCause]:
    """The words and cause of a reject reason byte (an unknown one is not recognised)."""
    return REJECT_REASONS.get(code, (f"reject reason 0x{code:02X}", RejectCause.NOT_RECOGNISED))


def failure_name(code: int) -> str:
    """The words of a failure code."""
    return FAILURES.get(code, f"failure 0x{code:02X}")
