"""The host poller, sans-IO: what it sends when, and what it makes of the bytes that come."""

from __future__ import annotations

from kiosk.host.sas import polls
from kiosk.host.sas.poller import (
    Acknowledged,
    BadResponse,
    Busy,
    ExceptionReceived,
    HostPoller,
    LineNoise,
    NoResponse,
    Response,
)
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.crc import with_crc
from kiosk.terminal.sas.wire import LongPoll as Code


def _poller() -> HostPoller:
    return HostPoller(1, general_interval_ms=200, response_timeout_ms=100, gap_ms=5)


def test_general_polls_every_interval_and_exception_byte_read() -> None:
    poller = _poller()
    sent = poller.tick(0)
    assert sent is not None and sent.data == b"\x81" and sent.poll is None
    assert poller.tick(10) is None  # waiting for the answer
    assert poller.receive(b"\x00", 12) == [ExceptionReceived(0, 12.0)]
    assert poller.tick(100) is None  # not due yet
    assert poller.tick(200) is not None


def test_exception_is_acknowledged_by_another_poll_before_the_next_general_poll() -> None:
    poller = _poller()
    poller.tick(0)
    assert poller.receive(b"\x11", 3) == [ExceptionReceived(0x11, 3.0)]
    sync = poller.tick(10)
    assert sync is not None and sync.data == b"\x80"  # the broadcast general poll: no answer
    assert poller.tick(20) is None  # the gap after the sync
    assert poller.tick(200) is not None and poller.busy


def test_unanswered_general_poll_is_repeated_at_once() -> None:
    poller = _poller()
    poller.tick(0)
    assert poller.expire(99) == []
    assert poller.expire(100) == [NoResponse(None, b"")]
    again = poller.tick(106)
    assert again is not None and again.data == b"\x81"


def test_long_poll_fixed_answer_checked_by_crc() -> None:
    poller = _poller()
    poller.ask(polls.poll(Code.SEND_CURRENT_CREDITS))
    sent = poller.tick(0)
    assert sent is not None and sent.data == b"\x01\x1a"
    answer = wire.response(1, 0x1A, wire.to_bcd(12345, 4))
    assert poller.receive(answer[:3], 2) == []  # partial
    events = poller.receive(answer[3:], 4)
    assert len(events) == 1 and isinstance(events[0], Response)
    assert polls.decode(0x1A, events[0].body) == [polls.Field("current_credits", 12345)]


def test_variable_answer_by_its_length_byte() -> None:
    poller = _poller()
    poller.ask(polls.poll(Code.SEND_SAS_VERSION_AND_SERIAL))
    poller.tick(0)
    body = b"602TK-0001"
    answer = wire.response(1, 0x54, bytes([len(body)]) + body)
    (event,) = poller.receive(answer, 3)
    assert isinstance(event, Response)
    assert polls.decode(0x54, event.body) == [
        polls.Field("sas_version", "602"),
        polls.Field("serial_number", "TK-0001"),
    ]


def test_ack_nack_busy_bad_crc_wrong_address() -> None:
    poller = _poller()
    for poll_code in (Code.SHUTDOWN, Code.STARTUP):
        poller.ask(polls.poll(poll_code))
    first = poller.tick(0)
    assert first is not None and first.data == with_crc(b"\x01\x01")
    assert poller.receive(b"\x01", 1) == [Acknowledged(polls.poll(Code.SHUTDOWN), True, 1.0)]
    poller.tick(10)
    assert poller.receive(b"\x81", 12) == [Acknowledged(polls.poll(Code.STARTUP), False, 2.0)]
    poller.ask(polls.poll(Code.SEND_COIN_IN))
    poller.tick(20)
    assert poller.receive(b"\x01\x00", 22) == [Busy(polls.poll(Code.SEND_COIN_IN))]
    poller.ask(polls.poll(Code.SEND_COIN_IN))
    between = poller.tick(30)  # the same poll again: a general poll first
    assert between is not None and between.poll is None
    poller.receive(b"\x00", 31)
    assert poller.tick(36) is not None
    bad = bytearray(wire.response(1, 0x11, wire.to_bcd(5, 4)))
    bad[-1] ^= 0xFF
    (event,) = poller.receive(bytes(bad), 38)
    assert isinstance(event, BadResponse) and event.reason == "bad CRC"
    poller.ask(polls.poll(Code.SEND_CURRENT_CREDITS))
    poller.tick(45)
    event, rest = poller.receive(b"\x02\x1a", 46)
    assert isinstance(event, BadResponse) and rest == LineNoise(b"\x1a")


def test_bytes_nobody_asked_for_are_noise() -> None:
    poller = _poller()
    assert poller.receive(b"\x01\x02\x03", 0) == [LineNoise(b"\x01\x02\x03")]
    poller.tick(0)
    events = poller.receive(b"\x00\x99", 1)
    assert events == [ExceptionReceived(0, 1.0), LineNoise(b"\x99")]


def test_long_polls_frames_are_the_wire_modules() -> None:
    meters = polls.selected_meters(0, (0x00, 0x0D))
    frame = meters.frame(1)
    assert wire.parse_long_poll(frame) == wire.LongPollFrame(1, 0x2F, b"\x04\x00\x00\x00\x0d")
    redeem = polls.redeem_ticket(polls.TRANSFER_VALID_CASHABLE, 2000, "123456789012345678")
    parsed = wire.parse_long_poll(redeem.frame(5))
    assert parsed.command == 0x71 and parsed.data[2:7] == wire.to_bcd(2000, 5)
    for poll in polls.sweep():
        wire.parse_long_poll(poll.frame(127))  # every poll of a sweep is well formed


def test_rom_signature_computed_later_comes_to_a_general_poll() -> None:
    poller = _poller()
    poller.ask(polls.rom_signature(0x1234))
    sent = poller.tick(0)
    assert sent is not None and sent.data == wire.long_poll(1, 0x21, b"\x34\x12")
    assert poller.expire(100) == [NoResponse(polls.rom_signature(0x1234), b"")]
    general = poller.tick(200)
    assert general is not None and general.poll is None
    answer = wire.response(1, 0x21, b"\xcd\xab")
    (event,) = poller.receive(answer, 203)
    assert isinstance(event, Response) and event.poll == polls.rom_signature(0x1234)
    assert polls.decode(0x21, event.body) == [polls.Field("rom_signature", "abcd")]
    poller.tick(400)
    assert poller.receive(b"\x01", 401) == [ExceptionReceived(1, 1.0)]  # an exception again


def test_the_same_long_poll_twice_gets_a_general_poll_between() -> None:
    poller = _poller()
    poller.ask(polls.enhanced_validation(0))
    poller.ask(polls.enhanced_validation(0))
    first = poller.tick(0)
    assert first is not None and first.poll == polls.enhanced_validation(0)
    assert poller.expire(100) == [NoResponse(polls.enhanced_validation(0), b"")]
    between = poller.tick(105)
    assert between is not None and between.poll is None  # a general poll
    poller.receive(b"\x00", 106)
    second = poller.tick(111)
    assert second is not None and second.poll == polls.enhanced_validation(0)
