"""The Stadium family's house edges: the Ante and Play with its ante bonus, and the side
wagers (:mod:`kiosk.kernel.analysis.stadium_par`)."""

from __future__ import annotations

from collections.abc import Mapping

from kiosk.kernel.analysis import stadium_par, stadium_table
from kiosk.kernel.analysis.families import EdgePlan, ParSheetFunction, Progress, register
from kiosk.kernel.analysis.table_math import STADIUM, TableMath
from kiosk.kernel.analysis.table_sim import TableSimulation
from kiosk.kernel.games import stadium, stadium_paytables
from kiosk.kernel.games.base import RuleError


class StadiumPar:
    """The Stadium family's :class:`~kiosk.kernel.analysis.families.ParFamily`."""

    @property
    def id(self) -> str:
        """``"stadium"``."""
        return stadium.FAMILY_ID

    def par_sheet_function(self, edition: str) -> ParSheetFunction:
        """:func:`kiosk.kernel.analysis.stadium_par.par_sheet`."""
        return stadium_par.par_sheet

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
        """:mod:`kiosk.kernel.analysis.fast_sim`: any number of seats on one array, each picking its
        positions at random and betting every wager, the 12 blind row and column ones too."""
        _check_mode(edition, mode)
        rules = stadium.load(dict(paytables))
        from kiosk.kernel.analysis import fast_sim  # numpy: only a simulation needs it

        jobs = fast_sim.default_jobs() if jobs is None else jobs
        try:
            fast_sim.check_run(games, seats, jobs)
        except ValueError as exc:
            raise RuleError(str(exc)) from exc
        pars = stadium_table.simulation_pars(rules)
        correlations = stadium_table.exact_correlations(rules)
        covariances = {w: c * pars[w].variance for w, c in correlations.items()}
        deal = fast_sim.stadium_deal(rules, seats)
        root = fast_sim.new_root() if seed is None else seed
        run = fast_sim.run_chunks(deal, games, root, jobs, progress)
        return fast_sim.report(
            stadium.GAME_ID,
            STADIUM,
            deal.tables.scale,
            run,
            seats,
            pars,
            covariances,
            correlations,
            frozenset(stadium_table.blind_pars(rules)),  # the lines are every seat's
            product_variances=stadium_table.exact_product_variances(rules, correlations),
        )

    def table_math(
        self, edition: str, paytables: Mapping[str, str], *, seats: int, mode: str | None
    ) -> TableMath:
        """:func:`kiosk.kernel.analysis.stadium_table.stadium_table_math`."""
        _check_mode(edition, mode)
        try:
            return stadium_table.stadium_table_math(dict(paytables), seats)
        except ValueError as exc:
            raise RuleError(str(exc)) from exc

    def edge_plan(self, edition: str, wager: str, table: str) -> EdgePlan:
        """An edge depends on the wager and its table's pays."""
        t = stadium_paytables.load_table(wager, table)
        basis = repr((wager, sorted(t.pays.items())))
        if wager == stadium_paytables.ANTE_PLAY:
            return basis, lambda: stadium_par.ante_play_par(t).house_edge
        return basis, lambda: stadium_par.side_wager_par(t).house_edge


def _check_mode(edition: str, mode: str | None) -> None:
    if mode not in (None, STADIUM):
        raise RuleError(
            f"{edition} deals one array for every seat: --mode {mode} is for Turbo editions"
        )


register(StadiumPar())
