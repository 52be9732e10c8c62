"""The table's status for the player's screen (countdown, dealer's step, seats in, the link).

:func:`table_status` reads a seated terminal's :class:`~kiosk.terminal.seat.status.SeatStatus` (from
``SeatRuntime.status()``, or anything with a ``status()`` method returning one) and gives a
frozen :class:`TableStatus` with the countdown's time left at the given instant of the seat's
monotonic clock.  Read only: nothing here changes the seat.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from kiosk.terminal.seat.status import Connection, SeatStatus, TablePhase

#: a phase in the seat's one-line words (``turbokiosk play --table``): the seat sees bets
#: closed as the first deal coming and the rest of the cards as the round settling
_PHASE_WORDS = {TablePhase.BETS_CLOSED: "dealing", TablePhase.DEALING: "settling"}


def phase_word(phase: TablePhase) -> str:
    """The phase in the seat's text line: "betting", "dealing", "settling" ..."""
    return _PHASE_WORDS.get(phase, phase.value)


class SeatStatusSource(Protocol):
    """A seated terminal (``kiosk.terminal.seat.runtime.SeatRuntime``)."""

    def status(self) -> SeatStatus: ...


@dataclass(frozen=True)
class TableStatus:
    """What the screen shows of the table."""

    table_id: str
    seat: int
    #: "connecting", "seated", "lost" or "closed" (:class:`~kiosk.terminal.seat.status.Connection`)
    connection: str
    #: why the link is not seated (empty when it is)
    reason: str
    #: the round's phase as the seat has seen it (:func:`phase_word` puts it in words)
    phase: TablePhase
    game_number: int
    #: the countdown's deadline on the controller's clock (0: none running)
    deadline_ms: int
    #: milliseconds left on the countdown (0: none running)
    remaining_ms: int
    dealer_step: str
    seats_in: int
    #: the player may commit a new bet now (seated, the betting countdown runs, not paused)
    bets_open: bool
    #: the dealer paused the table (the countdown holds) and why
    paused: bool = False
    pause_reason: str = ""
    #: the pack the dealer laid last and where ("array 4-6", "dealer" ...; 0: no pack)
    pack: int = 0
    pack_location: str = ""
    #: the table's progressive as the round opened: (winning outcome, meter cents), or None
    progressive: tuple[str, int] | None = None

    @property
    def link_lost(self) -> bool:
        """New bets are disabled because the controller is not reachable."""
        return self.connection == Connection.LOST.value


def table_status(source: SeatStatusSource, monotonic_ms: int | None = None) -> TableStatus:
    """The table's status now (``monotonic_ms``: the seat's monotonic clock, default now)."""
    seat = source.status()
    now = time.monotonic_ns() // 1_000_000 if monotonic_ms is None else monotonic_ms
    running = seat.phase in (TablePhase.BETTING, TablePhase.DECIDING)
    return TableStatus(
        table_id=seat.table_id,
        seat=seat.seat,
        connection=seat.connection.value,
        reason=seat.reason,
        phase=seat.phase,
        game_number=seat.game_number,
        deadline_ms=seat.deadline_ms if running else 0,
        remaining_ms=seat.remaining_at(now) if running else 0,
        dealer_step=seat.dealer_step,
        seats_in=seat.seats_in,
        bets_open=seat.bets_open,
        paused=seat.paused,
        pause_reason=seat.pause_reason,
        pack=seat.pack,
        pack_location=seat.pack_location,
        progressive=seat.progressive,
    )
