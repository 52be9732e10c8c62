"""The production generator: stream, reseed policy, fork safety, error state, secrecy."""

from __future__ import annotations

import copy
import os
import pickle
import threading

import pytest

from rng import selftest
from rng.drbg import DrbgError, HmacDrbg
from rng.errors import RngFailure
from rng.generator import Csprng, RngConfig
from tests.helpers.rng_seeds import FakeClock, seeded_csprng, shake_reader


def test_same_entropy_same_stream_different_entropy_different_stream():
    assert seeded_csprng(b"a").random_bytes(100) == seeded_csprng(b"a").random_bytes(100)
    assert seeded_csprng(b"a").random_bytes(100) != seeded_csprng(b"b").random_bytes(100)


def test_two_os_seeded_generators_never_share_output():
    assert Csprng().random_bytes(64) != Csprng().random_bytes(64)


def test_the_clock_is_not_seed_material():
    late = FakeClock()
    late.now = 123456.0
    assert seeded_csprng(clock=late).random_bytes(64) == seeded_csprng().random_bytes(64)


def test_requests_up_to_the_buffer_size_read_one_contiguous_stream():
    generator = seeded_csprng(buffer_bytes=100)
    whole = b"".join(generator.random_bytes(100) for _ in range(10))
    pieces = seeded_csprng(buffer_bytes=100)
    sizes = [1, 99, 0, 100, 37, 63, 50, 50, 100, 99, 2, 99, 100, 100, 100]
    assert sum(sizes) == 1000
    assert b"".join(pieces.random_bytes(n) for n in sizes) == whole
    assert generator.status().requests_since_reseed == 10


def test_large_requests_are_served_in_drbg_requests_of_at_most_64_kib():
    generator = seeded_csprng()
    data = generator.random_bytes(200_000)
    assert len(data) == 200_000
    # 3 x 65,536 + 3,392 bytes, and the buffer refilled (kept for the next call)
    assert generator.status().requests_since_reseed == 5
    blocks = {data[i : i + 32] for i in range(0, len(data), 32)}
    assert len(blocks) == 200_000 // 32  # no 32-byte block repeats


def test_draws_read_the_same_stream_as_collection():
    stream = seeded_csprng().random_bytes(4000)
    draws = seeded_csprng()
    expected = [b & 63 for b in stream if b & 63 < 52][:100]
    assert [draws.randbelow(52) for _ in range(100)] == expected


def test_randbelow_covers_large_and_trivial_bounds():
    generator = seeded_csprng()
    assert generator.randbelow(1) == 0
    big = 10**40
    values = {generator.randbelow(big) for _ in range(50)}
    assert all(0 <= v < big for v in values)
    assert len(values) == 50
    with pytest.raises(ValueError, match="at least 1"):
        generator.randbelow(0)
    with pytest.raises(ValueError, match="non-negative"):
        generator.random_bytes(-1)


def test_shuffle_is_a_permutation():
    items = list(range(52))
    seeded_csprng().shuffle(items)
    assert sorted(items) == list(range(52))
    assert items != list(range(52))


def test_reseed_after_the_request_interval():
    generator = seeded_csprng(buffer_bytes=32, reseed_interval=10)
    for _ in range(10):
        generator.random_bytes(32)
    assert generator.status().reseeds == 0
    assert generator.status().requests_since_reseed == 10
    generator.random_bytes(1)
    assert generator.status().reseeds == 1
    assert generator.status().requests_since_reseed == 1


def test_reseed_on_the_timer_and_on_demand():
    clock = FakeClock()
    generator = seeded_csprng(clock=clock, buffer_bytes=32, reseed_seconds=60)
    generator.random_bytes(33)
    clock.now += 59.9
    generator.random_bytes(32)
    assert generator.status().reseeds == 0
    clock.now += 0.1
    generator.random_bytes(32)
    assert generator.status().reseeds == 1
    assert generator.status().seconds_since_reseed == 0
    generator.reseed(b"operator")
    assert generator.status().reseeds == 2


def test_a_reseed_discards_buffered_output():
    plain = seeded_csprng()
    reseeded = seeded_csprng()
    first = plain.random_bytes(10)
    assert reseeded.random_bytes(10) == first
    reseeded.reseed()
    assert reseeded.random_bytes(10) != plain.random_bytes(10)


def test_prediction_resistance_reseeds_before_every_request():
    reads: list[int] = []
    inner = shake_reader(b"pr")

    def read(n: int) -> bytes:
        reads.append(n)
        return inner(n)

    generator = Csprng(RngConfig(prediction_resistance=True, buffer_bytes=32), entropy_read=read)
    before = len(reads)
    for _ in range(5):
        generator.random_bytes(32)
    assert reads[before:] == [64] * 5


def test_initial_seed_is_64_bytes_of_entropy_and_a_32_byte_nonce():
    reads: list[int] = []
    inner = shake_reader(b"sizes")

    def read(n: int) -> bytes:
        reads.append(n)
        return inner(n)

    Csprng(entropy_read=read)
    assert reads == [1024, 64, 32]


def failing_source(after: int):
    """An entropy source that gets stuck after `after` reads."""
    inner = shake_reader(b"fail")
    reads = 0

    def read(n: int) -> bytes:
        nonlocal reads
        reads += 1
        return bytes(n) if reads > after else inner(n)

    return read


def test_a_health_failure_at_reseed_is_a_permanent_error_state():
    generator = Csprng(RngConfig(buffer_bytes=32), entropy_read=failing_source(3))
    generator.random_bytes(100)
    with pytest.raises(RngFailure, match="reseed: repetition count test"):
        generator.reseed()
    for action in (
        lambda: generator.randbelow(52),
        lambda: generator.shuffle([1, 2]),
        lambda: generator.random_bytes(1),
        lambda: generator.cycle(1),
        generator.reseed,
    ):
        with pytest.raises(RngFailure, match="repetition count test"):
            action()
    status = generator.status()
    assert not status.healthy
    assert not generator.healthy
    assert "FAILED" in repr(generator)
    assert generator._drbg is None
    assert generator._buf == b""


def test_a_stuck_source_at_power_up_leaves_the_generator_failed():
    generator = Csprng(entropy_read=failing_source(0))
    assert generator.failure is not None
    assert generator.failure.startswith("power-up: repetition count test")
    with pytest.raises(RngFailure):
        generator.randbelow(2)


def test_a_failing_known_answer_test_leaves_the_generator_failed(monkeypatch):
    answer = selftest.KNOWN_ANSWERS[0]
    wrong = type(answer)(**{**answer.__dict__, "returned_bits": "00" * 128})
    monkeypatch.setattr(selftest, "KNOWN_ANSWERS", (wrong,))
    monkeypatch.setattr(selftest.check_drbg, "__defaults__", ((wrong,),))
    generator = Csprng()
    assert generator.failure is not None
    assert "known-answer" in generator.failure
    with pytest.raises(RngFailure, match="known-answer"):
        generator.shuffle([1, 2, 3])


def test_a_drbg_error_during_generate_is_an_error_state(monkeypatch):
    generator = seeded_csprng(buffer_bytes=32)

    def broken(self: object, n_bytes: int, additional_input: bytes = b"") -> bytes:
        raise DrbgError("simulated fault")

    monkeypatch.setattr(HmacDrbg, "generate", broken)
    with pytest.raises(RngFailure, match="generate: simulated fault"):
        generator.random_bytes(100)
    assert generator.failure == "generate: simulated fault"


def test_a_forked_child_reseeds_and_never_repeats_the_parent():
    generator = Csprng()
    generator.random_bytes(10)  # the buffer now holds output the parent has not used
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.write(write_end, generator.random_bytes(64) + bytes([generator.status().reseeds]))
        finally:
            os._exit(0)
    os.close(write_end)
    child = b""
    while len(child) < 65:
        chunk = os.read(read_end, 65)
        if not chunk:
            break
        child += chunk
    os.close(read_end)
    os.waitpid(pid, 0)
    assert len(child) == 65
    assert child[64] == 1  # the child reseeded once
    assert child[:64] != generator.random_bytes(64)
    assert generator.status().reseeds == 0


def test_a_fork_outside_python_is_caught_by_the_pid_check(monkeypatch):
    generator = seeded_csprng()
    expected_without_fork = seeded_csprng().random_bytes(20)
    generator.random_bytes(10)
    monkeypatch.setattr(os, "getpid", lambda: 999_999_999)
    assert generator.random_bytes(10) != expected_without_fork[10:]
    assert generator.status().reseeds == 1


def test_the_state_is_never_shown_pickled_or_copied():
    generator = seeded_csprng()
    generator.random_bytes(1)
    text = repr(generator)
    assert text == "<Csprng HMAC_DRBG-SHA256 healthy reseeds=0>"
    assert generator._buf.hex()[:16] not in text
    for action in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="never be serialised"):
            action(generator)


def test_concurrent_callers_share_the_stream_without_overlap():
    generator = seeded_csprng(buffer_bytes=64)
    chunks: list[bytes] = []

    def work() -> None:
        for _ in range(200):
            chunks.append(generator.random_bytes(7))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    reference = seeded_csprng(buffer_bytes=64)
    pieces = {reference.random_bytes(7) for _ in range(800)}
    assert set(chunks) == pieces
    assert generator.status().bytes_out == 5600


@pytest.mark.parametrize(
    "bad",
    [
        {"buffer_bytes": 16},
        {"buffer_bytes": 65537},
        {"reseed_interval": 0},
        {"reseed_interval": 2**48 + 1},
        {"reseed_seconds": 0},
    ],
)
def test_bad_configurations_are_refused(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        RngConfig(**bad)


def test_cycle_discards_output_and_performs_a_due_reseed():
    clock = FakeClock()
    generator = seeded_csprng(clock=clock)
    reference = seeded_csprng().random_bytes(50)
    generator.cycle(20)
    assert generator.random_bytes(30) == reference[20:]
    clock.now += 601
    generator.cycle(1)
    assert generator.status().reseeds == 1
    with pytest.raises(ValueError, match=r"1\.\.4096"):
        generator.cycle(0)
