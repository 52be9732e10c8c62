"""The help screen: rules and pay tables of an edition, read from the rules the game pays from.

Nothing here is written twice: each family's part (:mod:`kiosk.terminal.presentation.families`)
reads the pays from the loaded pay tables, and the limits come from the terminal's configuration.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.kernel.games.base import GameRules
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.presentation.families import PayTable, table_family
from kiosk.terminal.presentation.i18n import text
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.words import GameWords

__all__ = ["HelpPage", "PayTable", "help_page"]


@dataclass(frozen=True)
class HelpPage:
    """The rules in a few paragraphs, then the pay tables."""

    title: str
    paragraphs: tuple[str, ...]
    tables: tuple[PayTable, ...]
    outcome_header: str
    pays_header: str
    icon: str  # the edition's icon, drawn beside the icon rules ("" for Stadium)


def help_page(game: GameRules, config: TerminalConfig, language: str) -> HelpPage:
    """Rules, pay tables and limits of ``game`` as configured on this terminal."""
    words = GameWords(game, language)
    content = table_family(game).help(game, language, words)
    paragraphs = list(content.paragraphs)
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
        title=text(language, "help_title", title=words.title),
        paragraphs=tuple(paragraphs),
        tables=content.tables,
        outcome_header=text(language, "help_outcome"),
        pays_header=text(language, "help_pays_col"),
        icon=content.icon,
    )
