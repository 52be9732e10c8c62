"""ID-003 framing: published example frames, the CRC's catalogue check value, and a decoder
that never raises and finds its way back after noise."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kiosk.terminal.bridge.id003 import codes as k
from kiosk.terminal.bridge.id003.codec import Decoder, Frame, crc16_kermit, encode

#: frames as printed in public descriptions of ID-003 (docs/devices.md, "Sources")
PUBLISHED = [
    (Frame(k.STATUS_REQUEST), "FC 05 11 27 56"),  # STATUS REQUEST
    (Frame(k.ACK), "FC 05 50 AA 05"),  # ACK
    (Frame(k.RESET), "FC 05 40 2B 15"),  # RESET
]


def test_crc16_kermit_catalogue_check_value() -> None:
    assert crc16_kermit(b"123456789") == 0x2189  # the CRC catalogue's "check" for KERMIT


def test_published_frames_encode_and_decode() -> None:
    for frame, text in PUBLISHED:
        wire = bytes.fromhex(text)
        assert encode(frame) == wire
        assert Decoder().feed(wire) == [frame]


def test_a_frame_with_data() -> None:
    frame = Frame(k.ESCROW, bytes([0x65]))
    wire = encode(frame)
    assert wire[:4] == bytes([0xFC, 0x06, 0x13, 0x65]) and len(wire) == 6
    assert Decoder().feed(wire) == [frame]


def test_a_bad_crc_is_dropped_and_counted() -> None:
    wire = bytearray(encode(Frame(k.STATUS_REQUEST)))
    wire[-1] ^= 0xFF
    decoder = Decoder()
    assert decoder.feed(bytes(wire) + encode(Frame(k.ACK))) == [Frame(k.ACK)]
    assert decoder.stats.crc_errors == 1


frames = st.builds(Frame, st.integers(0, 255), st.binary(max_size=40))


@given(st.binary(max_size=600))
def test_the_decoder_never_raises(noise: bytes) -> None:
    Decoder().feed(noise)


@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_any_split_gives_the_same_frames(sent: list[Frame], data: st.DataObject) -> None:
    wire = b"".join(encode(f) for f in sent)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=10)))
    decoder, got, start = Decoder(), [], 0
    for cut in [*cuts, len(wire)]:
        got += decoder.feed(wire[start:cut])
        start = cut
    assert got == sent


@given(st.binary(max_size=200), st.lists(frames, min_size=1, max_size=5))
def test_it_resynchronises_after_noise(noise: bytes, sent: list[Frame]) -> None:
    """Noise, then a gap (the host's reply time-out clears a partial frame), then frames."""
    decoder = Decoder()
    decoder.feed(noise)
    decoder.reset()
    assert decoder.feed(b"".join(encode(f) for f in sent)) == sent


@given(st.binary(max_size=300))
def test_noise_without_a_gap_costs_at_most_one_frame_length(noise: bytes) -> None:
    """Without a gap, noise may hold a sync and a length that swallow what follows (at most
    255 bytes); the decoder is back in step after that: of 60 ACKs (300 bytes), the last
    ones (9 or more) come out as sent."""
    got = Decoder().feed(noise + encode(Frame(k.ACK)) * 60)
    assert got[-9:] == [Frame(k.ACK)] * 9
