"""A game's rules and pays in a few lines, read from the configured rules themselves."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from kiosk.cards import RANKS, SUIT_NAMES
from kiosk.games import poker3
from kiosk.games.base import GameRules
from kiosk.games.stadium import StadiumRules
from kiosk.games.turbo import TurboRules
from kiosk.games.turbo_edition import IconPaytable
from kiosk.presentation.money import dollars
from kiosk.scoring import ICONS_BY_RANK
from kiosk.terminal.config import TerminalConfig
from kiosk.textui.show import odds_text


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


def _category_pays(pays: Mapping[int, Fraction], category_names: tuple[str, ...]) -> str:
    return ", ".join(f"{category_names[c]} {odds_text(pays[c])}" for c in sorted(pays))


def stadium_lines(game: StadiumRules) -> list[str]:
    """Stadium: positions, ante and play, the qualifier and the three pay tables."""
    blind = [s.id for s in game.spots if s.group == "blind"]
    return [
        "Before the deal choose 3 of the 9 array positions (positions 1 5 9);",
        "locations row by row: 1 2 3 / 4 5 6 / 7 8 9.",
        "Wager spots (bet SPOT DOLLARS):",
        "  ante            Ante (mandatory): 1:1 against the dealer when you play",
        "  pairs_plus      Pairs Plus on your hand: "
        + _category_pays(game.pairs_plus.pays, poker3.CATEGORY3_NAMES),
        "  six_card_bonus  6-Card Bonus, best 5 of your hand and the dealer's: "
        + _category_pays(game.six_card_bonus.pays, poker3.CATEGORY5_NAMES),
        f"  blind bets on the array's rows and columns, same pays: {', '.join(blind)}",
        "After the array is dealt: 'play' adds a wager equal to the ante; 'fold' loses the "
        "ante and is taken when time runs out.",
        "The dealer qualifies with Queen high or better. Not qualifying: the ante wins 1:1 and "
        "the play pushes. Otherwise the better hand wins ante and play 1:1; a tie pushes.",
        "Ante bonus when you play, whatever the dealer holds: "
        + _category_pays(game.ante_bonus.pays, poker3.CATEGORY3_NAMES),
    ]


def rules_lines(game: GameRules, config: TerminalConfig) -> list[str]:
    """Title, rules, pays and the terminal's wager limits."""
    lines = [f"{game.title} ({game.game_id})"]
    if isinstance(game, TurboRules):
        lines += turbo_lines(game)
    elif isinstance(game, StadiumRules):
        lines += stadium_lines(game)
    else:
        lines += [f"  {s.id}  {s.label}" for s in game.spots]
    lines.append(
        f"Limits: {dollars(config.min_wager)} to {dollars(config.max_wager)} a spot in whole "
        f"credits of {dollars(config.denomination)}; at most {dollars(config.table_max)} a "
        "round, decision wager included."
    )
    return lines
