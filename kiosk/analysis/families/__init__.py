"""Each game family's par-sheet part, by family id (docs/decisions/0015-game-families.md).

A family's analysis module registers a :class:`ParFamily`: how the exact house edge of one of
its pay tables is computed, and what that edge depends on (the service menu keys its cache on
it).  The shipped families are loaded on the first look-up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from fractions import Fraction
from typing import Protocol

from kiosk.games.registry import family_of

#: the per-family modules of the shipped families
BUILTIN = ("kiosk.analysis.families.turbo", "kiosk.analysis.families.stadium")

#: (what the edge depends on, as text; how to compute it)
EdgePlan = tuple[str, Callable[[], Fraction]]


class ParFamily(Protocol):
    """What a family registers with the analysis layer."""

    @property
    def id(self) -> str:
        """The family's id (:attr:`kiosk.games.family.Family.id`)."""
        ...

    def edge_plan(self, edition: str, wager: str, table: str) -> EdgePlan:
        """The house edge of ``table`` for ``wager`` of ``edition`` (per unit of the initial
        wager), not yet computed; :class:`ValueError` for a wager the edition lacks."""
        ...


_REGISTRY: dict[str, ParFamily] = {}


def register(family: ParFamily) -> None:
    """Make a family's par-sheet part known (a later registration of the same id wins)."""
    _REGISTRY[family.id] = family


def unregister(family_id: str) -> None:
    """Forget a family's par-sheet part (a test's own family)."""
    _REGISTRY.pop(family_id, None)


def par_family(edition: str) -> ParFamily:
    """The par-sheet part of the family ``edition`` belongs to; :class:`ValueError` when the
    family has none."""
    for module in BUILTIN:
        importlib.import_module(module)
    family_id = family_of(edition).id
    found = _REGISTRY.get(family_id)
    if found is None:
        raise ValueError(f"no par sheet for the {family_id!r} family of {edition!r}")
    return found
