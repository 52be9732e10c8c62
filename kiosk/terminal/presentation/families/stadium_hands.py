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


def ranked_name(cards: Sequence[int], language: str) -> str:
    """A three-card hand with its ranks, as a dealer says it: ``"Pair of Jacks"``, ``"Three
    Sevens"``, ``"Straight, Queen high"``, ``"King high"``."""
    value = poker3.value3(cards)
    category = poker3.category3(value)
    top = RANKS[(value >> 8) & 0xF]
    if category == poker3.HIGH_CARD:
        return text(language, "high_card", rank=text(language, f"rank_{top}"))
    plural = text(language, f"ranks_{top}")
    if category == poker3.PAIR:
        return text(language, "pair_of", ranks=plural)
    if category == poker3.THREE_OF_A_KIND:
        return text(language, "three_of", ranks=plural)
    name = game_text(language, poker3.CATEGORY3_NAMES[category])
    return text(language, "hand_high", hand=name, rank=text(language, f"rank_{top}"))


def showdown_text(hand: Sequence[int], dealer: Sequence[int], language: str) -> str:
    """The seat's hand against the dealer's, in words: ``"Pair of Jacks beats Pair of
    Sevens"``, ``"King high beats Queen high"`` (the dealer's hand first when it wins), a tie
    ``"Pair of Jacks ties Pair of Jacks"``; a win on the side card says so."""
    mine, theirs = poker3.value3(hand), poker3.value3(dealer)
    mine_text, theirs_text = ranked_name(hand, language), ranked_name(dealer, language)
    if mine == theirs:
        return text(language, "ties", hand=mine_text, other=_mid_sentence(theirs_text, language))
    winner, loser = (mine_text, theirs_text) if mine > theirs else (theirs_text, mine_text)
    key = "beats_kicker" if winner == loser else "beats"
    return text(language, key, winner=winner, loser=_mid_sentence(loser, language))


def _mid_sentence(words: str, language: str) -> str:
    """A hand's name inside a Spanish sentence starts in lower case ("gana a pareja de...")."""
    return words[:1].lower() + words[1:] if language == "es" else words
