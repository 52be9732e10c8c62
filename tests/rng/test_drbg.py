"""HMAC_DRBG (SHA-256) against all 720 NIST CAVP vectors, and the SP 800-90A limits."""

from __future__ import annotations

import copy
import hmac
import pickle
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rng import drbg
from rng.drbg import DrbgError, HmacDrbg, ReseedRequiredError
from tests.rng.vectors import VECTOR_SETS, DrbgVector, hmac_sha256_vectors

ALL_VECTORS = {name: hmac_sha256_vectors(name) for name in VECTOR_SETS}


def run_vector(vector: DrbgVector) -> bytes:
    """Play one CAVP record through HmacDrbg exactly as the Readme files describe."""
    n_bytes = vector.returned_bits_len // 8
    pr_inputs: Iterator[bytes] = iter(vector.entropy_inputs_pr)
    generator = HmacDrbg(
        vector.entropy_input,
        vector.nonce,
        vector.personalization,
        prediction_resistance=vector.prediction_resistance,
        entropy_source=(lambda bits: next(pr_inputs)) if vector.prediction_resistance else None,
    )
    if vector.entropy_input_reseed is not None:
        assert vector.additional_input_reseed is not None
        generator.reseed(vector.entropy_input_reseed, vector.additional_input_reseed)
    generator.generate(n_bytes, vector.additional_inputs[0])
    return generator.generate(n_bytes, vector.additional_inputs[1])


def test_the_vector_files_hold_720_sha256_records_of_every_kind():
    assert {name: len(vectors) for name, vectors in ALL_VECTORS.items()} == {
        "no_reseed": 240,
        "pr_false": 240,
        "pr_true": 240,
    }
    assert all(v.entropy_input_reseed is not None for v in ALL_VECTORS["pr_false"])
    assert all(len(v.entropy_inputs_pr) == 2 for v in ALL_VECTORS["pr_true"])
    assert not any(v.prediction_resistance for v in ALL_VECTORS["no_reseed"])
    # personalization strings and additional inputs, empty and not, are both covered
    for vectors in ALL_VECTORS.values():
        assert {bool(v.personalization) for v in vectors} == {False, True}
        assert {bool(v.additional_inputs[1]) for v in vectors} == {False, True}


@pytest.mark.parametrize("vector_set", VECTOR_SETS)
def test_every_sha256_vector_is_reproduced(vector_set):
    failures = [v.name for v in ALL_VECTORS[vector_set] if run_vector(v) != v.returned_bits]
    assert failures == []


def test_a_one_bit_change_in_the_update_function_fails_the_vectors(monkeypatch):
    """The known-answer check has teeth: a subtly wrong update passes no vector."""
    original = HmacDrbg._update

    def broken(self: HmacDrbg, provided_data: bytes) -> None:
        original(
            self, provided_data[:-1] + bytes([provided_data[-1] ^ 1]) if provided_data else b""
        )

    monkeypatch.setattr(HmacDrbg, "_update", broken)
    vectors = ALL_VECTORS["pr_false"]
    assert sum(run_vector(v) == v.returned_bits for v in vectors) == 0


@given(st.binary(max_size=200), st.binary(max_size=300))
def test_the_precomputed_hmac_equals_the_standard_library(key, message):
    assert drbg._HmacSha256(key).mac(message) == hmac.digest(key, message, "sha256")


def make(**kwargs: object) -> HmacDrbg:
    return HmacDrbg(bytes(range(32)), bytes(range(16)), **kwargs)  # type: ignore[arg-type]


def test_output_length_matches_the_request_for_every_residue():
    generator = make()
    for n in (0, 1, 31, 32, 33, 64, 65, 1000, drbg.MAX_BYTES_PER_REQUEST):
        assert len(generator.generate(n)) == n


def test_two_requests_give_different_output_and_advance_the_counter():
    generator = make()
    first = generator.generate(32)
    assert generator.generate(32) != first
    assert generator.reseed_counter == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((bytes(31), bytes(16)), "entropy input is 31 bytes"),
        ((bytes(32), bytes(15)), "nonce is 15 bytes"),
        (("x" * 32, bytes(16)), "entropy input must be bytes"),
    ],
)
def test_instantiate_refuses_short_or_wrong_inputs(args, message):
    with pytest.raises(DrbgError, match=message):
        HmacDrbg(*args)


def test_lengths_beyond_2_to_the_35_bits_are_refused_without_allocating(monkeypatch):
    monkeypatch.setattr(drbg, "MAX_LENGTH_BYTES", 40)
    generator = make()
    with pytest.raises(DrbgError, match="additional input is 41 bytes"):
        generator.generate(16, bytes(41))
    with pytest.raises(DrbgError, match="personalization string is 41 bytes"):
        HmacDrbg(bytes(32), bytes(16), bytes(41))
    with pytest.raises(DrbgError, match="entropy input is 41 bytes"):
        generator.reseed(bytes(41))


@pytest.mark.parametrize("n", [-1, drbg.MAX_BYTES_PER_REQUEST + 1])
def test_requests_outside_0_to_65536_bytes_are_refused_and_change_nothing(n):
    reference, generator = make(), make()
    with pytest.raises(DrbgError, match="bytes per request"):
        generator.generate(n)
    assert generator.reseed_counter == 1
    assert generator.generate(32) == reference.generate(32)


@pytest.mark.parametrize("interval", [0, drbg.MAX_RESEED_INTERVAL + 1])
def test_reseed_interval_beyond_the_standard_is_refused(interval):
    with pytest.raises(DrbgError, match="reseed interval"):
        make(reseed_interval=interval)


def test_reseed_required_after_the_interval_without_a_source():
    generator = make(reseed_interval=3)
    for _ in range(3):
        generator.generate(8)
    with pytest.raises(ReseedRequiredError, match="reach the reseed interval 3"):
        generator.generate(8)
    generator.reseed(bytes(32))
    assert generator.reseed_counter == 1
    generator.generate(8)


def test_with_a_source_the_interval_triggers_an_automatic_reseed():
    requests: list[int] = []

    def source(bits: int) -> bytes:
        requests.append(bits)
        return bytes(32)

    generator = make(reseed_interval=2, entropy_source=source)
    for _ in range(5):
        generator.generate(8)
    assert requests == [256, 256]


def test_prediction_resistance_reseeds_on_every_request_and_needs_a_source():
    with pytest.raises(DrbgError, match="needs an entropy source"):
        make(prediction_resistance=True)
    calls: list[int] = []

    def source(bits: int) -> bytes:
        calls.append(bits)
        return bytes(32)

    generator = make(prediction_resistance=True, entropy_source=source)
    generator.generate(1)
    generator.generate(1)
    assert len(calls) == 2


def test_the_state_is_never_shown_pickled_or_copied():
    generator = make()
    text = repr(generator)
    assert "reseed_counter=1" in text
    assert not hasattr(generator, "__dict__")
    for secret in (generator._v, generator._mac._inner.digest()):
        assert secret.hex() not in text
    for action in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="never be serialised"):
            action(generator)
    with pytest.raises(TypeError):
        pickle.dumps(generator._mac)
