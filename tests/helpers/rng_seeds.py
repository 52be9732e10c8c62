"""Deterministic stand-ins for the OS entropy source and the clock."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from rng.generator import Csprng, RngConfig


def shake_reader(seed: bytes) -> Callable[[int], bytes]:
    """A reproducible 'OS': successive reads are SHAKE-256 of the seed and a read counter."""
    reads = 0

    def read(n_bytes: int) -> bytes:
        nonlocal reads
        reads += 1
        return hashlib.shake_256(seed + reads.to_bytes(8, "big")).digest(n_bytes)

    return read


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def seeded_csprng(seed: bytes = b"tests", clock: FakeClock | None = None, **config: Any) -> Csprng:
    """The production generator on a reproducible entropy source (same seed, same stream)."""
    return Csprng(RngConfig(**config), entropy_read=shake_reader(seed), clock=clock or FakeClock())
