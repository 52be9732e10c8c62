"""The receiver's framing rules in both wakeup modes, and the PARMRK decoder."""

from __future__ import annotations

import random

from kiosk.terminal.sas import wire
from kiosk.terminal.sas.crc import with_crc
from kiosk.terminal.sas.framing import (
    Dropped,
    DropReason,
    GeneralPoll,
    ParmrkDecoder,
    Receiver,
    WakeupMode,
)


def _feed(rx: Receiver, data: bytes, now: float, wakeup_first: bool = True) -> list[object]:
    out: list[object] = []
    for i, byte in enumerate(data):
        out += rx.feed(byte, wakeup_first and i == 0, now + i * 0.0006)
    return out


def test_parity_mode_frames_by_the_wakeup_bit() -> None:
    rx = Receiver(1, WakeupMode.PARITY)
    assert _feed(rx, b"\x81", 0.0) == [GeneralPoll(1)]
    poll = wire.long_poll(1, wire.LongPoll.ROM_SIGNATURE, b"\x00\x00")
    assert _feed(rx, poll, 1.0) == [wire.LongPollFrame(1, 0x21, b"\x00\x00")]
    # a byte without the wakeup bit while idle is noise, even if it looks like a poll
    assert _feed(rx, b"\x81", 2.0, wakeup_first=False) == [Dropped(DropReason.NOISE, "81")]
    # a wakeup byte in the middle of a poll starts a new one; the old one is truncated
    out = _feed(rx, poll[:3], 3.0) + rx.feed(0x81, True, 3.002)
    assert out[0] == Dropped(DropReason.TRUNCATED, poll[:3].hex()) and out[1] == GeneralPoll(1)


def test_gap_mode_address_byte_rule_and_quiet_line() -> None:
    rx = Receiver(1, WakeupMode.GAP)
    poll = wire.long_poll(1, wire.LongPoll.SEND_SELECTED_METERS, bytes([3, 0, 0, 0x0C]))
    assert _feed(rx, poll + b"\x81", 0.0, wakeup_first=False)[-1] == GeneralPoll(1)
    # a poll that stops short is dropped when the line goes quiet, then the next byte leads
    assert _feed(rx, poll[:4], 1.0, False) == []
    assert rx.expire(1.1) == [Dropped(DropReason.TRUNCATED, poll[:4].hex())]
    assert _feed(rx, b"\x81", 1.2, False) == [GeneralPoll(1)]
    # another machine's poll of a known length is skipped exactly
    other = wire.long_poll(2, wire.LongPoll.ROM_SIGNATURE, b"\x01\x02")
    out = _feed(rx, other + b"\x81", 2.0, False)
    assert out == [Dropped(DropReason.OTHER_ADDRESS, other.hex()), GeneralPoll(1)]
    # an unknown command: skipped until the line goes quiet
    first = _feed(rx, b"\x01\xee\x81\x81", 3.0, False)[0]
    assert isinstance(first, Dropped) and first.reason is DropReason.UNKNOWN_COMMAND
    assert _feed(rx, b"\x81", 3.1, False) == [GeneralPoll(1)]


def test_crc_and_overlong_lengths_are_dropped() -> None:
    rx = Receiver(1, WakeupMode.GAP)
    bad = bytearray(wire.long_poll(1, wire.LongPoll.SHUTDOWN))
    bad[-1] ^= 1
    assert [type(x) for x in _feed(rx, bytes(bad), 0.0, False)] == [Dropped]
    out = _feed(rx, with_crc(b"\x01\x6f\xfe"), 1.0, False)
    assert out and isinstance(out[0], Dropped) and out[0].reason is DropReason.OVERLONG


def test_random_bytes_never_raise_in_either_mode() -> None:
    rng = random.Random(26)
    for mode in WakeupMode:
        rx = Receiver(7, mode)
        now = 0.0
        for _ in range(6_000):
            now += rng.choice((0.0005, 0.0005, 0.01))
            rx.feed(rng.randrange(256), rng.random() < 0.1, now)


def test_parmrk_decoder_undoes_the_kernel_marking_across_reads() -> None:
    decoder = ParmrkDecoder()
    stream = b"\xff\x00\x81" + b"\xff\xff" + b"\x10" + b"\xff\x00\x01\x1a"
    pairs = []
    for i in range(len(stream)):  # one byte at a time: escapes split across reads
        pairs += decoder.feed(stream[i : i + 1])
    assert pairs == [(0x81, True), (0xFF, False), (0x10, False), (0x01, True), (0x1A, False)]
