"""Unbiased integers in ``[0, n)`` from uniformly random bytes, by rejection sampling.

For ``n >= 2`` let ``k = (n - 1).bit_length()`` (so ``2**(k-1) < n <= 2**k``).  A draw reads
``ceil(k / 8)`` bytes, keeps their low ``k`` bits (``raw & (2**k - 1)``) and accepts the value
when it is below ``n``; otherwise it draws again.  Every ``k``-bit value arises from exactly
``2**(8 * ceil(k/8) - k)`` byte strings, and each accepted value is returned as is, so each
result in ``[0, n)`` has the same probability; a draw is accepted with probability
``n / 2**k > 1/2``.  ``n == 1`` needs no bytes.  No modulo reduction, no floating point.
``tests/rng/test_scaling.py`` proves this by feeding every possible byte string for widths of
one and two bytes.

:class:`~rng.generator.Csprng` applies the same rule inline for bounds of 2..256 (one byte per
draw, mask :data:`BYTE_MASKS` ``[n]``) for speed; the tests run that path exhaustively too.
"""

from __future__ import annotations

from collections.abc import Callable

#: ``BYTE_MASKS[n]`` is the mask ``2**k - 1``, ``k = (n - 1).bit_length()``, for ``n`` in 1..256.
BYTE_MASKS: tuple[int, ...] = (0, *((1 << (n - 1).bit_length()) - 1 for n in range(1, 257)))


def plan(n: int) -> tuple[int, int]:
    """``(bytes per draw, mask)`` for drawing below ``n``; ``(0, 0)`` when ``n == 1``."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"the bound must be an int, not {type(n).__name__}")
    if n < 1:
        raise ValueError(f"the bound must be at least 1, not {n}")
    k = (n - 1).bit_length()
    return (k + 7) >> 3, (1 << k) - 1


def accept(raw: bytes, n: int, mask: int) -> int | None:
    """The value ``raw`` stands for below ``n``, or ``None`` when it is rejected."""
    value = int.from_bytes(raw, "big") & mask
    return value if value < n else None


def randbelow(n: int, take: Callable[[int], bytes]) -> int:
    """A uniform integer in ``[0, n)``; ``take(m)`` returns the next ``m`` random bytes."""
    n_bytes, mask = plan(n)
    if n_bytes == 0:
        return 0
    while True:
        value = accept(take(n_bytes), n, mask)
        if value is not None:
            return value
