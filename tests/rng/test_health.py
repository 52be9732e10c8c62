"""SP 800-90B health tests: cutoffs from the formulas, and the tests' exact behaviour."""

from __future__ import annotations

import csv
import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rng.errors import HealthTestFailure
from rng.health import (
    AdaptiveProportionTest,
    Cutoffs,
    HealthTests,
    RepetitionCountTest,
    apt_cutoff,
    rct_cutoff,
)
from tests.rng.vectors import data_file


def csv_rows() -> list[dict[str, str]]:
    with data_file("sp800_90b_health_cutoffs.csv").open() as handle:
        return list(csv.DictReader(handle))


def test_derived_cutoffs_match_every_row_of_the_shared_table():
    rows = csv_rows()
    assert len(rows) == 20
    for row in rows:
        h = Fraction(row["H_bits_per_sample"])
        alpha_log2 = int(row["alpha"].removeprefix("2^-"))
        assert rct_cutoff(h, alpha_log2) == int(row["RCT_cutoff_C"]), row
        assert apt_cutoff(h, alpha_log2, 512) == int(row["APT_cutoff_W512_nonbinary"]), row
        if row["APT_cutoff_W1024_binary"]:
            assert apt_cutoff(h, alpha_log2, 1024) == int(row["APT_cutoff_W1024_binary"]), row


def test_the_production_cutoffs_are_those_for_4_bits_at_alpha_2_to_the_minus_30():
    cutoffs = Cutoffs.derive(Fraction(4), 30)
    assert (cutoffs.rct, cutoffs.apt, cutoffs.apt_window) == (9, 71, 512)
    assert Cutoffs.derive(Fraction(1), 30, binary=True).apt_window == 1024


def test_apt_cutoff_is_the_critical_binomial_value_for_a_small_exact_case():
    # W = 4, p = 1/2, alpha = 2**-20: P(X > 3) = 1/16 > alpha, P(X > 4) = 0, so k = 4.
    assert apt_cutoff(Fraction(1), 20, 4) == 5
    # W = 40, p = 1/256: P(X >= 4) ~ 1.9e-5 > 2**-20 ~ 9.5e-7 >= P(X >= 5) ~ 5.3e-7 -> k = 4.
    assert apt_cutoff(Fraction(8), 20, 40) == 5


@pytest.mark.parametrize(
    ("h", "alpha_log2"),
    [(Fraction(0), 30), (Fraction(9), 30), (Fraction(4), 19), (Fraction(4), 41)],
)
def test_claims_outside_the_standard_are_refused(h, alpha_log2):
    with pytest.raises(ValueError, match=r"min-entropy|alpha"):
        rct_cutoff(h, alpha_log2)


def test_rct_trips_exactly_at_its_cutoff_even_across_calls():
    test = RepetitionCountTest(4)
    test.feed(b"\x07\x07")
    test.feed(b"\x07")  # three in a row: still fine
    with pytest.raises(HealthTestFailure, match="repeated 4 times in a row"):
        test.feed(b"\x07")


def test_rct_counts_restart_on_a_new_value():
    test = RepetitionCountTest(3)
    test.feed(b"\x01\x01\x02\x02\x01\x01\x02")


def test_apt_counts_the_first_sample_of_each_window():
    test = AdaptiveProportionTest(cutoff=3, window=6)
    test.feed(bytes([5, 1, 5, 2, 3, 4]))  # 5 occurs twice in window 1
    test.feed(bytes([1, 5, 5, 1]))  # window 2 starts with 1; 1 occurs twice so far
    with pytest.raises(HealthTestFailure, match="occurred 3 times in a window of 6"):
        test.feed(bytes([1]))  # sample 5 of window 2: third 1


def test_apt_window_boundary_resets_the_count():
    test = AdaptiveProportionTest(cutoff=3, window=4)
    test.feed(bytes([9, 9, 0, 1]))  # two 9s, window ends
    test.feed(bytes([9, 0, 1, 2]))  # new window starts at 9 with count 1


def reference_rct(samples: bytes, cutoff: int) -> bool:
    """Literal transcription of SP 800-90B §4.4.1: True when it signals a failure."""
    if not samples:
        return False
    a, b = samples[0], 1
    for x in samples[1:]:
        if x == a:
            b += 1
            if b >= cutoff:
                return True
        else:
            a, b = x, 1
    return False


def reference_apt(samples: bytes, cutoff: int, window: int) -> bool:
    """Literal transcription of SP 800-90B §4.4.2: True when it signals a failure."""
    for start in range(0, len(samples), window):
        chunk = samples[start : start + window]
        a, b = chunk[0], 1
        for x in chunk[1:]:
            if x == a:
                b += 1
                if b >= cutoff:
                    return True
    return False


def fails(test: RepetitionCountTest | AdaptiveProportionTest, chunks: list[bytes]) -> bool:
    try:
        for chunk in chunks:
            test.feed(chunk)
    except HealthTestFailure:
        return True
    return False


def split(samples: bytes, cuts: list[int]) -> list[bytes]:
    bounds = [0, *sorted(cuts), len(samples)]
    return [samples[i:j] for i, j in itertools.pairwise(bounds)]


small_samples = st.binary(min_size=1, max_size=200).map(lambda b: bytes(x % 3 for x in b))


@given(small_samples, st.integers(2, 6), st.lists(st.integers(0, 200), max_size=4))
def test_rct_agrees_with_the_standard_however_the_stream_is_split(samples, cutoff, cuts):
    expected = reference_rct(samples, cutoff)
    assert fails(RepetitionCountTest(cutoff), split(samples, cuts)) == expected


@given(small_samples, st.integers(2, 8), st.integers(8, 16), st.lists(st.integers(0, 200)))
def test_apt_agrees_with_the_standard_however_the_stream_is_split(samples, cutoff, window, cuts):
    expected = reference_apt(samples, cutoff, window)
    assert fails(AdaptiveProportionTest(cutoff, window), split(samples, cuts)) == expected


def test_both_tests_run_on_the_same_stream():
    tests = HealthTests(Cutoffs.derive(Fraction(4), 30))
    tests.feed(bytes(range(256)) * 4)
    with pytest.raises(HealthTestFailure, match="repetition count"):
        tests.feed(bytes(9))


def test_invalid_cutoffs_are_refused():
    with pytest.raises(ValueError, match="RCT cutoff"):
        RepetitionCountTest(1)
    with pytest.raises(ValueError, match="APT cutoff"):
        AdaptiveProportionTest(600, 512)
    with pytest.raises(ValueError, match="window"):
        apt_cutoff(Fraction(4), 30, 1)
