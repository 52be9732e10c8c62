"""Every edition the terminal can run, by id."""

from __future__ import annotations

from collections.abc import Mapping

from kiosk.games import stadium, turbo
from kiosk.games.base import GameRules, RuleError

STADIUM_ID = "stadium-3cp"


def edition_ids() -> tuple[str, ...]:
    """Ids of every shipped edition: the Turbo editions and themes, then Stadium."""
    return (*turbo.edition_ids(), STADIUM_ID)


def load_game(edition_id: str, paytables: Mapping[str, str] | None = None) -> GameRules:
    """The rules of an edition with the named pay tables (wager id -> table name or file).

    Raises :class:`RuleError` for an unknown edition and the pay-table loader's error for a
    bad table.
    """
    choices = dict(paytables or {})
    if edition_id == STADIUM_ID:
        return stadium.load(choices)
    if edition_id in turbo.edition_ids():
        return turbo.load(edition_id, choices)
    raise RuleError(f"unknown edition {edition_id!r}; known: {', '.join(edition_ids())}")
