"""Validation numbers for cash-out vouchers issued by the terminal itself.

With an accounting host on line the host assigns validation numbers; standing alone the
terminal makes its own: 18 decimal digits from the certified RNG (unpredictable, so a voucher
cannot be forged by guessing the next number), never starting with 0 so they print and scan
as 18 digits.
"""

from __future__ import annotations

from collections.abc import Callable


class LocalValidationNumbers:
    """18-digit validation numbers from an unbiased ``randbelow``."""

    def __init__(self, randbelow: Callable[[int], int]) -> None:
        self._randbelow = randbelow

    def __call__(self) -> str:
        return str(10**17 + self._randbelow(9 * 10**17))
