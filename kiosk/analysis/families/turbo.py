"""The Turbo family's house edges: icon wagers, the mandatory wager with its raise, the 9 Card
Bonus (:mod:`kiosk.analysis.turbo_par`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import rng
from kiosk.analysis import simulate, turbo_par
from kiosk.analysis.families import EdgePlan, ParSheetFunction, register
from kiosk.games import nine_card_bonus, turbo
from kiosk.games.turbo_edition import load_edition


class TurboPar:
    """The Turbo family's :class:`~kiosk.analysis.families.ParFamily`."""

    @property
    def id(self) -> str:
        """``"turbo"``."""
        return turbo.FAMILY_ID

    def par_sheet_function(self, edition: str) -> ParSheetFunction:
        """:func:`kiosk.analysis.turbo_par.par_sheet` of the edition."""
        return lambda paytables: turbo_par.par_sheet(edition, paytables)

    def simulate(
        self,
        edition: str,
        games: int,
        paytables: Mapping[str, str],
        *,
        seed: int | None,
        seats: int,
    ) -> Sequence[simulate.SimulatedWager]:
        """:func:`kiosk.analysis.simulate.simulate`, any number of seats sharing a deck."""
        shuffler: simulate.Shuffler = rng.Csprng() if seed is None else random.Random(seed)
        return simulate.simulate(edition, games, paytables, shuffler=shuffler, seats=seats)

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


register(TurboPar())
