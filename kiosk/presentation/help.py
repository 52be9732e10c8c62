"""The help screen: rules and pay tables of an edition, read from the rules the game pays from.

Nothing here is written twice: the pays come from the loaded pay tables
(:class:`~kiosk.games.turbo.TurboRules`, :class:`~kiosk.games.stadium.StadiumRules`) and the
limits from the terminal's configuration.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from kiosk.cards import SUIT_NAMES
from kiosk.games import poker3
from kiosk.games.base import GameRules
from kiosk.games.stadium import StadiumRules
from kiosk.games.turbo import TurboRules
from kiosk.games.turbo_edition import IconPaytable
from kiosk.presentation.i18n import game_text, text
from kiosk.presentation.money import dollars
from kiosk.presentation.spots import odds_text
from kiosk.presentation.words import GameWords
from kiosk.terminal.config import TerminalConfig


@dataclass(frozen=True)
class PayTable:
    """A titled two-column table: outcome, pays."""

    title: str
    rows: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class HelpPage:
    """The rules in a few paragraphs, then the pay tables."""

    title: str
    paragraphs: tuple[str, ...]
    tables: tuple[PayTable, ...]
    outcome_header: str
    pays_header: str
    icon: str  # the edition's icon, drawn beside the icon rules ("" for Stadium)


def _icon_rows(table: IconPaytable, words: GameWords) -> tuple[tuple[str, str], ...]:
    tiers = sorted(table.tiers, key=lambda t: t.odds, reverse=True)
    return tuple((words(t.outcome), odds_text(t.odds)) for t in tiers)


def _turbo(game: TurboRules, language: str) -> tuple[list[str], list[PayTable]]:
    ed = game.edition
    rule = ed.raise_rule
    words = GameWords(game, language)
    suit = game_text(language, SUIT_NAMES[game.suit])
    icons, main, label = words(ed.icons), words(ed.main.label), words(rule.label)
    default = text(language, "no_thanks")  # the raise's default choice is to decline
    paragraphs = [
        text(language, "help_turbo_icons", suit=suit, icons=icons),
        text(language, "help_turbo_deal", main=main),
        text(
            language,
            "help_turbo_raise",
            max=rule.max_community_icons,
            icons=icons,
            label=label,
            main=main,
            default=default,
        ),
        text(language, "help_turbo_own"),
        text(language, "help_only_best"),
    ]
    tables = [PayTable(words(w.label), _icon_rows(game.paytables[w.id], words)) for w in ed.wagers]
    raise_title = text(
        language, "help_raise_table", label=label, max=rule.max_community_icons, icons=icons
    )
    tables.insert(1, PayTable(raise_title, _icon_rows(rule.paytable, words)))
    bonus = game.nine_card_bonus
    if bonus is not None:
        rows: list[tuple[str, str]] = []
        for n, sf in ((9, bonus.straight_flush_9), (8, bonus.straight_flush_8)):
            if sf is not None:
                rows.append((text(language, "help_sf", n=n, suit=suit), odds_text(Fraction(sf))))
        for n in range(9, 3, -1):
            rows.append(
                (
                    text(language, "help_nine_suited", n=n, suit=suit),
                    odds_text(Fraction(bonus.pays[n - 4])),
                )
            )
        tables.append(PayTable(words(ed.nine_card_bonus_label), tuple(rows)))
    return paragraphs, tables


def _category_rows(
    pays: Mapping[int, Fraction], names: tuple[str, ...], language: str
) -> tuple[tuple[str, str], ...]:
    return tuple(
        (game_text(language, names[cat]), odds_text(pays[cat]))
        for cat in sorted(pays, reverse=True)
    )


def _stadium(game: StadiumRules, language: str) -> tuple[list[str], list[PayTable]]:
    paragraphs = [
        text(language, "help_stadium_pick"),
        text(language, "help_stadium_deal"),
        text(language, "help_stadium_dealer"),
    ]
    c3, c5 = poker3.CATEGORY3_NAMES, poker3.CATEGORY5_NAMES
    tables = [
        PayTable(
            text(language, "help_stadium_bonus"),
            _category_rows(game.ante_bonus.pays, c3, language),
        ),
        PayTable(
            text(language, "help_pairs_plus"), _category_rows(game.pairs_plus.pays, c3, language)
        ),
        PayTable(
            text(language, "help_six_card"), _category_rows(game.six_card_bonus.pays, c5, language)
        ),
    ]
    return paragraphs, tables


def help_page(game: GameRules, config: TerminalConfig, language: str) -> HelpPage:
    """Rules, pay tables and limits of ``game`` as configured on this terminal."""
    if isinstance(game, TurboRules):
        paragraphs, tables = _turbo(game, language)
        icon = game.edition.icon
    elif isinstance(game, StadiumRules):
        paragraphs, tables = _stadium(game, language)
        icon = ""
    else:  # a game family without its own help: its spots at least
        words = GameWords(game, language)
        paragraphs, tables, icon = [words.spot(s) for s in game.spots], [], ""
    paragraphs.append(
        text(
            language,
            "help_limits",
            min=dollars(config.min_wager),
            max=dollars(config.max_wager),
            denom=dollars(config.denomination),
            table=dollars(config.table_max),
        )
    )
    return HelpPage(
        title=text(language, "help_title", title=GameWords(game, language).title),
        paragraphs=tuple(paragraphs),
        tables=tuple(tables),
        outcome_header=text(language, "help_outcome"),
        pays_header=text(language, "help_pays_col"),
        icon=icon,
    )
