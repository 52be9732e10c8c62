"""The rules a recorded round was played under (for recall and narration, text or touch)."""

from __future__ import annotations

from functools import cache

from kiosk.kernel.games.base import GameRules
from kiosk.kernel.games.registry import load_game
from kiosk.terminal.core.state import RoundState


@cache
def _load(edition: str, paytables: tuple[tuple[str, str], ...]) -> GameRules | None:
    try:
        return load_game(edition, dict(paytables))
    except (ValueError, OSError):  # an edition or table this software no longer ships
        return None


def game_of(rnd: RoundState) -> GameRules | None:
    """The rules a round was played under, or None when they can no longer be loaded."""
    return _load(rnd.edition, tuple(sorted(rnd.paytables.items())))
