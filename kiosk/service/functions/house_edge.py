"""The pay tables an operator may choose, each with its exact house edge from the par sheet.

The edges come from :mod:`kiosk.analysis` (the same code as ``turbokiosk par-sheet``).  Turbo
tables take milliseconds; a Stadium Ante/Play table takes seconds (every deal of the array is
counted), so every edge is kept in ``<data_dir>/service/house-edges.json`` once computed.  An
entry is keyed by the SHA-256 of what the edge depends on (the table's pays, and for the
mandatory Turbo wager its raise rule), never by a name or a file: a changed table can never be
shown with a stale edge.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from kiosk.analysis import stadium_par, turbo_par
from kiosk.bounded_read import read_bounded_text
from kiosk.games import nine_card_bonus, stadium_paytables
from kiosk.games.paytable import table_names
from kiosk.games.registry import STADIUM_ID
from kiosk.games.stadium import TITLE as STADIUM_TITLE
from kiosk.games.turbo_edition import load_edition

CACHE_FORMAT = 1
#: the most the edge cache may hold (a few hundred entries)
CACHE_LIMIT = 1 << 20
_STADIUM_LABELS = {
    stadium_paytables.ANTE_PLAY: "Ante and Play (ante bonus)",
    stadium_paytables.PAIRS_PLUS: "Pairs Plus",
    stadium_paytables.SIX_CARD_BONUS: "6-Card Bonus",
}


@dataclass(frozen=True)
class WagerTables:
    """The pay tables one wager of an edition may use."""

    edition: str
    wager: str
    label: str
    tables: tuple[str, ...]
    default: str


def edition_title(edition: str) -> str:
    """The edition's title."""
    return STADIUM_TITLE if edition == STADIUM_ID else load_edition(edition).title


def wager_tables(edition: str) -> tuple[WagerTables, ...]:
    """Every wager of ``edition`` that has a choice of pay table, with the choices."""
    if edition == STADIUM_ID:
        return tuple(
            WagerTables(
                edition,
                wager,
                _STADIUM_LABELS[wager],
                table_names(stadium_paytables.kind(wager)),
                stadium_paytables.DEFAULTS[wager],
            )
            for wager in stadium_paytables.WAGERS
        )
    ed = load_edition(edition)
    out = [
        WagerTables(edition, w.id, w.label, tuple(t.name for t in w.paytables), w.default)
        for w in ed.wagers
    ]
    bonus = (*nine_card_bonus.available(), nine_card_bonus.OFF)
    out.append(
        WagerTables(
            edition,
            nine_card_bonus.KIND,
            ed.nine_card_bonus_label,
            bonus,
            ed.nine_card_bonus_default,
        )
    )
    return tuple(out)


class HouseEdges:
    """Exact house edges per (edition, wager, table), computed once and kept on disk."""

    def __init__(
        self, cache_file: Path | None, progress: Callable[[str], None] = lambda text: None
    ) -> None:
        self.cache_file = cache_file
        self.progress = progress
        self._cache: dict[str, str] = self._load()

    def edge(self, edition: str, wager: str, table: str) -> Fraction | None:
        """The house edge (per unit of the initial wager); None when the wager is off."""
        if wager == nine_card_bonus.KIND and table == nine_card_bonus.OFF:
            return None
        key, compute = self._plan(edition, wager, table)
        if key not in self._cache:
            self.progress(f"computing the house edge of {edition} {wager} {table}")
            self._cache[key] = str(compute())
            self._save()
        return Fraction(self._cache[key])

    def _plan(self, edition: str, wager: str, table: str) -> tuple[str, Callable[[], Fraction]]:
        if edition == STADIUM_ID:
            t = stadium_paytables.load_table(wager, table)
            basis = repr((wager, sorted(t.pays.items())))
            if wager == stadium_paytables.ANTE_PLAY:
                return _key(basis), lambda: stadium_par.ante_play_par(t).house_edge
            return _key(basis), lambda: stadium_par.side_wager_par(t).house_edge
        ed = load_edition(edition)
        if wager == nine_card_bonus.KIND:
            b = nine_card_bonus.load_table(table)
            basis = repr((wager, b.pays, b.straight_flush_8, b.straight_flush_9))
            return (
                _key(basis),
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
            return _key(basis), lambda: turbo_par.mandatory_wager_par(ed, w, icon_table).house_edge
        basis = repr(("icon", icon_table.tiers))
        return _key(basis), lambda: turbo_par.icon_wager_par(w, icon_table).house_edge

    def _load(self) -> dict[str, str]:
        if self.cache_file is None:
            return {}
        try:
            # a cache: a file that is not one (a FIFO, /dev/zero, 100 MB) is recomputed
            data = json.loads(read_bounded_text(self.cache_file, CACHE_LIMIT, what="cache"))
        except ValueError:  # InputFileError included
            return {}
        if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
            return {}
        edges = data.get("edges")
        return dict(edges) if isinstance(edges, dict) else {}

    def _save(self) -> None:
        if self.cache_file is None:
            return
        self.cache_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.cache_file.with_suffix(".tmp")
        tmp.write_text(json.dumps({"format": CACHE_FORMAT, "edges": self._cache}, indent=1))
        os.replace(tmp, self.cache_file)


def _key(basis: str) -> str:
    return hashlib.sha256(basis.encode()).hexdigest()


def percent(edge: Fraction | None) -> str:
    """``"3.373%"``, or ``"off"``."""
    return "off" if edge is None else f"{float(edge) * 100:.3f}%"
