"""The seat's state machine: the controller's steps in, the terminal's next step out (sans-IO).

The machine never touches the terminal, a socket or a clock.  It keeps two things:

- **what the controller said** of each table game the seat plays (:class:`RoundFacts`, folded
  from the steps by :data:`STEP_FOLDS`, one entry per kind of step), and the table's status for
  the screen (:class:`~kiosk.terminal.seat.status.SeatStatus`);
- the link's state (:data:`LINK_TRANSITIONS`: an explicit table; an input that the table does
  not list raises :class:`SeatProtocolError` and changes nothing).

:meth:`SeatMachine.next_action` compares the facts with what the terminal's journal holds of its
table round (:class:`TerminalRound`) and answers the **one** next action that brings the
terminal closer to the controller's record: report the committed wager, put the dealt cards in,
record the decision the controller journaled, void a round the controller did not take or
voided, check the terminal's own result against the controller's.  The caller carries the
action out and asks again until there is none.  Because the answer depends only on the facts
and the journal, it is idempotent: a step received twice, a reconnect replaying the round, or a
crash between two actions never doubles a wager or a win (the terminal's journal already has
the step, so the action is not asked for again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from kiosk.terminal.seat.status import Connection, SeatStatus, TablePhase
from proto.turbokiosk.v1 import table_pb2 as pb


class SeatProtocolError(Exception):
    """An input the seat's machine cannot take in its state (nothing changed)."""


class WrongTableError(SeatProtocolError):
    """A step of another table or another seat."""


# -- the link ---------------------------------------------------------------------------------

#: (connection, input) -> the connection after it
LINK_TRANSITIONS: dict[tuple[Connection, str], Connection] = {
    (Connection.CONNECTING, "connecting"): Connection.CONNECTING,
    (Connection.CONNECTING, "connected"): Connection.SEATED,
    (Connection.CONNECTING, "lost"): Connection.LOST,
    (Connection.SEATED, "lost"): Connection.LOST,
    (Connection.LOST, "connecting"): Connection.CONNECTING,
    (Connection.LOST, "lost"): Connection.LOST,
    (Connection.CONNECTING, "close"): Connection.CLOSED,
    (Connection.SEATED, "close"): Connection.CLOSED,
    (Connection.LOST, "close"): Connection.CLOSED,
}


# -- what the terminal has -------------------------------------------------------------------


@dataclass(frozen=True)
class TerminalRound:
    """What the seat terminal's journal holds of its table round (``table_game`` 0: none).

    ``phase`` is the terminal's: "dealing" (wager committed, no card yet), "decision",
    "settling" or "result"; ``stake``/``paid``/``results`` are its own settlement once it has one.
    """

    table_game: int = 0
    phase: str = ""
    wagers: tuple[tuple[str, int], ...] = ()
    positions: tuple[int, ...] = ()
    settled: bool = False
    voided: bool = False
    results: tuple[tuple[str, int, int], ...] = ()  # (spot, stake, paid) of its own settlement


# -- the actions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SendWager:
    """Report the wager the terminal has journaled (never before it is journaled)."""

    report: pb.SeatRequest


@dataclass(frozen=True)
class PutCards:
    """The controller's cards for the terminal's round (first deal, or own + shared cards)."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class RecordDecision:
    """Journal the decision the controller journaled (the player's, or the default)."""

    choice: str
    automatic: bool


@dataclass(frozen=True)
class ReturnWagers:
    """Void the terminal's round: every cent of it back on the credits."""

    reason: str


@dataclass(frozen=True)
class ResultMismatch:
    """The terminal's own result differs from the controller's: tilt with this reason."""

    reason: str


Action = SendWager | PutCards | RecordDecision | ReturnWagers | ResultMismatch


@dataclass
class RoundFacts:
    """What the controller said of one table game, as far as this seat is concerned."""

    game_number: int
    betting_open: bool = False
    accepted: bool = False
    taken: bool | None = None  # BetsClosed: was the seat in the round
    first: tuple[int, ...] | None = None
    choice: str | None = None
    defaulted: bool = False
    second: tuple[int, ...] | None = None
    settled: pb.SeatSettled | None = None
    voided: str | None = None
    checked: bool = False


def _progressive_words(body: pb.RoundOpened) -> tuple[str, int] | None:
    """The table's progressive as the round opens: (winning outcome, meter cents), or None."""
    if not body.HasField("progressive"):
        return None
    return body.progressive.outcome, body.progressive.meter_cents


@dataclass
class SeatMachine:
    """One seat of one table."""

    table_id: str
    seat: int
    status: SeatStatus = field(init=False)
    facts: dict[int, RoundFacts] = field(default_factory=dict)
    #: table games whose wager this connection has sent (a reconnect sends it again)
    sent: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.status = SeatStatus(self.table_id, self.seat)

    # -- the link --------------------------------------------------------------------------

    def link(self, what: str, reason: str = "") -> None:
        """The client's news: "connecting", "connected", "lost" (with why), "close"."""
        after = LINK_TRANSITIONS.get((self.status.connection, what))
        if after is None:
            raise SeatProtocolError(f"{what!r} while the link is {self.status.connection.value}")
        if what in ("connecting", "lost"):
            self.sent.clear()  # a new stream: whatever was sent may be lost; resend by the facts
        self.status = replace(self.status, connection=after, reason=reason)

    # -- the controller's steps ------------------------------------------------------------

    def receive(self, step: pb.SeatResponse, monotonic_ms: int) -> None:
        """Fold one step of the controller (``monotonic_ms``: the seat's clock on receipt)."""
        if step.table_id != self.table_id or step.seat != self.seat:
            raise WrongTableError(
                f"a step for {step.table_id!r} seat {step.seat}, this is {self.table_id!r} "
                f"seat {self.seat}"
            )
        kind = step.WhichOneof("body")
        fold = STEP_FOLDS.get(kind or "")
        if fold is None:
            raise SeatProtocolError(f"an empty or unknown step ({kind!r})")
        if self.status.connection is Connection.CONNECTING:
            self.link("connected")
        facts = self.facts.get(step.game_number)
        if facts is None:
            facts = self.facts[step.game_number] = RoundFacts(step.game_number)
        fold(self, facts, getattr(step, kind or ""), monotonic_ms)
        self._forget_old(step.game_number)

    def _forget_old(self, newest: int) -> None:
        for game in [g for g in self.facts if g < newest - 8]:
            del self.facts[game]

    def _show(self, **changes: Any) -> None:
        if "dealer_step" in changes and "pack" not in changes:
            changes.update(pack=0, pack_location="")  # the dealer moved on from the pack
        self.status = replace(self.status, **changes)

    def _opened(self, f: RoundFacts, body: pb.RoundOpened, at: int) -> None:
        f.betting_open = body.betting_deadline_ms > body.now_ms
        self._show(
            phase=TablePhase.BETTING if f.betting_open else TablePhase.BETS_CLOSED,
            game_number=f.game_number,
            deadline_ms=body.betting_deadline_ms,
            remaining_ms=max(0, body.betting_deadline_ms - body.now_ms),
            received_at_ms=at,
            dealer_step="New Game",
            seats_in=body.seats_in or self.status.seats_in,
            progressive=_progressive_words(body),
            progressive_name=body.progressive.name if body.HasField("progressive") else "",
            paused=False,  # the controller opens no round while it is paused
            last_call=False,
            pause_reason="",
            reason="" if self.status.connection is Connection.SEATED else self.status.reason,
        )

    def _accepted(self, f: RoundFacts, body: pb.WagerAccepted, at: int) -> None:
        f.accepted = True

    def _refused(self, f: RoundFacts, body: pb.Refused, at: int) -> None:
        # shown only: whether the wager is in the round is BetsClosed's to say
        self._show(reason=f"the table refused a report: {body.reason}")

    def _bets_closing(self, f: RoundFacts, body: pb.BetsClosing, at: int) -> None:
        # the dealer's last call: the seat commits its felt at once (runtime._commit_at_close)
        if f.taken is not None or f.first is not None:
            return  # a replayed step of a round already closed
        self._show(
            game_number=f.game_number,
            deadline_ms=body.betting_deadline_ms,
            remaining_ms=max(0, body.betting_deadline_ms - body.now_ms),
            received_at_ms=at,
            dealer_step="No more bets",
            last_call=True,
        )

    def _bets_closed(self, f: RoundFacts, body: pb.BetsClosed, at: int) -> None:
        f.betting_open = False
        f.taken = self.seat in body.seats
        self._show(
            phase=TablePhase.BETS_CLOSED,
            game_number=f.game_number,
            deadline_ms=0,
            dealer_step="No more bets",
            seats_in=len(body.seats),
            last_call=False,
        )

    def _first(self, f: RoundFacts, body: pb.FirstDealt, at: int) -> None:
        f.first = tuple(body.cards)
        f.betting_open = False
        deciding = body.HasField("offer")
        self._show(
            phase=TablePhase.DECIDING if deciding else TablePhase.DEALING,
            game_number=f.game_number,
            deadline_ms=body.decision_deadline_ms if deciding else 0,
            remaining_ms=max(0, body.decision_deadline_ms - body.now_ms),
            received_at_ms=at,
            dealer_step="Cards dealt",
        )

    def _decision(self, f: RoundFacts, body: pb.DecisionAccepted, at: int) -> None:
        if f.choice is None:
            f.choice = body.choice

    def _decisions_closed(self, f: RoundFacts, body: pb.DecisionsClosed, at: int) -> None:
        if body.defaulted and f.choice is None:
            f.choice, f.defaulted = body.choice, True
        self._show(phase=TablePhase.DEALING, deadline_ms=0, dealer_step="Decisions closed")

    def _second(self, f: RoundFacts, body: pb.SecondDealt, at: int) -> None:
        f.second = tuple(body.seat_cards) + tuple(body.shared_cards)
        self._show(dealer_step="Cards dealt")

    def _settled(self, f: RoundFacts, body: pb.SeatSettled, at: int) -> None:
        f.settled = body
        self._show(phase=TablePhase.SETTLED, deadline_ms=0, dealer_step="Results")

    def _closed(self, f: RoundFacts, body: pb.RoundClosed, at: int) -> None:
        f.betting_open = False
        if f.taken is None:
            f.taken = False  # closed with no bet of this seat in it
        self._show(phase=TablePhase.IDLE, deadline_ms=0, dealer_step="Confirm")

    def _voided(self, f: RoundFacts, body: pb.RoundVoided, at: int) -> None:
        f.betting_open = False
        f.voided = body.reason or "voided"
        self._show(phase=TablePhase.VOIDED, deadline_ms=0, dealer_step="Round voided")

    def _pack_laid(self, f: RoundFacts, body: pb.PackLaid, at: int) -> None:
        # shown only: the cards reach the round by FirstDealt / SecondDealt / SeatSettled
        self._show(
            dealer_step=pack_words(body.pack, body.location),
            pack=body.pack,
            pack_location=body.location,
        )

    def _paused(self, f: RoundFacts, body: pb.TablePaused, at: int) -> None:
        self._show(
            paused=True,
            pause_reason=body.reason,
            remaining_ms=max(0, body.time_left_ms),
            received_at_ms=at,
        )

    def _resumed(self, f: RoundFacts, body: pb.TableResumed, at: int) -> None:
        if (
            self.status.phase in (TablePhase.BETTING, TablePhase.BETS_CLOSED)
            and body.betting_deadline_ms > body.now_ms
            and f.taken is None
            and f.first is None
        ):  # bets not closed, the window moved on: still (or again, after a replay) open
            f.betting_open = True
            self._show(phase=TablePhase.BETTING)
        deadline = {
            TablePhase.BETTING: body.betting_deadline_ms,
            TablePhase.DECIDING: body.decision_deadline_ms,
        }.get(self.status.phase, 0)
        self._show(
            paused=False,
            pause_reason="",
            deadline_ms=deadline,
            remaining_ms=max(0, deadline - body.now_ms) if deadline else 0,
            received_at_ms=at,
        )

    def _finished(self, f: RoundFacts, body: pb.FinishedRound, at: int) -> None:
        f.betting_open = False
        if not body.played:
            f.taken = False
            f.voided = "the table did not take the wager"
            return
        f.taken = f.accepted = True
        if body.HasField("voided"):
            f.voided = body.voided.reason or "voided"
            return
        f.first = tuple(body.first_cards)
        if body.choice and f.choice is None:
            f.choice = body.choice
        f.second = tuple(body.seat_cards) + tuple(body.shared_cards)
        if body.HasField("settled"):
            f.settled = body.settled

    # -- the terminal's next step -----------------------------------------------------------

    def next_action(self, terminal: TerminalRound) -> Action | None:
        """The one next action for the terminal's table round (None: nothing to do now)."""
        game = terminal.table_game
        f = self.facts.get(game) if game else None
        if f is None:
            return None
        if terminal.settled or terminal.voided:
            return self._check(f, terminal)
        if f.voided is not None:
            return ReturnWagers(f.voided)
        if f.taken is False:
            return ReturnWagers("the table did not take the wager (bets closed first)")
        if terminal.phase == "dealing":
            if f.first is not None:
                return PutCards(f.first)
            if self.status.paused:
                return None  # the controller takes no report while paused: sent on resume
            if f.betting_open and not f.accepted and game not in self.sent:
                self.sent.add(game)
                return SendWager(self.wager_report(terminal))
            return None
        if terminal.phase == "decision":
            if f.choice is not None:
                return RecordDecision(f.choice, f.defaulted)
            return None
        if terminal.phase == "settling" and f.second is not None and f.settled is not None:
            return PutCards(f.second)  # with the controller's result at hand, to check at once
        return None

    def _check(self, f: RoundFacts, terminal: TerminalRound) -> Action | None:
        if f.checked:
            return None
        if terminal.voided:
            f.checked = f.voided is not None or f.taken is False
            return None
        if f.settled is None:
            return None
        f.checked = True
        return mismatch(terminal, f.settled)

    def wager_report(self, terminal: TerminalRound) -> pb.SeatRequest:
        """The report of the terminal's journaled wager."""
        return pb.SeatRequest(
            wager=pb.ReportWager(
                table_id=self.table_id,
                game_number=terminal.table_game,
                seat=self.seat,
                wagers=[pb.Wager(spot=s, cents=c) for s, c in sorted(terminal.wagers)],
                positions=terminal.positions,
            )
        )

    def decision_report(self, game_number: int, choice: str) -> pb.SeatRequest:
        """The report of the player's decision."""
        return pb.SeatRequest(
            decision=pb.ReportDecision(
                table_id=self.table_id, game_number=game_number, seat=self.seat, choice=choice
            )
        )

    def join(self, pending_game: int, last_settled: int) -> pb.SeatRequest:
        """The first message of each stream."""
        return pb.SeatRequest(
            join=pb.JoinTable(
                table_id=self.table_id,
                seat=self.seat,
                last_settled_game=last_settled,
                pending_game=pending_game,
            )
        )


#: where a pack goes (the controller's PackSlot.location) -> the dealer's step in words
DEALER_HAND_LOCATION = "dealer"


def pack_words(pack: int, location: str) -> str:
    """The dealer's step for a laid pack: "Pack 2 laid: array 4-6", or "Dealer's hand"."""
    if location == DEALER_HAND_LOCATION:
        return "Dealer's hand"
    return f"Pack {pack} laid: {location}" if location else f"Pack {pack} laid"


def mismatch(terminal: TerminalRound, settled: pb.SeatSettled) -> ResultMismatch | None:
    """Whether the terminal's own settlement differs from the controller's (per wager)."""
    theirs = tuple(sorted((r.spot, r.stake_cents, r.paid_cents) for r in settled.results))
    mine = tuple(sorted(terminal.results))
    if mine == theirs:
        return None
    return ResultMismatch(
        f"table game {terminal.table_game}: the seat computed {list(mine)}, "
        f"the controller {list(theirs)} (spot, stake, paid in cents)"
    )


#: step kind -> how it is folded into the facts and the status
STEP_FOLDS: dict[str, Callable[[SeatMachine, RoundFacts, Any, int], None]] = {
    "round_opened": SeatMachine._opened,
    "wager_accepted": SeatMachine._accepted,
    "refused": SeatMachine._refused,
    "bets_closing": SeatMachine._bets_closing,
    "bets_closed": SeatMachine._bets_closed,
    "first_dealt": SeatMachine._first,
    "decision_accepted": SeatMachine._decision,
    "decisions_closed": SeatMachine._decisions_closed,
    "second_dealt": SeatMachine._second,
    "seat_settled": SeatMachine._settled,
    "round_closed": SeatMachine._closed,
    "round_voided": SeatMachine._voided,
    "finished_round": SeatMachine._finished,
    "pack_laid": SeatMachine._pack_laid,
    "table_paused": SeatMachine._paused,
    "table_resumed": SeatMachine._resumed,
}
