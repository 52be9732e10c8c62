"""The most an edition can pay on each wager spot, from its pay-table data (exact fractions).

The accounting host checks a reported game against these limits
(:mod:`kiosk.host.accounting.plausibility`): it does not know which of an edition's pay tables a
terminal chose, so a spot's limit is the highest odds **any** table of that wager can pay (the
packaged library and the operator's directories of :mod:`kiosk.kernel.games.paytable`).  A spot pays
at most its stake back plus ``floor(base stake * odds)``, where the base is the spot's own stake, or
for a pay earned by another wager's stake (Stadium's ante bonus, stake 0, paid on the ante) that
wager's stake.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol, TypeVar, runtime_checkable

from kiosk.kernel.games.paytable import PaytableError

T = TypeVar("T")


@dataclass(frozen=True)
class SpotLimit:
    """The highest win odds of one wager spot, and whose stake they are paid on."""

    odds: Fraction
    on: str = ""  # the spot whose stake earns the pay ("" : the spot's own stake)
    _num: int = field(init=False, repr=False, compare=False)
    _den: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_num", self.odds.numerator)  # ints: checked per game
        object.__setattr__(self, "_den", self.odds.denominator)

    def most_paid(self, stake: int, base_stake: int) -> int:
        """Cents the spot may return at most: its stake back plus the best win on the base."""
        return stake + (base_stake * self._num) // self._den


@dataclass(frozen=True)
class PayLimits:
    """One edition's spots and their limits (see the module docstring)."""

    edition: str
    spots: Mapping[str, SpotLimit]

    @property
    def most_odds(self) -> Fraction:
        """The highest odds of any spot: the edition's largest pay multiple per unit staked,
        less the stake itself."""
        return max((s.odds for s in self.spots.values()), default=Fraction(0))


@runtime_checkable
class PayLimited(Protocol):
    """A family that states its editions' pay limits (both shipped families do)."""

    def pay_limits(self, edition_id: str) -> PayLimits:
        """The edition's limits, from every pay table its wagers may use."""
        ...


def best(odds: Iterable[Fraction]) -> Fraction:
    """The highest of some odds (0 for none)."""
    return max(odds, default=Fraction(0))


def loadable(load: Callable[[str], T], names: Iterable[str]) -> Iterator[T]:
    """The tables of ``names`` that load; a file the loader refuses is left out (no terminal
    can play it either: the terminals load tables through the same checks)."""
    for name in names:
        try:
            yield load(name)
        except PaytableError:
            continue
