"""Each seat's journal of its table rounds against the table's journal, round by round.

A seat terminal journals each table round as an ordinary round of its own
(``TableRoundJoined`` names the table and its game number); the controller journals what the
seat wagered and what it was paid or returned.  :func:`reconcile_seat` pairs them by the
table's game number and reports every round that differs (:class:`RoundMismatch`, one line
each):

- settled on both sides: the seat's stake and payout equal the controller's ``SeatSettled``
  outcome, to the cent;
- voided by the controller: the seat returned exactly the controller's return;
- a wager the controller never took (reported late, refused, lost in a kill): the seat voided
  it and the table holds nothing of that seat in that game;
- anything on one side only, a table game bet twice on the seat, a round the table never
  opened, or a round still in play on the seat, is a mismatch.

Only rounds the seat's journal holds are the seat's; the table's journal is read as verified
(:mod:`kiosk.table.core.record`), the seat's through its own store's hash chain.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.table.core import events as te
from kiosk.terminal.core import events as ev
from kiosk.terminal.store.journal import Journal, StoreError
from kiosk.terminal.store.reader import read_transaction


@dataclass(frozen=True)
class RoundMismatch:
    """One table round that does not reconcile for one seat."""

    seat: int
    game: int  # the table's game number
    reason: str

    def line(self) -> str:
        return f"seat {self.seat} game {self.game}: {self.reason}"


@dataclass(frozen=True)
class TableSide:
    """What the table's journal holds of one seat in one round (cents)."""

    taken: bool = False
    settled: tuple[int, int] | None = None  # (stake, paid)
    returned: int | None = None  # the void's return


@dataclass(frozen=True)
class SeatSide:
    """What a seat's journal holds of one table round (cents)."""

    joined: int = 0  # how many local rounds name this table game
    settled: tuple[int, int] | None = None
    returned: int | None = None


@dataclass(frozen=True)
class SeatBooks:
    """One seat reconciled: counts, cents, and the rounds that differ."""

    seat: int
    settled: int = 0
    voided: int = 0
    not_taken: int = 0
    wagered: int = 0
    paid: int = 0
    returned: int = 0
    mismatches: tuple[RoundMismatch, ...] = field(default_factory=tuple)

    def line(self) -> str:
        state = "reconciled" if not self.mismatches else f"{len(self.mismatches)} mismatches"
        return (
            f"seat {self.seat}: {state}: {self.settled} settled, {self.voided} voided, "
            f"{self.not_taken} not taken; wagered {self.wagered} paid {self.paid} "
            f"returned {self.returned}"
        )


@dataclass(frozen=True)
class TableRounds:
    """The table's side of every round, per (game, seat)."""

    opened: frozenset[int]
    seats: dict[tuple[int, int], TableSide]


def table_rounds(events: Iterable[te.Event]) -> TableRounds:
    """Fold the table's events into what each seat wagered, was paid or returned."""
    opened: set[int] = set()
    sides: dict[tuple[int, int], TableSide] = {}

    def side(key: tuple[int, int]) -> TableSide:
        return sides.get(key, TableSide())

    for event in events:
        if isinstance(event, te.RoundOpened):
            opened.add(event.game_number)
        elif isinstance(event, te.WagerAccepted):
            key = (event.game_number, event.seat)
            sides[key] = TableSide(True, side(key).settled, side(key).returned)
        elif isinstance(event, te.RoundSettled):
            for o in event.outcomes:
                key = (event.game_number, o.seat)
                sides[key] = TableSide(side(key).taken, (o.stake, o.paid), side(key).returned)
        elif isinstance(event, te.RoundVoided):
            for seat, cents in event.returns:
                key = (event.game_number, seat)
                sides[key] = TableSide(side(key).taken, side(key).settled, cents)
    return TableRounds(frozenset(opened), sides)


def seat_rounds(data_dir: Path, table_id: str) -> dict[int, SeatSide]:
    """The seat's table rounds of ``table_id``, by the table's game number (its journal read in
    one transaction, its hash chain checked; StoreError when it cannot be read)."""
    journal = Journal(data_dir, readonly=True)
    try:
        with read_transaction(journal):
            journal.verify_chain()
            events = [row.event for row in journal.rows(after=0)]
    finally:
        journal.close()
    local_to_table: dict[int, int] = {}
    sides: dict[int, SeatSide] = {}
    for event in events:
        if isinstance(event, ev.TableRoundJoined) and event.table_id == table_id:
            local_to_table[event.game_number] = event.table_game
            had = sides.get(event.table_game, SeatSide())
            sides[event.table_game] = SeatSide(had.joined + 1, had.settled, had.returned)
        elif isinstance(event, ev.RoundSettled) and event.game_number in local_to_table:
            game = local_to_table[event.game_number]
            money = (sum(r.stake for r in event.seats), sum(r.paid for r in event.seats))
            sides[game] = SeatSide(sides[game].joined, money, sides[game].returned)
        elif isinstance(event, ev.RoundVoided) and event.game_number in local_to_table:
            game = local_to_table[event.game_number]
            sides[game] = SeatSide(sides[game].joined, sides[game].settled, event.returned)
    return sides


def reconcile_seat(table: TableRounds, seat: int, rounds: dict[int, SeatSide]) -> SeatBooks:
    """Seat ``seat``'s rounds (:func:`seat_rounds`) against the table's, round by round."""
    out: list[RoundMismatch] = []
    counts = {"settled": 0, "voided": 0, "not_taken": 0, "wagered": 0, "paid": 0, "returned": 0}
    games = set(rounds) | {g for g, s in table.seats if s == seat}
    for game in sorted(games):
        mine = rounds.get(game, SeatSide())
        theirs = table.seats.get((game, seat), TableSide())
        reason = _differs(game in table.opened, mine, theirs)
        if reason is not None:
            out.append(RoundMismatch(seat, game, reason))
            continue
        if mine.settled is not None:
            counts["settled"] += 1
            counts["wagered"] += mine.settled[0]
            counts["paid"] += mine.settled[1]
        elif theirs.returned is not None:
            counts["voided"] += 1
            counts["returned"] += theirs.returned
        else:
            counts["not_taken"] += 1
    return SeatBooks(seat, **counts, mismatches=tuple(out))


def _differs(opened: bool, mine: SeatSide, theirs: TableSide) -> str | None:
    """Why one round of one seat does not reconcile (None: it does)."""
    if mine.joined == 0:
        what = f"settled {theirs.settled}" if theirs.settled else f"returned {theirs.returned}"
        return None if not theirs.taken else f"at the table only ({what}), not on the seat"
    if mine.joined > 1:
        return f"bet {mine.joined} times on the seat"
    if not opened:
        return "the seat bet in a round the table never opened"
    if mine.settled is None and mine.returned is None:
        return "still in play on the seat"
    if mine.settled is not None:
        if theirs.settled is None:
            return f"settled on the seat only (stake {mine.settled[0]}, paid {mine.settled[1]})"
        if mine.settled != theirs.settled:
            return (
                f"the seat has stake {mine.settled[0]} paid {mine.settled[1]}, the table "
                f"stake {theirs.settled[0]} paid {theirs.settled[1]}"
            )
        return None
    if theirs.settled is not None:
        return f"voided on the seat, settled at the table (paid {theirs.settled[1]})"
    if theirs.returned is not None:
        if theirs.returned != mine.returned:
            return f"the seat returned {mine.returned}, the table {theirs.returned}"
        return None
    if theirs.taken:
        return "voided on the seat, still in play at the table"
    return None  # never taken: the seat returned its own wager


__all__ = [
    "RoundMismatch",
    "SeatBooks",
    "StoreError",
    "reconcile_seat",
    "seat_rounds",
    "table_rounds",
]
