"""The Stadium family's house edges: the Ante and Play with its ante bonus, and the side
wagers (:mod:`kiosk.analysis.stadium_par`)."""

from __future__ import annotations

from kiosk.analysis import stadium_par
from kiosk.analysis.families import EdgePlan, register
from kiosk.games import stadium, stadium_paytables


class StadiumPar:
    """The Stadium family's :class:`~kiosk.analysis.families.ParFamily`."""

    @property
    def id(self) -> str:
        """``"stadium"``."""
        return stadium.FAMILY_ID

    def edge_plan(self, edition: str, wager: str, table: str) -> EdgePlan:
        """An edge depends on the wager and its table's pays."""
        t = stadium_paytables.load_table(wager, table)
        basis = repr((wager, sorted(t.pays.items())))
        if wager == stadium_paytables.ANTE_PLAY:
            return basis, lambda: stadium_par.ante_play_par(t).house_edge
        return basis, lambda: stadium_par.side_wager_par(t).house_edge


register(StadiumPar())
