"""Background cycling: random discards at random intervals, no thread needed."""

from __future__ import annotations

import time

import pytest

from rng.cycling import BackgroundCycler, CyclerThread
from rng.errors import RngFailure
from tests.helpers.rng_seeds import FakeClock, seeded_csprng


def test_a_step_discards_1_to_max_bytes_and_returns_a_delay_in_range():
    generator = seeded_csprng()
    cycler = BackgroundCycler(generator, min_interval=0.01, max_interval=0.02, max_discard=8)
    delays = []
    before = generator.status().bytes_out
    for _ in range(500):
        delays.append(cycler.step())
    assert cycler.steps == 500
    assert 500 <= cycler.bytes_discarded <= 8 * 500
    assert all(0.01 <= d <= 0.02 for d in delays)
    assert len(set(delays)) > 200  # microsecond resolution, drawn from the generator
    assert generator.status().bytes_out > before + cycler.bytes_discarded


def test_cycling_changes_what_the_next_round_receives():
    idle = seeded_csprng()
    busy = seeded_csprng()
    BackgroundCycler(busy).step()
    assert idle.random_bytes(32) != busy.random_bytes(32)


def test_paused_or_disabled_cyclers_discard_nothing():
    generator = seeded_csprng()
    cycler = BackgroundCycler(generator)
    cycler.pause()
    assert cycler.paused
    cycler.step()
    cycler.enabled = False
    cycler.resume()
    cycler.step()
    assert cycler.steps == 0
    cycler.enabled = True
    cycler.step()
    assert cycler.steps == 1


def test_a_step_performs_a_due_reseed():
    clock = FakeClock()
    generator = seeded_csprng(clock=clock)
    cycler = BackgroundCycler(generator)
    clock.now += 3600
    cycler.step()
    assert generator.status().reseeds == 1


def test_the_thread_helper_cycles_until_stopped():
    generator = seeded_csprng()
    thread = CyclerThread(BackgroundCycler(generator, min_interval=0.001, max_interval=0.002))
    thread.start()
    deadline = time.monotonic() + 5
    while thread.cycler.steps < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    thread.stop()
    assert not thread.is_alive()
    assert thread.cycler.steps >= 5
    assert thread.error is None


def test_the_thread_helper_keeps_a_failure_and_ends():
    generator = seeded_csprng()
    generator._fail("simulated health failure")
    thread = CyclerThread(BackgroundCycler(generator, min_interval=0.001, max_interval=0.001))
    thread.start()
    thread.join(5)
    assert isinstance(thread.error, RngFailure)
    assert not thread.is_alive()


def test_bad_settings_are_refused():
    generator = seeded_csprng()
    with pytest.raises(ValueError, match="intervals"):
        BackgroundCycler(generator, min_interval=0.05, max_interval=0.01)
    with pytest.raises(ValueError, match="max_discard"):
        BackgroundCycler(generator, max_discard=0)
