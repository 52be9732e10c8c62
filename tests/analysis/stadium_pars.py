"""The default Stadium rules' exact simulation pars, computed once per test process.

:func:`kiosk.kernel.analysis.stadium_table.simulation_pars` takes about 3 s of exact sums; the
analysis tests that read the default rules' figures share one computation."""

from __future__ import annotations

import functools

from kiosk.kernel.analysis import stadium_table
from kiosk.kernel.analysis.model import WagerPar
from kiosk.kernel.games import stadium


@functools.cache
def _computed() -> dict[str, WagerPar]:
    return stadium_table.simulation_pars(stadium.load({}))


def default_pars() -> dict[str, WagerPar]:
    """A copy of the default rules' pars by wager (each :class:`WagerPar` is frozen)."""
    return dict(_computed())
