"""What a seat knows of its table, as one read-only record (for the screen and the text UI).

Deadlines are the controller's clock; a seat never compares them with its own wall clock.  The
time left is the controller's ``deadline - now`` when the step arrived, counted down on the
seat's monotonic clock from then (:meth:`SeatStatus.remaining_at`); while the dealer has the
table paused the time left holds (the controller's ``time_left`` at the pause).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

#: the table's phase as the seat has seen it (:mod:`kiosk.kernel.games.table_phase`)
from kiosk.kernel.games.table_phase import TablePhase as TablePhase


class Connection(StrEnum):
    """The seat's link to its controller."""

    CONNECTING = "connecting"  # not seated yet (first connect, or a reconnect in progress)
    SEATED = "seated"  # the stream is up and the controller answered the join
    LOST = "lost"  # the link dropped: new bets are disabled (``reason`` says why)
    CLOSED = "closed"  # the seat stood up


@dataclass(frozen=True)
class SeatStatus:
    """One seat's view of its table at one instant."""

    table_id: str
    seat: int
    connection: Connection = Connection.CONNECTING
    reason: str = ""
    phase: TablePhase = TablePhase.IDLE
    game_number: int = 0
    #: the running countdown's deadline on the controller's clock (0: none)
    deadline_ms: int = 0
    #: the countdown's time left when its step arrived (controller deadline - controller now)
    remaining_ms: int = 0
    #: the seat's monotonic clock (ms) when that step arrived
    received_at_ms: int = 0
    #: the dealer's last step, in words ("New Game", "cards dealt", "Confirm" ...)
    dealer_step: str = ""
    #: seats at the table (when the round opened) and seats in the round (when bets closed)
    seats_in: int = 0
    #: the dealer paused the table: the countdown holds at ``remaining_ms``, no new bets
    paused: bool = False
    #: the dealer's reason for the pause (empty when not paused)
    pause_reason: str = ""
    #: the pack the dealer laid last, and where (0: the dealer's last step was not a pack)
    pack: int = 0
    pack_location: str = ""
    #: the table's progressive as the round opened: (winning outcome, meter cents), or None
    progressive: tuple[str, int] | None = None
    #: that progressive's name ("" when none)
    progressive_name: str = ""
    #: the dealer closed bets early: the seat commits what lies on its felt now (decision 0064)
    last_call: bool = False

    def remaining_at(self, monotonic_ms: int) -> int:
        """Milliseconds left on the countdown at the seat's monotonic ``monotonic_ms``."""
        if not self.deadline_ms:
            return 0
        if self.paused:
            return max(0, self.remaining_ms)
        return max(0, self.remaining_ms - max(0, monotonic_ms - self.received_at_ms))

    @property
    def bets_open(self) -> bool:
        """Whether the seat may commit a new bet now."""
        return (
            self.connection is Connection.SEATED
            and self.phase is TablePhase.BETTING
            and not self.paused
        )
