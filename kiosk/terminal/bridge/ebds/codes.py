"""EBDS message types and the omnibus bits, as CPI's EBDS protocol specification lays them out."""

from __future__ import annotations

import enum


class MsgType(enum.IntEnum):
    """CTRL bits 4-6."""

    HOST_OMNIBUS = 0x10
    DEVICE_REPLY = 0x20
    EXTENDED = 0x70


EXT_BARCODE_REPLY = 0x01  # extended subtype: barcode in escrow
BARCODE_LEN = 24
BARCODE_FILL = 0x28  # unused barcode bytes


class Ops(enum.IntFlag):
    """Host omnibus data byte 1."""

    SPECIAL_INTERRUPT = 0x01
    HIGH_SECURITY = 0x02
    ORIENTATION_ANY = 0x0C
    ESCROW = 0x10
    STACK = 0x20
    RETURN = 0x40


class Config(enum.IntFlag):
    """Host omnibus data byte 2."""

    NO_PUSH = 0x01
    BARCODE = 0x02


class S0(enum.IntFlag):
    """Reply data byte 0: where the item is."""

    IDLING = 0x01
    ACCEPTING = 0x02
    ESCROWED = 0x04
    STACKING = 0x08
    STACKED = 0x10
    RETURNING = 0x20
    RETURNED = 0x40


class S1(enum.IntFlag):
    """Reply data byte 1: events and the cash box."""

    CHEATED = 0x01
    REJECTED = 0x02
    JAMMED = 0x04
    STACKER_FULL = 0x08
    CASSETTE_ATTACHED = 0x10
    PAUSED = 0x20
    CALIBRATION = 0x40


class S2(enum.IntFlag):
    """Reply data byte 2: power up, failures; bits 3-5 the note's denomination index (1-7)."""

    POWER_UP = 0x01
    INVALID_COMMAND = 0x02
    FAILURE = 0x04


NOTE_SHIFT = 3
NOTE_MASK = 0x38
