"""EBDS framing and checksum: an example frame, fuzzing, the reply parser."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.terminal.bridge.ebds.codes import MsgType
from kiosk.terminal.bridge.ebds.frame import Decoder, Message, checksum, encode
from kiosk.terminal.bridge.ebds.host import Status, parse_reply

# No freely published EBDS specification text with an example frame could be found; this
# omnibus command (all seven denominations, escrow mode, ACK 0) is what public host code sends,
# and its checksum is checked here independently: 08 ^ 10 ^ 7F ^ 10 ^ 00 = 77.
OMNIBUS_EXAMPLE = bytes.fromhex("0208107F10000377")


def test_the_example_omnibus_command() -> None:
    message = Message(MsgType.HOST_OMNIBUS, 0, bytes([0x7F, 0x10, 0x00]))
    assert encode(message) == OMNIBUS_EXAMPLE
    assert checksum(OMNIBUS_EXAMPLE[1:-2]) == 0x77
    assert Decoder().feed(OMNIBUS_EXAMPLE) == [message]


def test_a_reply_parses_to_its_status() -> None:
    wire = encode(Message(MsgType.DEVICE_REPLY, 1, bytes([0x01, 0x10, 0x00, 0x00, 0x54, 0x2A])))
    (message,) = Decoder().feed(wire)
    assert message.ack == 1
    assert parse_reply(message) == Status(0x01, 0x10, 0x00, 0x00, 0x54, 0x2A)


def test_an_extended_barcode_reply_carries_the_barcode() -> None:
    code = b"123456789012345678".ljust(24, b"(")
    data = bytes([0x01, 0x04, 0x10, 0x00, 0x00, 0x54, 0x2A]) + code
    (message,) = Decoder().feed(encode(Message(MsgType.EXTENDED, 0, data)))
    status = parse_reply(message)
    assert status is not None and status.barcode == "123456789012345678"


def test_a_bad_checksum_is_dropped_and_the_next_message_read() -> None:
    bad = bytearray(OMNIBUS_EXAMPLE)
    bad[-1] ^= 0x01
    decoder = Decoder()
    assert decoder.feed(bytes(bad) + OMNIBUS_EXAMPLE) == [Decoder().feed(OMNIBUS_EXAMPLE)[0]]
    assert decoder.stats.bad_messages >= 1


def test_a_stale_partial_message_is_given_up() -> None:
    decoder = Decoder(stale_ms=100)
    assert decoder.feed(b"\x02\x28\x20", now_ms=0) == []  # claims 40 bytes, never sends them
    assert decoder.feed(OMNIBUS_EXAMPLE, now_ms=500) != []


messages = st.builds(
    Message,
    st.sampled_from([0x10, 0x20, 0x70]),
    st.integers(0, 1),
    st.binary(max_size=30).map(lambda b: bytes(x & 0x7F for x in b)),
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_decoder_never_raises(noise: bytes) -> None:
    decoder = Decoder()
    for message in decoder.feed(noise):
        parse_reply(message)  # nor does the parser


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=100), messages, st.integers(1, 7))
def test_decoder_resynchronises_after_noise(noise: bytes, message: Message, split: int) -> None:
    copies = 1 + 40 // len(encode(message))  # noise can claim a 40-byte message
    wire = noise + encode(message) * (copies + 1)
    decoder = Decoder()
    got: list[Message] = []
    for i in range(0, len(wire), split):
        got += decoder.feed(wire[i : i + split])
    assert got[-1] == message


@settings(max_examples=200, deadline=None)
@given(messages)
def test_round_trip(message: Message) -> None:
    assert Decoder().feed(encode(message)) == [message]
