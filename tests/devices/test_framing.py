"""COBS + CRC-32 framing: round trips, resynchronisation, and no crash on any input."""

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.terminal.devices.framing import (
    MAX_PAYLOAD,
    FrameDecoder,
    FrameError,
    crc32,
    encode_frame,
    max_encoded_size,
)

payloads = st.binary(min_size=0, max_size=300)


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces, last = [], 0
    for p in points:
        pieces.append(data[last:p])
        last = p
    pieces.append(data[last:])
    return pieces


def test_known_frame():
    frame = encode_frame(b"\x01\x00\x02")
    assert frame.endswith(b"\x00") and b"\x00" not in frame[:-1]
    assert FrameDecoder().feed(frame) == [b"\x01\x00\x02"]
    assert crc32(b"123456789") == 0xCBF43926 == zlib.crc32(b"123456789")


def test_payload_too_long_is_refused():
    with pytest.raises(FrameError):
        encode_frame(bytes(MAX_PAYLOAD + 1))


@given(st.lists(payloads, max_size=20), st.lists(st.integers(0, 10_000), max_size=30))
def test_round_trip_in_any_pieces(messages, cuts):
    stream = b"".join(encode_frame(m) for m in messages)
    decoder = FrameDecoder()
    out = []
    for piece in split(stream, cuts):
        out += decoder.feed(piece)
    assert out == messages
    assert decoder.stats.frames == len(messages) and decoder.stats.dropped == 0


@given(st.binary(max_size=2000), st.lists(payloads, min_size=1, max_size=5))
def test_resynchronises_after_noise(noise, messages):
    """Whatever came before, every frame after the next delimiter is decoded."""
    decoder = FrameDecoder()
    decoder.feed(noise)
    out = decoder.feed(b"\x00" + b"".join(encode_frame(m) for m in messages))
    assert out == messages


@settings(max_examples=300)
@given(st.binary(max_size=4000))
def test_random_bytes_never_crash_and_every_frame_is_accounted(noise):
    decoder = FrameDecoder()
    for payload in decoder.feed(noise):
        assert len(payload) <= max_encoded_size(MAX_PAYLOAD)
    s = decoder.stats
    assert s.bytes_in == len(noise)
    assert s.frames + s.empty + s.dropped <= noise.count(0) + 1


@given(payloads, st.data())
def test_corruption_is_detected(payload, data):
    """Flip one to four bytes inside a frame: the frame is dropped, never delivered wrong."""
    frame = bytearray(encode_frame(payload))
    positions = data.draw(st.lists(st.integers(0, len(frame) - 2), min_size=1, max_size=4))
    for p in positions:
        frame[p] = (frame[p] + data.draw(st.integers(1, 254))) % 256 or 1
    decoder = FrameDecoder()
    out = decoder.feed(bytes(frame))
    # CRC-32 detects every error burst of up to 32 bits; longer ones pass with odds 2^-32
    assert out in ([], [payload])
    if len(positions) == 1:
        assert out == [] and decoder.stats.dropped == 1


@given(payloads, st.integers(1, 50))
def test_truncated_frame_is_dropped_and_the_next_one_survives(payload, cut):
    frame = encode_frame(payload)
    truncated = frame[: max(1, len(frame) - 1 - cut)]
    decoder = FrameDecoder()
    assert decoder.feed(truncated + b"\x00" + encode_frame(b"next")) == [b"next"]
    assert decoder.stats.dropped + decoder.stats.empty >= 1


def test_oversize_garbage_is_discarded_up_to_the_next_delimiter():
    decoder = FrameDecoder(max_payload=16)
    assert decoder.feed(b"\x01" * 100) == []
    assert decoder.feed(b"\x01" * 100 + b"\x00" + encode_frame(b"ok", 16)) == [b"ok"]
    assert decoder.stats.oversize == 1
