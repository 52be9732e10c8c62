"""A game family: what the games layer tells every other layer about a kind of game.

A *family* is a kind of game with its own rules code (Turbo icon games, Stadium Three Card
Poker); its *editions* are data (themes, pay tables).  Each family registers one
:class:`Family` with :mod:`kiosk.kernel.games.registry`; every rules object it loads names it in
:attr:`~kiosk.kernel.games.base.GameRules.family`.  The layers above (presentation, text UI,
touchscreen, par sheets) keep their own per-family parts in a ``families`` package keyed by
that id, so no layer outside ``kiosk/kernel/games`` and those packages tests which family it holds
(docs/decisions/0015-game-families.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from kiosk.kernel.games.base import GameRules


@dataclass(frozen=True)
class PaytableChoice:
    """One wager of an edition whose pay table the operator chooses, with the choices."""

    wager: str  # the key of the edition's pay-table configuration ("first_down", "ante_play")
    label: str
    tables: tuple[str, ...]
    default: str


class Family(Protocol):
    """What a family registers with the games layer."""

    @property
    def id(self) -> str:
        """The family's id (``"turbo"``, ``"stadium"``): the key of every layer's registry."""
        ...

    def edition_ids(self) -> tuple[str, ...]:
        """Every edition of the family this software ships."""
        ...

    def load(self, edition_id: str, paytables: Mapping[str, str]) -> GameRules:
        """The rules of an edition with the chosen pay tables (wager -> table name or file).

        Raises :class:`~kiosk.kernel.games.base.RuleError` or the pay-table loader's error."""
        ...

    def title(self, edition_id: str) -> str:
        """The edition's display name, read without loading its pay tables."""
        ...

    def paytable_choices(self, edition_id: str) -> tuple[PaytableChoice, ...]:
        """Every wager of the edition with a choice of pay table (the service menu's list)."""
        ...
