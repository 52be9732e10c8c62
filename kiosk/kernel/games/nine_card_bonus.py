"""The 9 Card Bonus wager: pay tables as data files, settlement, exact outcome counts.

The wager pays on how many of the player's 9 cards are of suit S (4 to 9), and a table may pay
more for an 8-card or 9-card straight flush in suit S: the suit-S cards hold 8 (or 9) ranks in
sequence, the ace playing high or low but never both (no wrap-around), so 8 consecutive cards
among 9 suit-S cards are an 8-card straight flush.  Only the highest award is paid.

A table file (``paytables/nine_card_bonus/NAME.toml``)::

    name = "3-8-40-150-1000-10000"          # must equal the file name
    description = "Standard table"
    straight_flush_8 = 5000                  # optional, odds n to 1
    straight_flush_9 = 250000                # optional

    [pays]                                   # odds n to 1 for 4..9 cards of suit S
    4 = 3
    5 = 8
    ...

Pays never decrease with more suited cards, a straight-flush pay must exceed what the same
hand pays without it, and the table must keep a positive house edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from typing import Any

from kiosk.kernel.games.paytable import FieldReader, locate, read_toml, table_names

KIND = "nine_card_bonus"
MIN_SUITED = 4
HAND_CARDS = 9
#: Every 9-card hand from a 52-card deck.
ALL_HANDS = comb(52, HAND_CARDS)
OFF = "off"  # the table choice of a property that does not offer the wager


@dataclass(frozen=True)
class NineCardBonusTable:
    """One validated 9 Card Bonus pay table (odds n to 1)."""

    name: str
    description: str
    pays: tuple[int, ...]  # for 4, 5, 6, 7, 8, 9 cards of suit S
    straight_flush_8: int | None = None
    straight_flush_9: int | None = None
    source: str = ""

    def award(self, suited: int, run: int) -> tuple[str, int] | None:
        """The paid award (outcome, odds n to 1) for ``suited`` suit-S cards whose longest
        sequence is ``run`` ranks, or None when the wager loses."""
        candidates: list[tuple[str, int]] = []
        if suited >= MIN_SUITED:
            candidates.append((f"{suited} suited cards", self.pays[suited - MIN_SUITED]))
        if self.straight_flush_8 is not None and run >= 8:
            candidates.append(("8-card straight flush", self.straight_flush_8))
        if self.straight_flush_9 is not None and run >= 9:
            candidates.append(("9-card straight flush", self.straight_flush_9))
        best: tuple[str, int] | None = None
        for candidate in candidates:  # the first of equal pays is the one named
            if best is None or candidate[1] > best[1]:
                best = candidate
        return best

    def outcomes(self) -> tuple[tuple[str, int, int], ...]:
        """Every paid outcome with its odds and number of 9-card hands, best first, then the
        losing count as ``("Lose", -1, count)``."""
        grouped: dict[str, list[int]] = {}
        lose = 0
        for suited, run, count in hand_classes():
            award = self.award(suited, run)
            if award is None:
                lose += count
            else:
                grouped.setdefault(award[0], [award[1], 0])[1] += count
        paid = sorted(((o, v[0], v[1]) for o, v in grouped.items()), key=lambda t: -t[1])
        return (*paid, ("Lose", -1, lose))

    def house_edge(self) -> Fraction:
        """Exact expected loss per unit wagered."""
        net = sum(odds * count for _, odds, count in self.outcomes())
        return Fraction(-net, ALL_HANDS)

    def describe_pays(self) -> str:
        """The pays as one line, e.g. ``4:3 5:8 ... SF8:5000``."""
        parts = [f"{k}:{p}" for k, p in zip(range(MIN_SUITED, 10), self.pays, strict=True)]
        if self.straight_flush_8 is not None:
            parts.append(f"SF8:{self.straight_flush_8}")
        if self.straight_flush_9 is not None:
            parts.append(f"SF9:{self.straight_flush_9}")
        return " ".join(parts)


def longest_run(rank_mask: int) -> int:
    """Longest sequence of ranks in a 13-bit mask (bit r = rank r, 2..A); the ace also plays
    below the 2, never around the corner."""
    extended = (rank_mask << 1) | ((rank_mask >> 12) & 1)  # bit 0: ace played low
    length = 0
    while extended:
        extended &= extended << 1
        length += 1
    return length


@cache
def hand_classes() -> tuple[tuple[int, int, int], ...]:
    """``(suited, run, hands)``: every class of 9-card hands the 9 Card Bonus tells apart.

    ``run`` is the longest suit-S sequence capped at 9 for 8 or 9 suited cards and 0 below
    (fewer than 8 suited cards cannot hold an 8-card straight flush).  Counts come from
    enumerating the suit-S rank sets and sum to ``C(52, 9)``.
    """
    classes: dict[tuple[int, int], int] = {}
    for suited in range(HAND_CARDS + 1):
        others = comb(39, HAND_CARDS - suited)
        if suited < 8:
            classes[(suited, 0)] = comb(13, suited) * others
            continue
        for ranks in combinations(range(13), suited):
            run = longest_run(sum(1 << r for r in ranks))
            key = (suited, min(run, 9) if run >= 8 else 0)
            classes[key] = classes.get(key, 0) + others
    return tuple((s, r, n) for (s, r), n in sorted(classes.items()))


def available() -> tuple[str, ...]:
    """Names of every table in the packaged library and the operator's directories."""
    return table_names(KIND)


def load_table(name_or_file: str) -> NineCardBonusTable:
    """A table by library name or file path, fully validated (:class:`PaytableError`)."""
    path, source = locate(KIND, name_or_file)
    return parse_table(read_toml(path, source), source, path.stem)


def parse_table(data: Mapping[str, Any], source: str, stem: str) -> NineCardBonusTable:
    """Validate the parsed contents of a table file named ``stem``."""
    read = FieldReader(source)
    read.keys(data, "", ("name", "description", "pays"), ("straight_flush_8", "straight_flush_9"))
    name = read.name(data["name"], "name")
    if name != stem:
        raise read.error("name", f"must equal the file name {stem!r}, got {name!r}")
    description = read.text(data["description"], "description")
    pays_table = read.table(data["pays"], "pays")
    wanted = [str(k) for k in range(MIN_SUITED, HAND_CARDS + 1)]
    read.keys(pays_table, "pays", wanted)
    pays: list[int] = []
    for key in wanted:
        pay = read.positive_integer(pays_table[key], f"pays.{key}")
        if pays and pay < pays[-1]:
            raise read.error(
                f"pays.{key}", f"must not be less than pays.{int(key) - 1} ({pays[-1]}), got {pay}"
            )
        pays.append(pay)
    sf8 = _optional_pay(read, data, "straight_flush_8", pays[4], "pays.8")
    floor9, floor9_field = max((pays[5], "pays.9"), (sf8 or 0, "straight_flush_8"))
    sf9 = _optional_pay(read, data, "straight_flush_9", floor9, floor9_field)
    table = NineCardBonusTable(name, description, tuple(pays), sf8, sf9, source)
    edge = table.house_edge()
    if edge <= 0:
        raise read.error(
            "pays",
            f"gives the player an advantage of {float(-edge):.4%}; the house edge must be positive",
        )
    return table


def _optional_pay(
    read: FieldReader, data: Mapping[str, Any], key: str, floor: int, floor_field: str
) -> int | None:
    if key not in data:
        return None
    pay = read.positive_integer(data[key], key)
    if pay <= floor:
        raise read.error(key, f"must exceed {floor_field} ({floor}) to ever be paid, got {pay}")
    return pay


def load_choice(name_or_file: str) -> NineCardBonusTable | None:
    """A table choice as given on a command line: ``off`` for no wager, else a table."""
    if name_or_file == OFF:
        return None
    return load_table(name_or_file)
