"""Every game family and edition the terminal can run, by id.

The shipped families (Turbo, Stadium) are registered here; another family registers itself
with :func:`register` (a package of its own plus its data, see docs/games.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from kiosk.kernel.games import stadium, turbo
from kiosk.kernel.games.base import GameRules, RuleError
from kiosk.kernel.games.family import Family
from kiosk.kernel.games.pay_limits import PayLimited, PayLimits

STADIUM_ID = stadium.GAME_ID

_FAMILIES: dict[str, Family] = {}


def register(family: Family) -> None:
    """Make ``family`` and its editions known; an id or edition already taken is refused."""
    if family.id in _FAMILIES:
        raise ValueError(f"game family {family.id!r} is already registered")
    taken = set(edition_ids()) & set(family.edition_ids())
    if taken:
        raise ValueError(f"editions {sorted(taken)} already belong to another family")
    _FAMILIES[family.id] = family


def unregister(family_id: str) -> None:
    """Forget a family registered with :func:`register` (a test's own family)."""
    _FAMILIES.pop(family_id, None)


def families() -> tuple[Family, ...]:
    """Every registered family, in registration order."""
    return tuple(_FAMILIES.values())


def family_of(edition_id: str) -> Family:
    """The family an edition belongs to; :class:`RuleError` for an unknown edition."""
    for family in _FAMILIES.values():
        if edition_id in family.edition_ids():
            return family
    raise RuleError(f"unknown edition {edition_id!r}; known: {', '.join(edition_ids())}")


def edition_ids() -> tuple[str, ...]:
    """Ids of every shipped edition: the Turbo editions and themes, then Stadium."""
    return tuple(e for family in _FAMILIES.values() for e in family.edition_ids())


def load_game(edition_id: str, paytables: Mapping[str, str] | None = None) -> GameRules:
    """The rules of an edition with the named pay tables (wager id -> table name or file).

    Raises :class:`RuleError` for an unknown edition and the pay-table loader's error for a
    bad table.
    """
    return family_of(edition_id).load(edition_id, dict(paytables or {}))


def pay_limits(edition_id: str) -> PayLimits:
    """The most each spot of an edition can pay (:mod:`kiosk.kernel.games.pay_limits`);
    :class:`RuleError` for an unknown edition or a family that states none."""
    family = family_of(edition_id)
    if not isinstance(family, PayLimited):
        raise RuleError(f"family {family.id!r} states no pay limits for {edition_id!r}")
    return family.pay_limits(edition_id)


register(turbo.FAMILY)
register(stadium.FAMILY)
