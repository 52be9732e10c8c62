"""Each game family's text part, by family id (docs/decisions/0015-game-families.md).

``turbokiosk play``, ``recall`` and the narration ask the :class:`TextFamily` of the game they
show (:func:`text_family`) for the lines that differ between families: the first deal, a
seat's hand, the shared second deal, the decision's name, the rules.  A family without a text
part of its own is told by :class:`TextFamily` itself, card by card.  The shipped families are
loaded on the first look-up; another family calls :func:`register`.
"""

from __future__ import annotations

import importlib

from kiosk.kernel.cards import names
from kiosk.kernel.games.base import DecisionOffer, GameRules
from kiosk.terminal.core.state import RoundState

#: the per-family modules of the shipped families
BUILTIN = ("kiosk.terminal.textui.families.turbo", "kiosk.terminal.textui.families.stadium")


class TextFamily:
    """A family's text part; this base tells any game plainly.

    ``game`` None is a game whose rules this software no longer ships (told by this base
    only).  ``rnd`` arguments are rounds (a recall record is read with
    :meth:`RoundState.from_dict`)."""

    id = ""

    def extra_label(self, game: GameRules | None, spot: str) -> str | None:
        """The name of a result line that is not a spot placed before the deal (None: none)."""
        return None

    def first_deal_lines(self, game: GameRules | None, rnd: RoundState) -> list[str]:
        """The shared cards of the first deal (the record holds some)."""
        return [f"First deal: {names(rnd.first)}"]

    def seat_hand_lines(self, game: GameRules | None, rnd: RoundState, index: int) -> list[str]:
        """Seat ``index``'s own hand ([] before it has one)."""
        seat_cards = rnd.seat_cards
        if index < len(seat_cards) and seat_cards[index]:
            return [f"Own cards: {names(seat_cards[index])}"]
        return []

    def dealer_lines(self, game: GameRules | None, rnd: RoundState) -> list[str]:
        """The shared cards of the second deal (the record holds some)."""
        return [f"Shared cards: {names(rnd.second_shared)}"]

    def offer_label(self, game: GameRules | None, offer: DecisionOffer) -> str:
        """The decision's name (``"Play"``, the edition's ``"Double"``)."""
        return offer.kind.capitalize()

    def no_offer_lines(self, game: GameRules | None) -> list[str]:
        """What a player is told when the first deal brings no decision."""
        return []

    def rules_lines(self, game: GameRules | None) -> list[str]:
        """The rules and pays (this base: every spot)."""
        return [] if game is None else [f"  {s.id}  {s.label}" for s in game.spots]


_REGISTRY: dict[str, TextFamily] = {}
PLAIN = TextFamily()
_loaded: list[bool] = []


def register(family: TextFamily) -> None:
    """Make a family's text part known (a later registration of the same id wins)."""
    _REGISTRY[family.id] = family


def unregister(family_id: str) -> None:
    """Forget a family's text part (a test's own family)."""
    _REGISTRY.pop(family_id, None)


def text_family(game: GameRules | None) -> TextFamily:
    """The text part of ``game``'s family (:data:`PLAIN` for none registered or for None, a
    game no longer shipped)."""
    if not _loaded:
        _loaded.append(True)
        for module in BUILTIN:
            importlib.import_module(module)
    if game is None:
        return PLAIN
    return _REGISTRY.get(game.family, PLAIN)
