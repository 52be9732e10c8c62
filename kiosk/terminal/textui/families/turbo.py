"""The Turbo family in text: the community and own cards with their icons, the raise, the icon
pay tables and the 9 Card Bonus."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.kernel.cards import RANKS, SUIT_NAMES, names
from kiosk.kernel.games.base import DecisionOffer, GameRules
from kiosk.kernel.games.turbo import FAMILY_ID, RAISE, TurboRules
from kiosk.kernel.games.turbo_edition import IconPaytable
from kiosk.kernel.scoring import ICONS_BY_RANK, count_icons
from kiosk.terminal.core.state import RoundState
from kiosk.terminal.textui.families import TextFamily, register
from kiosk.terminal.textui.show import odds_text


def _rules(game: GameRules | None) -> TurboRules:
    assert isinstance(game, TurboRules), f"{game} is not a Turbo game"
    return game


def icons_text(game: TurboRules, cards: Sequence[int]) -> str:
    """``"5 footballs"``."""
    count = count_icons(list(cards), game.suit)
    return f"{count} {game.edition.icon if count == 1 else game.edition.icons}"


def _icon_pays(table: IconPaytable) -> str:
    return "; ".join(
        f"{odds_text(tier.odds)} on {tier.outcome}"
        for tier in sorted(table.tiers, key=lambda t: t.odds)
    )


def _icon_values(game: TurboRules) -> str:
    groups: dict[int, list[str]] = {}
    for rank, icons in enumerate(ICONS_BY_RANK):
        groups.setdefault(icons, []).append(RANKS[rank])
    values = ", ".join(f"{' '.join(ranks)} = {icons}" for icons, ranks in sorted(groups.items()))
    return f"Cards of {SUIT_NAMES[game.suit]} carry {game.edition.icons}: {values}."


def turbo_lines(game: TurboRules) -> list[str]:
    """Turbo: icon values, each spot's pays, the raise and the 9 Card Bonus."""
    main = game.edition.main
    rule = game.edition.raise_rule
    lines = [
        _icon_values(game),
        "3 community cards are dealt, then 6 cards of your own: your 9 cards.",
        "Wager spots (bet SPOT DOLLARS):",
    ]
    width = max(len(s.id) for s in game.spots)
    for spot in game.spots:
        mandatory = " (mandatory)" if spot.mandatory else ""
        if spot.id in game.paytables:
            pays = _icon_pays(game.paytables[spot.id])
        elif game.nine_card_bonus is not None and spot.id == "nine_card_bonus":
            table = game.nine_card_bonus
            parts = [f"{n} suited {p}:1" for n, p in enumerate(table.pays, start=4)]
            if table.straight_flush_8 is not None:
                parts.append(f"8-card straight flush {table.straight_flush_8}:1")
            if table.straight_flush_9 is not None:
                parts.append(f"9-card straight flush {table.straight_flush_9}:1")
            pays = f"cards of {SUIT_NAMES[game.suit]} among your 9: " + ", ".join(parts)
        else:
            pays = ""
        lines.append(f"  {spot.id:<{width}}  {spot.label}{mandatory}: {pays}")
    lines.append(
        f"{rule.label}: offered when the community holds at most {rule.max_community_icons} "
        f"{game.edition.icons}; 'raise' adds a wager equal to {main.label} paying "
        f"{_icon_pays(rule.paytable)}; 'noraise' is taken when time runs out."
    )
    lines.append("Each wager pays only its highest award; a win returns the stake as well.")
    return lines


class TurboText(TextFamily):
    """The Turbo family's :class:`~kiosk.terminal.textui.families.TextFamily`."""

    id = FAMILY_ID

    def extra_label(self, game: GameRules | None, spot: str) -> str | None:
        """The raise by the edition's name for it."""
        return _rules(game).raise_label if spot == RAISE else None

    def first_deal_lines(self, game: GameRules | None, rnd: RoundState) -> list[str]:
        """``"Community: 7s Kd 2h  (3 footballs)"``."""
        first = rnd.first
        return [f"Community: {names(first)}  ({icons_text(_rules(game), first)})"]

    def seat_hand_lines(self, game: GameRules | None, rnd: RoundState, index: int) -> list[str]:
        """The own cards with the icons of all 9."""
        seat_cards = rnd.seat_cards
        if index < len(seat_cards) and seat_cards[index]:
            own = seat_cards[index]
            nine = icons_text(_rules(game), [*rnd.first, *own])
            return [f"Own cards: {names(own)}  (9 cards: {nine})"]
        return []

    def offer_label(self, game: GameRules | None, offer: DecisionOffer) -> str:
        """The edition's name for the raise."""
        return _rules(game).raise_label

    def no_offer_lines(self, game: GameRules | None) -> list[str]:
        """Why the raise was not offered."""
        turbo = _rules(game)
        rule = turbo.edition.raise_rule
        return [
            f"No {rule.label}: it is offered on {rule.max_community_icons} "
            f"{turbo.edition.icons} or fewer."
        ]

    def rules_lines(self, game: GameRules | None) -> list[str]:
        """:func:`turbo_lines`."""
        return turbo_lines(_rules(game))


register(TurboText())
