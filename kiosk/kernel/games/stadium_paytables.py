"""Stadium Three Card Poker pay tables: the data files and their checks.

One TOML file per table, under ``kiosk/kernel/games/paytables/stadium/<wager>/<name>.toml`` (or an
operator directory or file, see :mod:`kiosk.kernel.games.paytable`).  Tables are named by their
pays:

* ``ante_play`` — the ante bonus, ``straight-trips-straight flush`` (default ``1-4-5``);
* ``pairs_plus`` — ``pair-flush-straight-trips-straight flush`` (e.g. ``1-4-6-30-40``);
* ``six_card_bonus`` — ``royal-straight flush-quads-full house-flush-straight-trips``
  (e.g. ``1000-200-100-20-15-10-7``), on the best five of six cards.

A file::

    wager = "pairs_plus"
    name = "1-4-6-30-40"
    house_edge = "149/6435"   # optional: the exact edge, checked by the par sheet

    [pays]                    # odds "n to 1" (an integer) or "n:d"; every hand listed
    straight_flush = 40
    three_of_a_kind = 30
    straight = 6
    flush = 4
    pair = 1

Every key is required and every pay must be positive; anything else is refused with an error
naming the file and the field, and nothing is loaded from a refused file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kiosk.kernel.games import paytable, poker3
from kiosk.kernel.games.paytable import FieldReader, PaytableError

ANTE_PLAY, PAIRS_PLUS, SIX_CARD_BONUS = "ante_play", "pairs_plus", "six_card_bonus"
WAGERS = (ANTE_PLAY, PAIRS_PLUS, SIX_CARD_BONUS)

#: Pay-table key -> hand category (three-card categories for the first two, five-card for 6CB).
CATEGORIES: Mapping[str, Mapping[str, int]] = {
    ANTE_PLAY: {
        "straight_flush": poker3.STRAIGHT_FLUSH,
        "three_of_a_kind": poker3.THREE_OF_A_KIND,
        "straight": poker3.STRAIGHT,
    },
    PAIRS_PLUS: {
        "straight_flush": poker3.STRAIGHT_FLUSH,
        "three_of_a_kind": poker3.THREE_OF_A_KIND,
        "straight": poker3.STRAIGHT,
        "flush": poker3.FLUSH,
        "pair": poker3.PAIR,
    },
    SIX_CARD_BONUS: {
        "royal_flush": poker3.ROYAL_FLUSH_5,
        "straight_flush": poker3.STRAIGHT_FLUSH_5,
        "four_of_a_kind": poker3.FOUR_OF_A_KIND_5,
        "full_house": poker3.FULL_HOUSE_5,
        "flush": poker3.FLUSH_5,
        "straight": poker3.STRAIGHT_5,
        "three_of_a_kind": poker3.THREE_OF_A_KIND_5,
    },
}

DEFAULTS: Mapping[str, str] = {
    ANTE_PLAY: "1-4-5",
    PAIRS_PLUS: "1-4-6-30-40",
    SIX_CARD_BONUS: "1000-200-100-20-15-10-7",
}

_FRACTION = re.compile(r"^\s*(-?\d+)\s*(?:/\s*(\d+))?\s*$")


@dataclass(frozen=True)
class StadiumPaytable:
    """A checked pay table of one Stadium wager."""

    wager: str  # "ante_play", "pairs_plus" or "six_card_bonus"
    name: str  # e.g. "1-4-6-30-40"
    source: str  # where it was read from, for messages and par sheets
    pays: Mapping[int, Fraction]  # hand category -> win odds
    stated_house_edge: Fraction | None = None  # the file's own claim, checked by the par sheet

    def odds(self, category: int) -> Fraction:
        """Win odds of a hand category, 0 when the category does not pay."""
        return self.pays.get(category, Fraction(0))


def kind(wager: str) -> str:
    """Directory (under the pay-table search directories) of a wager's tables."""
    return f"stadium/{wager}"


def load_table(
    wager: str, name_or_file: str, environ: Mapping[str, str] | None = None
) -> StadiumPaytable:
    """Read and check the pay table ``name_or_file`` (a name or a file path) of ``wager``."""
    if wager not in WAGERS:
        raise PaytableError(
            "stadium-3cp", None, f"no wager {wager!r} has a pay table (known: {', '.join(WAGERS)})"
        )
    path, source = paytable.locate(kind(wager), name_or_file, environ)
    data = paytable.read_toml(path, source)
    table = parse_table(data, source, wager)
    if not paytable.is_file_reference(name_or_file) and table.name != name_or_file:
        raise PaytableError(
            source, "name", f"is {table.name!r} but the file is named {name_or_file!r}"
        )
    return table


def parse_table(data: Mapping[str, Any], source: str, wager: str) -> StadiumPaytable:
    """Check parsed TOML ``data`` as a pay table of ``wager``; errors name ``source``."""
    reader = FieldReader(source)
    reader.keys(data, "", ("wager", "name", "pays"), ("title", "house_edge"))
    found = reader.name(data["wager"], "wager")
    if found != wager:
        raise reader.error("wager", f"is {found!r}, but a {wager!r} table was asked for")
    name = reader.name(data["name"], "name")
    if "title" in data:
        reader.text(data["title"], "title")
    stated = _fraction(reader, data["house_edge"], "house_edge") if "house_edge" in data else None
    keys = CATEGORIES[wager]
    pays_data = reader.table(data["pays"], "pays")
    reader.keys(pays_data, "pays", tuple(keys))
    pays = {keys[key]: reader.odds(pays_data[key], f"pays.{key}") for key in keys}
    return StadiumPaytable(wager, name, source, pays, stated)


def _fraction(reader: FieldReader, value: Any, field: str) -> Fraction:
    match = _FRACTION.match(value) if isinstance(value, str) else None
    if match is None or int(match[2] or 1) == 0:
        raise reader.error(field, f'must be an exact fraction like "149/6435", got {value!r}')
    return Fraction(int(match[1]), int(match[2] or 1))
