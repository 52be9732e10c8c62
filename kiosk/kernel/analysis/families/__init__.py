"""Each game family's par-sheet part, by family id (docs/decisions/0015-game-families.md).

A family's analysis module registers a :class:`ParFamily`: its exact par sheet
(``turbokiosk par-sheet``), its simulation (``turbokiosk simulate``) and how the exact house
edge of one of its pay tables is computed, with what that edge depends on (the service menu
keys its cache on it).  The shipped families are loaded on the first look-up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Protocol

from kiosk.kernel.analysis.model import ParSheet
from kiosk.kernel.analysis.table_math import TableMath
from kiosk.kernel.analysis.table_sim import TableSimulation
from kiosk.kernel.games import registry
from kiosk.kernel.games.base import RuleError

#: the per-family modules of the shipped families
BUILTIN = ("kiosk.kernel.analysis.families.turbo", "kiosk.kernel.analysis.families.stadium")

#: told the rounds a simulation has played so far
Progress = Callable[[int], None]
#: (what the edge depends on, as text; how to compute it)
EdgePlan = tuple[str, Callable[[], Fraction]]
#: the par sheet of an edition with the chosen pay tables (wager -> table name or file)
ParSheetFunction = Callable[[dict[str, str]], ParSheet]


class ParFamily(Protocol):
    """What a family registers with the analysis layer."""

    @property
    def id(self) -> str:
        """The family's id (:attr:`kiosk.kernel.games.family.Family.id`)."""
        ...

    def par_sheet_function(self, edition: str) -> ParSheetFunction:
        """How to compute the exact par sheet of ``edition``."""
        ...

    def simulate(
        self,
        edition: str,
        games: int,
        paytables: Mapping[str, str],
        *,
        seed: int | None,
        seats: int,
        mode: str | None,
        jobs: int | None = None,
        progress: Progress | None = None,
    ) -> TableSimulation:
        """Play ``games`` random rounds of a table of ``seats`` seats dealt in ``mode`` (None:
        the family's default) with the optimal strategy, on ``jobs`` processes (None: every
        core), telling ``progress`` the rounds done (:mod:`kiosk.kernel.analysis.fast_sim`; ``seed``
        is the root of its chunked seeding, None: drawn from the OS).  Errors come from the
        exact variances.  Ctrl-C returns the rounds played so far (``interrupted``).
        :class:`RuleError` for ``seats``, ``jobs`` or a ``mode`` the family cannot deal."""
        ...

    def table_math(
        self, edition: str, paytables: Mapping[str, str], *, seats: int, mode: str | None
    ) -> TableMath:
        """The per-seat math of ``seats`` seats dealt in ``mode`` (``par-sheet --seats``);
        :class:`RuleError` for ``seats`` or a ``mode`` the family cannot deal."""
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


def _load_builtins() -> None:
    for module in BUILTIN:
        importlib.import_module(module)


def edition_ids() -> tuple[str, ...]:
    """Every edition whose family has a par-sheet part, in the registry's order."""
    _load_builtins()
    return tuple(
        e for family in registry.families() if family.id in _REGISTRY for e in family.edition_ids()
    )


def par_family(edition: str) -> ParFamily:
    """The par-sheet part of the family ``edition`` belongs to; :class:`RuleError` for an
    unknown edition or a family without one."""
    _load_builtins()
    family_id = registry.family_of(edition).id
    found = _REGISTRY.get(family_id)
    if found is None:
        raise RuleError(f"no par sheet for {edition!r} (the {family_id!r} family has none)")
    return found
