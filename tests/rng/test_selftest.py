"""Power-up self-tests: traceable known answers, and failures that are detected."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from rng import selftest
from rng.errors import SelfTestFailure
from rng.health import AdaptiveProportionTest, Cutoffs, RepetitionCountTest
from tests.rng.vectors import hmac_sha256_vectors


@pytest.mark.parametrize("answer", selftest.KNOWN_ANSWERS, ids=lambda a: a.source)
def test_each_embedded_known_answer_is_a_record_of_the_cavp_files(answer):
    vector_set = answer.source.split("/")[0]
    block = answer.source.split("block ")[1].split()[0]
    matches = [
        v
        for v in hmac_sha256_vectors(vector_set)
        if v.name.startswith(f"{vector_set}/block {block}/COUNT=0 ")
    ]
    assert len(matches) == 1
    vector = matches[0]
    assert bytes.fromhex(answer.entropy_input) == vector.entropy_input
    assert bytes.fromhex(answer.nonce) == vector.nonce
    assert bytes.fromhex(answer.personalization) == vector.personalization
    assert tuple(map(bytes.fromhex, answer.additional_inputs)) == vector.additional_inputs
    assert tuple(map(bytes.fromhex, answer.entropy_inputs_pr)) == vector.entropy_inputs_pr
    reseed = (vector.entropy_input_reseed, vector.additional_input_reseed)
    assert (tuple(map(bytes.fromhex, answer.reseed)) if answer.reseed else (None, None)) == reseed
    assert bytes.fromhex(answer.returned_bits) == vector.returned_bits


def test_the_known_answers_cover_reseed_and_prediction_resistance():
    assert any(a.reseed for a in selftest.KNOWN_ANSWERS)
    assert any(a.entropy_inputs_pr for a in selftest.KNOWN_ANSWERS)
    assert all(a.personalization and all(a.additional_inputs) for a in selftest.KNOWN_ANSWERS)


def test_the_self_tests_pass_for_every_supported_claim():
    for h in ("1/2", "1", "2", "4", "7.5", "8"):
        for alpha_log2 in (20, 30, 40):
            selftest.run_power_up_tests(Cutoffs.derive(Fraction(h), alpha_log2))


def test_a_wrong_expected_answer_is_a_self_test_failure():
    answer = selftest.KNOWN_ANSWERS[0]
    flipped = ("0" if answer.returned_bits[0] != "0" else "1") + answer.returned_bits[1:]
    wrong = dataclasses.replace(answer, returned_bits=flipped)
    with pytest.raises(SelfTestFailure, match="wrong output"):
        selftest.check_drbg((wrong,))


def test_a_drbg_that_raises_is_a_self_test_failure():
    broken = dataclasses.replace(selftest.KNOWN_ANSWERS[1], entropy_input="00")
    with pytest.raises(SelfTestFailure, match="entropy input is 1 bytes"):
        selftest.check_drbg((broken,))


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (RepetitionCountTest, "repetition count test misses"),
        (AdaptiveProportionTest, "adaptive proportion test misses"),
    ],
)
def test_a_health_test_that_never_fires_is_caught(monkeypatch, cls, message):
    monkeypatch.setattr(cls, "feed", lambda self, samples: None)
    with pytest.raises(SelfTestFailure, match=message):
        selftest.check_health_tests(Cutoffs.derive(Fraction(4), 30))


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (RepetitionCountTest, "repetition count test trips below"),
        (AdaptiveProportionTest, "adaptive proportion test trips below"),
    ],
)
def test_a_health_test_that_trips_one_sample_early_is_caught(monkeypatch, cls, message):
    original = cls.__init__

    def early(self, cutoff, *args):
        original(self, cutoff - 1, *args)

    monkeypatch.setattr(cls, "__init__", early)
    with pytest.raises(SelfTestFailure, match=message):
        selftest.check_health_tests(Cutoffs.derive(Fraction(4), 30))


def test_cutoffs_that_reject_a_balanced_stream_are_caught():
    good = Cutoffs.derive(Fraction(4), 30)
    with pytest.raises(SelfTestFailure, match="balanced"):
        selftest.check_health_tests(dataclasses.replace(good, apt=2))
