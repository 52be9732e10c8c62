"""Money typed by a person, and the screen's amounts (from :mod:`kiosk.kernel.money_text`)."""

from __future__ import annotations

import re

from kiosk.kernel.money_text import dollars, signed_dollars

__all__ = ["dollars", "parse_dollars", "signed_dollars"]

_DOLLARS = re.compile(r"^\$?(\d{1,9})(?:\.(\d{1,2}))?$")


def parse_dollars(text: str) -> int:
    """Cents of an amount typed in dollars: ``"20"``, ``"$5"``, ``"2.5"``, ``"0.25"``.

    Raises ValueError for anything else (negative, more than two decimals, not a number).
    """
    match = _DOLLARS.match(text.strip().replace(",", ""))
    if match is None:
        raise ValueError(f"not an amount in dollars: {text!r} (e.g. 5 or 2.50)")
    return int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))
