"""The OS entropy source: start-up test, sizes of entropy inputs, sticky failure."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from rng.entropy import STARTUP_SAMPLES, OsEntropySource, read_os_random
from rng.errors import HealthTestFailure
from rng.health import Cutoffs
from tests.helpers.rng_seeds import shake_reader


class Recorder:
    """A source wrapper that logs every read and can be made to misbehave."""

    def __init__(self) -> None:
        self.reads: list[int] = []
        self.inner = shake_reader(b"entropy")
        self.stuck = False
        self.short = False
        self.broken = False

    def __call__(self, n_bytes: int) -> bytes:
        self.reads.append(n_bytes)
        if self.broken:
            raise OSError("device gone")
        if self.stuck:
            return bytes(n_bytes)
        return self.inner(n_bytes - self.short)


def test_the_os_is_read_in_full_and_never_repeats():
    assert len(read_os_random(5000)) == 5000
    assert read_os_random(32) != read_os_random(32)


def test_start_up_reads_1024_samples_then_inputs_are_sized_by_the_claim():
    read = Recorder()
    source = OsEntropySource(read=read)
    assert read.reads == [STARTUP_SAMPLES]
    assert len(source.get_entropy(256)) == 64  # 256 bits at 4 bits per byte
    assert len(source.get_entropy(128)) == 32
    assert source.failure is None
    eight = OsEntropySource(Cutoffs.derive(Fraction(8), 30), read=Recorder())
    assert len(eight.get_entropy(256)) == 32
    half = OsEntropySource(Cutoffs.derive(Fraction(7, 2), 30), read=Recorder())
    assert half.bytes_for(256) == 74  # ceil(256 / 3.5)


def test_a_stuck_source_fails_the_start_up_test():
    read = Recorder()
    read.stuck = True
    with pytest.raises(HealthTestFailure, match="repetition count"):
        OsEntropySource(read=read)


def test_a_failure_is_permanent_and_reads_nothing_more():
    read = Recorder()
    source = OsEntropySource(read=read)
    read.stuck = True
    with pytest.raises(HealthTestFailure, match="repetition count test"):
        source.get_entropy(256)
    read.stuck = False
    reads = len(read.reads)
    with pytest.raises(HealthTestFailure, match="repetition count test"):
        source.get_entropy(256)
    assert len(read.reads) == reads
    assert source.failure is not None
    assert "failed" in repr(source)


def test_short_reads_and_os_errors_are_health_failures():
    read = Recorder()
    source = OsEntropySource(read=read)
    read.short = True
    with pytest.raises(HealthTestFailure, match="returned 63 of 64 bytes"):
        source.get_entropy(256)
    read = Recorder()
    source = OsEntropySource(read=read)
    read.broken = True
    with pytest.raises(HealthTestFailure, match="unreadable: device gone"):
        source.get_entropy(256)


def test_the_source_cannot_be_pickled():
    with pytest.raises(TypeError):
        pickle.dumps(OsEntropySource(read=Recorder()))
