"""A game's rules and pays in a few lines, read from the configured rules themselves."""

from __future__ import annotations

from kiosk.kernel.games.base import GameRules
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.textui.families import text_family


def rules_lines(game: GameRules, config: TerminalConfig) -> list[str]:
    """Title, rules, pays and the terminal's wager limits."""
    lines = [f"{game.title} ({game.game_id})"]
    lines += text_family(game).rules_lines(game)
    lines.append(
        f"Limits: {dollars(config.min_wager)} to {dollars(config.max_wager)} a spot in whole "
        f"credits of {dollars(config.denomination)}; at most {dollars(config.table_max)} a "
        "round, decision wager included."
    )
    return lines
