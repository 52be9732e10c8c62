"""SSP framing, CRC and the eSSP encryption layer: published examples, check values, fuzzing."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.terminal.bridge.essp.crypto import (
    CryptoError,
    PacketCipher,
    aes_key,
    is_prime,
    random_prime,
)
from kiosk.terminal.bridge.essp.frame import Decoder, Packet, crc16, encode

# ITL's SSP manual gives SYNC to address 0 with the sequence flag set as 7F 80 01 11 65 82
# (CRC 0x8265, sent low byte first); the docs.rs "ssp" crate checks the same CRC.
SYNC_EXAMPLE = bytes.fromhex("7F8001116582")


def _fixed(n: int) -> bytes:
    return bytes(range(n))


def test_the_published_sync_frame() -> None:
    assert encode(Packet(True, 0, b"\x11")) == SYNC_EXAMPLE
    assert Decoder().feed(SYNC_EXAMPLE) == [Packet(True, 0, b"\x11")]


def test_crc_matches_the_catalogue_check_value() -> None:
    # poly 0x8005, init 0xFFFF, no reflection, no final XOR: CRC-16/CMS, check 0xAEE7
    assert crc16(b"123456789") == 0xAEE7
    assert crc16(bytes([0x80, 0x01, 0x11])) == 0x8265


def test_every_0x7f_after_the_start_is_doubled() -> None:
    wire = encode(Packet(False, 0x7F, b"\x7f\x00\x7f"))
    assert wire[0] == 0x7F
    assert wire[1:].replace(b"\x7f\x7f", b"").find(b"\x7f") == -1
    assert Decoder().feed(wire) == [Packet(False, 0x7F, b"\x7f\x00\x7f")]


def test_a_bad_crc_is_dropped_and_counted() -> None:
    wire = bytearray(encode(Packet(True, 0, b"\xf0")))
    wire[3] ^= 0x01  # the data byte
    decoder = Decoder()
    assert decoder.feed(bytes(wire)) == []
    assert decoder.stats.crc_errors == 1


packets = st.builds(Packet, st.booleans(), st.integers(0, 127), st.binary(max_size=64))
# Address 0x7F would make its packets start 7F 7F 7F, which noise can pair up without end;
# validators use low addresses (0 for a note validator).
real_packets = st.builds(Packet, st.booleans(), st.integers(0, 0x7D), st.binary(max_size=64))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_decoder_never_raises(noise: bytes) -> None:
    for packet in Decoder().feed(noise):
        assert 0 <= packet.address < 128


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=100), real_packets, st.integers(1, 7))
def test_decoder_resynchronises_after_noise(noise: bytes, packet: Packet, split: int) -> None:
    # noise may open a packet whose length byte swallows up to 259 bytes: past that, in step
    copies = 1 + 260 // len(encode(packet))
    wire = noise + encode(packet) * copies
    decoder = Decoder()
    got: list[Packet] = []
    for i in range(0, len(wire), split):  # any split
        got += decoder.feed(wire[i : i + split])
    assert got[-1] == packet


@settings(max_examples=200, deadline=None)
@given(packets)
def test_encode_decode_round_trip(packet: Packet) -> None:
    assert Decoder().feed(encode(packet)) == [packet]


def test_primes() -> None:
    assert [n for n in range(40) if is_prime(n)] == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
    assert is_prime(2**61 - 1) and not is_prime(2**61 + 1)
    assert not is_prime(3_215_031_751)  # a strong pseudoprime to bases 2, 3, 5 and 7
    p = random_prime(random.Random(5).randbytes)
    assert is_prime(p) and p.bit_length() == 63


def test_key_layout_is_fixed_then_negotiated_little_endian() -> None:
    key = aes_key(0x0123456701234567, 0x1122334455667788)
    assert key == bytes.fromhex("67452301674523018877665544332211")


def test_sealed_packet_layout_and_round_trip() -> None:
    cipher = PacketCipher(bytes(16), _fixed)
    sealed = cipher.seal(7, b"\x07")
    assert sealed[0] == 0x7E and len(sealed) == 1 + 16  # 1+4+1 data + 8 packing + 2 CRC
    opened = cipher.open(sealed)
    assert (opened.count, opened.data) == (7, b"\x07")
    long = cipher.seal(1, bytes(range(20)))
    assert len(long) == 1 + 32


def test_a_packet_under_another_key_or_tampered_does_not_open() -> None:
    sealed = PacketCipher(bytes(16), _fixed).seal(0, b"\xf0")
    with pytest.raises(CryptoError):
        PacketCipher(bytes(15) + b"\x01", _fixed).open(sealed)
    with pytest.raises(CryptoError):
        PacketCipher(bytes(16), _fixed).open(sealed[:-1] + bytes([sealed[-1] ^ 1]))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=80))
def test_opening_garbage_raises_only_crypto_error(garbage: bytes) -> None:
    with contextlib.suppress(CryptoError):
        PacketCipher(bytes(16), _fixed).open(b"\x7e" + garbage)
