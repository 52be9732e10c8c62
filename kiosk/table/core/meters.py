"""The table's meters read from its journal (``turbokiosk table meters``), whole and per seat.

:func:`table_meters` folds the journal's events exactly as the core folds them into
:class:`~kiosk.table.core.core.TableMeters` (``tests/seat`` checks the two agree), and adds each
seat's figures, which a seat terminal's own meters reconcile with: its ``coin_in`` minus
``voided_returns`` is the seat's ``wagered`` here, its ``coin_out`` (plus jackpots paid by
hand) the seat's ``paid``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kiosk.table.core import events as e
from kiosk.table.core.core import TableMeters


@dataclass
class SeatMeters:
    """One seat's figures at the table (cents and counts)."""

    rounds: int = 0
    wagered: int = 0
    paid: int = 0
    voided_rounds: int = 0
    returned: int = 0


@dataclass
class TableBooks:
    """The table's meters and every seat's."""

    table: TableMeters = field(default_factory=TableMeters)
    seats: dict[int, SeatMeters] = field(default_factory=dict)


def table_meters(events: Iterable[e.Event]) -> TableBooks:
    """The meters of a table journal's events."""
    books = TableBooks()
    m = books.table
    for event in events:
        if isinstance(event, e.RoundSettled):
            m.rounds_played += 1
            m.seat_rounds += len(event.outcomes)
            for outcome in event.outcomes:
                seat = books.seats.setdefault(outcome.seat, SeatMeters())
                seat.rounds += 1
                seat.wagered += outcome.stake
                seat.paid += outcome.paid
                m.wagered += outcome.stake
                m.paid += outcome.paid
        elif isinstance(event, e.RoundVoided):
            m.rounds_voided += 1
            for seat_number, cents in event.returns:
                seat = books.seats.setdefault(seat_number, SeatMeters())
                seat.voided_rounds += 1
                seat.returned += cents
                m.returned += cents
    return books
