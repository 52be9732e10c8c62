"""The Stadium family's house edges: the Ante and Play with its ante bonus, and the side
wagers (:mod:`kiosk.analysis.stadium_par`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kiosk.analysis import stadium_par
from kiosk.analysis.families import EdgePlan, ParSheetFunction, register
from kiosk.analysis.simulate import SimulatedWager
from kiosk.games import stadium, stadium_paytables
from kiosk.games.base import RuleError


class StadiumPar:
    """The Stadium family's :class:`~kiosk.analysis.families.ParFamily`."""

    @property
    def id(self) -> str:
        """``"stadium"``."""
        return stadium.FAMILY_ID

    def par_sheet_function(self, edition: str) -> ParSheetFunction:
        """:func:`kiosk.analysis.stadium_par.par_sheet`."""
        return stadium_par.par_sheet

    def simulate(
        self,
        edition: str,
        games: int,
        paytables: Mapping[str, str],
        *,
        seed: int | None,
        seats: int,
    ) -> Sequence[SimulatedWager]:
        """:func:`kiosk.analysis.stadium_par.simulate`, one seat."""
        if seats != 1:
            raise RuleError(f"--seats applies to the Turbo editions only, not {edition}")
        return stadium_par.simulate(games, paytables, seed=seed)

    def edge_plan(self, edition: str, wager: str, table: str) -> EdgePlan:
        """An edge depends on the wager and its table's pays."""
        t = stadium_paytables.load_table(wager, table)
        basis = repr((wager, sorted(t.pays.items())))
        if wager == stadium_paytables.ANTE_PLAY:
            return basis, lambda: stadium_par.ante_play_par(t).house_edge
        return basis, lambda: stadium_par.side_wager_par(t).house_edge


register(StadiumPar())
