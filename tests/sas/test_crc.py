"""The SAS CRC against published check values and a bit-at-a-time reference."""

from __future__ import annotations

import random

import pytest

from kiosk.terminal.sas.crc import TEST_VECTORS, crc16, crc_bytes, crc_ok, with_crc


def _bitwise(data: bytes, register: int = 0) -> int:
    for byte in data:
        register ^= byte
        for _ in range(8):
            register = (register >> 1) ^ 0x8408 if register & 1 else register >> 1
    return register


@pytest.mark.parametrize(("message", "seed", "expected"), TEST_VECTORS)
def test_vectors(message: bytes, seed: int, expected: int) -> None:
    assert crc16(message, seed) == expected
    assert _bitwise(message, seed) == expected


def test_table_matches_bitwise_reference_on_random_messages_and_seeds() -> None:
    rng = random.Random(16)
    for _ in range(300):
        message = rng.randbytes(rng.randrange(0, 40))
        seed = rng.randrange(0, 0x10000)
        assert crc16(message, seed) == _bitwise(message, seed)


def test_on_the_line_low_byte_first_and_checked() -> None:
    assert with_crc(b"\x01\x01") == bytes.fromhex("01015108")
    assert with_crc(b"\x01\x02") == bytes.fromhex("0102CA3A")
    assert crc_bytes(b"123456789") == b"\x89\x21"
    assert crc_ok(bytes.fromhex("01015108"))
    assert not crc_ok(bytes.fromhex("01015180"))
    assert not crc_ok(b"\x01")


def test_seed_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="16-bit"):
        crc16(b"x", 0x10000)
