"""Wire helpers: BCD, poll building, long-poll parsing and its typed errors."""

from __future__ import annotations

import pytest

from kiosk.terminal.sas import wire
from kiosk.terminal.sas.crc import with_crc


def test_bcd_round_trip_and_errors() -> None:
    assert wire.to_bcd(12345678, 4) == bytes.fromhex("12345678")
    assert wire.to_bcd(7, 2) == bytes.fromhex("0007")
    assert wire.from_bcd(bytes.fromhex("00012345")) == 12345
    assert wire.meter_bcd(123_456_789_012) == bytes.fromhex("56789012")
    with pytest.raises(wire.BcdError):
        wire.to_bcd(10**8, 4)
    with pytest.raises(wire.BcdError):
        wire.to_bcd(-1, 4)
    with pytest.raises(wire.BcdError):
        wire.from_bcd(b"\x1a")


def test_polls_as_a_host_sends_them() -> None:
    assert wire.general_poll(1) == b"\x81"
    assert wire.general_poll(127) == b"\xff"
    assert wire.long_poll(1, wire.LongPoll.SHUTDOWN) == bytes.fromhex("01015108")
    assert wire.long_poll(1, wire.LongPoll.SEND_COIN_IN) == b"\x01\x11"
    with pytest.raises(wire.AddressError):
        wire.general_poll(0)
    with pytest.raises(wire.AddressError):
        wire.long_poll(128, 0x11)


def test_parse_long_poll_checks_length_and_crc() -> None:
    frame = wire.parse_long_poll(with_crc(bytes.fromhex("0121ABCD")))
    assert (frame.address, frame.command, frame.data) == (1, 0x21, b"\xab\xcd")
    assert wire.parse_long_poll(b"\x05\x1a") == wire.LongPollFrame(5, 0x1A, b"")
    good = with_crc(bytes.fromhex("01210000"))
    with pytest.raises(wire.CrcError):
        wire.parse_long_poll(good[:-1] + bytes([good[-1] ^ 1]))
    with pytest.raises(wire.TruncatedError):
        wire.parse_long_poll(good[:-1])
    with pytest.raises(wire.OverlongError):
        wire.parse_long_poll(good + b"\x00")
    with pytest.raises(wire.WireError):
        wire.parse_long_poll(b"\x01\xee\x00\x00")
    with pytest.raises(wire.OverlongError):
        wire.request_length(0x2F, b"\x01\x2f\xff")


def test_response_lengths_for_a_host() -> None:
    assert wire.response_length(0x1F, b"\x01\x1f") == 24
    assert wire.response_length(0x54, b"\x01\x54") is None
    assert wire.response_length(0x54, b"\x01\x54\x05") == 10
    with pytest.raises(wire.WireError):
        wire.response_length(0x01, b"\x01\x01")
    data = wire.parse_response(wire.response(3, 0x1A, wire.to_bcd(250, 4)), 0x1A)
    assert wire.from_bcd(data) == 250
