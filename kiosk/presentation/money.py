"""Money in text: cents as dollars and cents (``$1,234.56``) and dollars typed by a person."""

from __future__ import annotations

import re

_DOLLARS = re.compile(r"^\$?(\d{1,9})(?:\.(\d{1,2}))?$")


def dollars(cents: int) -> str:
    """``123456`` -> ``"$1,234.56"``; negative amounts as ``"-$5.00"``."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def signed_dollars(cents: int) -> str:
    """A net result with its sign: ``"+$5.00"``, ``"-$5.00"``, ``"$0.00"``."""
    return f"+{dollars(cents)}" if cents > 0 else dollars(cents)


def parse_dollars(text: str) -> int:
    """Cents of an amount typed in dollars: ``"20"``, ``"$5"``, ``"2.5"``, ``"0.25"``.

    Raises ValueError for anything else (negative, more than two decimals, not a number).
    """
    match = _DOLLARS.match(text.strip().replace(",", ""))
    if match is None:
        raise ValueError(f"not an amount in dollars: {text!r} (e.g. 5 or 2.50)")
    return int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))
