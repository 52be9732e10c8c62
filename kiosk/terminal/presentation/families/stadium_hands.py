"""Stadium's three-card hands in words (below ``stadium`` and ``stadium_help``: decision 0050)."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.kernel.cards import RANKS, rank
from kiosk.kernel.games import poker3
from kiosk.terminal.presentation.i18n import game_text, text


def three_card_name(cards: Sequence[int], language: str) -> str:
    """The category of a three-card hand, e.g. ``Pair``; a high-card hand by its top card
    (``King high``), which is what decides whether the dealer qualifies."""
    category = poker3.category3(poker3.value3(cards))
    if category == 0:
        top = max(rank(code) for code in cards)
        return text(language, "high_card", rank=text(language, f"rank_{RANKS[top]}"))
    return game_text(language, poker3.CATEGORY3_NAMES[category])


def dealer_qualifies(cards: Sequence[int]) -> bool:
    """Whether the dealer's three cards qualify (Queen high or better)."""
    return poker3.dealer_qualifies(poker3.value3(cards))
