"""The pay tables an operator may choose, each with its exact house edge from the par sheet.

The edges come from :mod:`kiosk.kernel.analysis` (the same code as ``turbokiosk par-sheet``).  Turbo
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

from kiosk.kernel.analysis.families import par_family
from kiosk.kernel.bounded_read import read_bounded_text
from kiosk.kernel.games import nine_card_bonus
from kiosk.kernel.games.registry import family_of

CACHE_FORMAT = 1
#: the most the edge cache may hold (a few hundred entries)
CACHE_LIMIT = 1 << 20


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
    return family_of(edition).title(edition)


def wager_tables(edition: str) -> tuple[WagerTables, ...]:
    """Every wager of ``edition`` that has a choice of pay table, with the choices."""
    return tuple(
        WagerTables(edition, c.wager, c.label, c.tables, c.default)
        for c in family_of(edition).paytable_choices(edition)
    )


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
        basis, compute = par_family(edition).edge_plan(edition, wager, table)
        return _key(basis), compute

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
