"""The player's touches as typed actions, for :meth:`ui.terminal.app.KioskApp.player`.

A touch without an argument is a member of :class:`Touch`; a touch that carries one is a small
frozen record (:class:`SelectChip`, :class:`PlaceChip`, :class:`TogglePosition`,
:class:`ChooseEdition`, :class:`SetReminder`).  :data:`PlayerAction` is their union, so a
touch the app has no handler for cannot be written (mypy refuses it, and the .kv files name
``Touch`` members, which fail when the rules load); the app's table of handlers covers every
member (checked when it is built).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Touch(enum.Enum):
    """A touch that carries nothing but itself."""

    CLEAR = "clear"
    REPEAT = "repeat"
    DEAL = "deal"
    TAKE = "take"
    DECLINE = "decline"
    CASH_OUT = "cash_out"
    GAMES = "games"
    TABLE = "table"
    HELP = "help"
    HISTORY = "history"
    OLDER = "older"
    NEWER = "newer"
    BACK = "back"
    LANGUAGE = "language"
    REMINDER = "reminder"
    REMINDER_OK = "reminder_ok"
    REMINDER_CASH_OUT = "reminder_cash_out"
    VOUCHER_OK = "voucher_ok"


@dataclass(frozen=True)
class SelectChip:
    """A chip of ``cents`` picked from the chip rail."""

    cents: int


@dataclass(frozen=True)
class PlaceChip:
    """The selected chip placed on the betting spot ``spot``."""

    spot: str


@dataclass(frozen=True)
class TogglePosition:
    """A Stadium position (its index on the felt) taken or given back."""

    index: int


@dataclass(frozen=True)
class ChooseEdition:
    """A game chosen on the menu."""

    edition: str


@dataclass(frozen=True)
class SetReminder:
    """The play reminder set to every ``minutes`` (0: off)."""

    minutes: int


PlayerAction = Touch | SelectChip | PlaceChip | TogglePosition | ChooseEdition | SetReminder
