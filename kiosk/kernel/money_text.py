"""Money to text, written once: cents as dollars and cents (``$1,234.56``, ``-$2.50``).

Every place that shows an amount (the player's screen, the text UI, the service menu, the
host's command line, the floor dashboard, the meter reconciliation) uses these functions
(decision 0045).  Amounts read the same in every language of
:mod:`kiosk.terminal.presentation.i18n`.
"""

from __future__ import annotations

__all__ = ["dollars", "signed_dollars"]


def dollars(cents: int) -> str:
    """``123456`` -> ``"$1,234.56"``; negative amounts as ``"-$2.50"``, never ``"$-3.50"``."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def signed_dollars(cents: int) -> str:
    """A net result with its sign: ``"+$5.00"``, ``"-$5.00"``, ``"$0.00"``."""
    return f"+{dollars(cents)}" if cents > 0 else dollars(cents)
