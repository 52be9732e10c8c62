"""The phase of a table's round: the one enum of the controller, its seats and their screens.

The table controller's core runs on it (:mod:`kiosk.table.core.core`, which names it ``Phase``), the
Dealer Terminal receives its value as ``TableView.phase`` (``proto/turbokiosk/v1/dealer.proto``:
the wire strings are these values, unchanged), a seat keeps the phase it has seen
(:class:`kiosk.terminal.seat.status.SeatStatus`) and the screens put it into words
(:mod:`kiosk.terminal.presentation.table_bar`, :mod:`kiosk.table.presentation.dealer`,
:mod:`kiosk.terminal.textui.table_lines`).  Words are never here: they stay in presentation.

In the order of a round (decision 0048).
"""

from __future__ import annotations

from enum import StrEnum


class TablePhase(StrEnum):
    """Where a table's round is."""

    IDLE = "idle"  # no round: seats join and leave, the dealer may open one
    BETTING = "betting"  # the betting countdown runs
    BETS_CLOSED = "bets_closed"  # bets closed: waiting for the first deal's cards
    DECIDING = "deciding"  # the decision window runs
    DEALING = "dealing"  # decisions closed (or none to make): waiting for the rest of the cards
    SETTLED = "settled"  # every result is known; the dealer confirms
    #: a seat's view only: the round was voided and every wager returned (the controller is
    #: idle again, the void's reason in its record)
    VOIDED = "voided"


#: the phases in which a round is open at the controller
IN_ROUND = frozenset(
    {
        TablePhase.BETTING,
        TablePhase.BETS_CLOSED,
        TablePhase.DECIDING,
        TablePhase.DEALING,
        TablePhase.SETTLED,
    }
)
#: the phases that run a window with a countdown
WINDOWS = frozenset({TablePhase.BETTING, TablePhase.DECIDING})
