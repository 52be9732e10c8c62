"""The Turbo family's house edges: icon wagers, the mandatory wager with its raise, the 9 Card
Bonus (:mod:`kiosk.kernel.analysis.turbo_par`)."""

from __future__ import annotations

from collections.abc import Mapping

from kiosk.kernel.analysis import table_math, turbo_par
from kiosk.kernel.analysis.families import EdgePlan, ParSheetFunction, Progress, register
from kiosk.kernel.analysis.table_math import TableMath
from kiosk.kernel.analysis.table_sim import TableSimulation
from kiosk.kernel.games import nine_card_bonus, turbo
from kiosk.kernel.games.base import RuleError
from kiosk.kernel.games.turbo_edition import load_edition


class TurboPar:
    """The Turbo family's :class:`~kiosk.kernel.analysis.families.ParFamily`."""

    @property
    def id(self) -> str:
        """``"turbo"``."""
        return turbo.FAMILY_ID

    def par_sheet_function(self, edition: str) -> ParSheetFunction:
        """:func:`kiosk.kernel.analysis.turbo_par.par_sheet` of the edition."""
        return lambda paytables: turbo_par.par_sheet(edition, paytables)

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
        """:mod:`kiosk.kernel.analysis.fast_sim`: ``table`` mode (the default, one deck, at most 8
        seats) or ``stadium`` mode (a shuffle of the 49 cards per seat)."""
        rules = turbo.load(edition, paytables)
        from kiosk.kernel.analysis import fast_sim  # numpy: only a simulation needs it

        jobs = fast_sim.default_jobs() if jobs is None else jobs
        try:
            fast_sim.check_run(games, seats, jobs)
            deal = fast_sim.turbo_deal(rules, seats, _mode(mode))
        except ValueError as exc:
            raise RuleError(str(exc)) from exc
        root = fast_sim.new_root() if seed is None else seed
        run = fast_sim.run_chunks(deal, games, root, jobs, progress)
        sheet = turbo_par.rules_par_sheet(rules).wagers
        laws = table_math.seat_pair_laws(rules, deal.mode)
        covariances = {w: law.covariance for w, law in laws.items()}
        correlations = {w: cov / sheet[w].variance for w, cov in covariances.items()}
        return fast_sim.report(
            rules.edition.id,
            deal.mode,
            deal.tables.scale,
            run,
            seats,
            sheet,
            covariances,
            correlations,
            product_variances={w: law.product_variance for w, law in laws.items()},
        )

    def table_math(
        self, edition: str, paytables: Mapping[str, str], *, seats: int, mode: str | None
    ) -> TableMath:
        """:func:`kiosk.kernel.analysis.table_math.turbo_table_math` (exact)."""
        rules = turbo.load(edition, paytables)
        try:
            return table_math.turbo_table_math(rules, seats, _mode(mode))
        except ValueError as exc:
            raise RuleError(str(exc)) from exc

    def edge_plan(self, edition: str, wager: str, table: str) -> EdgePlan:
        """A mandatory wager's edge depends on its tiers and the raise rule, another icon
        wager's on its tiers, the 9 Card Bonus's on its pays."""
        ed = load_edition(edition)
        if wager == nine_card_bonus.KIND:
            b = nine_card_bonus.load_table(table)
            basis = repr((wager, b.pays, b.straight_flush_8, b.straight_flush_9))
            return (
                basis,
                lambda: (
                    turbo_par.nine_card_bonus_par(
                        b, ed.nine_card_bonus_label, ed.suit_name
                    ).house_edge
                ),
            )
        w = ed.wager(wager)
        if w is None:
            raise ValueError(f"{edition} has no wager {wager!r}")
        icon_table = w.paytable(table)
        if w.mandatory:
            basis = repr(("mandatory", icon_table.tiers, ed.raise_rule))
            return basis, lambda: turbo_par.mandatory_wager_par(ed, w, icon_table).house_edge
        basis = repr(("icon", icon_table.tiers))
        return basis, lambda: turbo_par.icon_wager_par(w, icon_table).house_edge


def _mode(mode: str | None) -> str:
    return table_math.TABLE if mode is None else mode


register(TurboPar())
