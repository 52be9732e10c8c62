"""Rejection sampling is exactly unbiased: every possible raw value is fed in."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rng import scaling
from tests.helpers.rng_seeds import seeded_csprng


def preimages(n: int, n_bytes: int) -> Counter[int | None]:
    """How many of the 256**n_bytes possible byte strings give each result (None: rejected)."""
    _, mask = scaling.plan(n)
    return Counter(
        scaling.accept(raw.to_bytes(n_bytes, "big"), n, mask) for raw in range(256**n_bytes)
    )


@pytest.mark.parametrize("n", range(2, 257))
def test_every_one_byte_bound_gives_each_result_from_equally_many_bytes(n):
    n_bytes, _mask = scaling.plan(n)
    assert n_bytes == 1
    counts = preimages(n, 1)
    k = (n - 1).bit_length()
    share = 2 ** (8 - k)  # byte values per k-bit value
    assert {counts[v] for v in range(n)} == {share}
    assert counts[None] == 256 - n * share
    assert counts[None] < 128  # each draw is accepted with probability > 1/2


@pytest.mark.parametrize("n", [257, 300, 1000, 4096, 4097, 32768, 32769, 50000, 65535, 65536])
def test_two_byte_bounds_give_each_result_from_equally_many_byte_pairs(n):
    assert scaling.plan(n)[0] == 2
    counts = preimages(n, 2)
    share = 2 ** (16 - (n - 1).bit_length())
    assert {counts[v] for v in range(n)} == {share}
    assert counts[None] == 65536 - n * share


def test_the_generator_fast_path_is_exhaustively_unbiased_too():
    """Feed Csprng's inlined one-byte path every byte value, for every bound 2..256."""
    generator = seeded_csprng()
    for n in range(2, 257):
        counts: Counter[int | None] = Counter()
        for byte in range(256):
            # the byte under test, then 0x00 (always accepted) in case it is rejected
            generator._buf, generator._pos = bytes([byte, 0]), 0
            value = generator._randbelow(n)
            counts[value if generator._pos == 1 else None] += 1
            assert value == (byte & scaling.BYTE_MASKS[n] if generator._pos == 1 else 0)
        assert counts == preimages(n, 1), n


def test_the_loop_redraws_after_a_rejection_and_reads_nothing_for_one():
    stream = iter([b"\xff", b"\xfe", b"\x33"])  # 63, 62 rejected for n = 52; 0x33 = 51 kept
    taken: list[int] = []

    def take(m: int) -> bytes:
        taken.append(m)
        return next(stream)

    assert scaling.randbelow(52, take) == 51
    assert taken == [1, 1, 1]
    assert scaling.randbelow(1, take) == 0
    assert taken == [1, 1, 1]


def test_large_bounds_read_whole_bytes_and_keep_the_low_bits():
    assert scaling.plan(2**64) == (8, 2**64 - 1)
    assert scaling.plan(2**64 + 1) == (9, 2**65 - 1)
    raw = bytes([0xFE]) + bytes(8)  # the high bits above bit 65 are masked away
    assert scaling.accept(raw, 2**64 + 1, 2**65 - 1) == 0


@pytest.mark.parametrize(
    ("n", "error"), [(0, ValueError), (-3, ValueError), (2.0, TypeError), (True, TypeError)]
)
def test_bad_bounds_are_refused(n, error):
    with pytest.raises(error, match="bound"):
        scaling.plan(n)


def test_byte_masks_follow_the_rule():
    for n in range(1, 257):
        assert scaling.BYTE_MASKS[n] == scaling.plan(n)[1]


@given(st.integers(1, 2**70), st.binary(min_size=9, max_size=9))
def test_accepted_values_are_always_below_the_bound(n, raw):
    n_bytes, mask = scaling.plan(n)
    value = scaling.accept(raw[:n_bytes], n, mask)
    assert value is None or 0 <= value < n


def test_small_bounds_are_exhaustive_over_pairs_of_draws():
    """Two consecutive draws below 3 (with rejections) are uniform over all 9 pairs."""
    counts: Counter[tuple[int, int]] = Counter()
    for a, b in product(range(4), repeat=2):  # every pair of 2-bit raw values
        first = scaling.accept(bytes([a]), 3, 3)
        second = scaling.accept(bytes([b]), 3, 3)
        if first is not None and second is not None:
            counts[first, second] += 1
    assert set(counts.values()) == {1}
    assert len(counts) == 9
