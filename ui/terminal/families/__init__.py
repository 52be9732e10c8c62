"""Each game family's touchscreen part, by family id (docs/decisions/0015-game-families.md).

A family's :class:`ScreenFamily` names the table screen that shows it (a Kivy screen with its
rules in ``ui/terminal/kv/tables.kv``, named after the family), the pace of its deal animation and
how a recalled game's cards are laid out.  The app builds one screen per registered family and
switches to the one named by :attr:`TableView.family`.  The shipped families are loaded on the
first look-up; another family calls :func:`register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from kiosk.terminal.presentation.faces import CardFace
from kiosk.terminal.presentation.recall import RecallView
from ui.terminal.screens.table import TableScreen

#: the per-family modules of the shipped families
BUILTIN = ("ui.terminal.families.turbo", "ui.terminal.families.stadium")

#: one row of a recalled game: its caption, its cards, the array index of its first card
#: (-1: not array positions, nothing to mark)
RecallRow = tuple[str, Sequence[CardFace | None], int]


def plain_recall_rows(game: RecallView, t: Mapping[str, str]) -> list[RecallRow]:
    """The shared cards of the first deal, then the seat's own and any shared second cards."""
    return [(t["community"], game.first, -1), (t["your_cards"], game.own + game.dealer, -1)]


@dataclass(frozen=True)
class ScreenFamily:
    """What a family registers with the touchscreen."""

    id: str  # the family's id: also its table screen's name
    screen: Callable[..., TableScreen]  # the table screen's class (called with ``name=id``)
    step_seconds: float  # seconds between the deal animation's steps
    recall_rows: Callable[[RecallView, Mapping[str, str]], list[RecallRow]] = field(
        default=plain_recall_rows
    )


_REGISTRY: dict[str, ScreenFamily] = {}
_loaded: list[bool] = []


def _load_builtins() -> None:
    if not _loaded:
        _loaded.append(True)
        for module in BUILTIN:
            importlib.import_module(module)


def register(family: ScreenFamily) -> None:
    """Make a family's touchscreen part known (a later registration of the same id wins)."""
    _REGISTRY[family.id] = family


def screen_families() -> tuple[ScreenFamily, ...]:
    """Every registered family's touchscreen part, the shipped ones first."""
    _load_builtins()
    return tuple(_REGISTRY.values())


def screen_family(family_id: str) -> ScreenFamily:
    """The touchscreen part of a family; :class:`LookupError` for a family without one."""
    _load_builtins()
    found = _REGISTRY.get(family_id)
    if found is None:
        raise LookupError(f"the {family_id!r} game family has no touchscreen table")
    return found


def recall_rows(game: RecallView, t: Mapping[str, str]) -> list[RecallRow]:
    """The card rows of a recalled game as its family lays them out."""
    _load_builtins()
    found = _REGISTRY.get(game.family)
    return (found.recall_rows if found is not None else plain_recall_rows)(game, t)
