"""A terminal seated at a table: the seat's machine and client on a :class:`TerminalRuntime`.

Money stays on the terminal.  :meth:`SeatRuntime.bet` commits the player's placed wagers in
the terminal's own journal (``Deal`` naming the table's game: credits debited, meters moved,
journaled) and only then are they reported.  Cards come only from the controller: a table
round's ``cards_needed`` is 0, so the terminal never draws for it; the controller's cards go in
as ``CardsDrawn`` and the terminal settles the round itself with the same pure rules
(``kiosk.kernel.games.registry``).  Its result is checked against the controller's, wager by wager;
a difference raises the tilt :attr:`TiltCode.TABLE_RESULT_MISMATCH` (the terminal keeps its
own figure).  A decision is reported first and journaled when the controller has journaled it
(its answer, or the default at the window's end), so the seat and the controller never hold
different decisions.  A round the controller voided, or that never took the seat's wager, is
voided on the terminal (``VoidRound``: every cent back, journaled).

**A table wager is what lies on the felt when bets close** (decision 0054): a seat has no
DEAL.  :meth:`pump` commits the chips on the felt by itself, :data:`COMMIT_LEAD_MS` before the
betting window ends on the seat's count of it (journaled first, then reported, as
:meth:`bet` does); chips that cannot make a wager (no mandatory wager, positions missing) stay
on the felt and the seat says why.  A dealer who closes bets early makes a last call
(decision 0064): the seat commits its felt as soon as it hears of it, and the controller closes
bets when every seat has reported or after ``LAST_CALL_MS`` (a report later than that is
refused, and the seat returns the wager it journaled: every cent back).

Everything runs on the terminal's thread: :meth:`pump` drains the client's inbox and carries
out the machine's actions until there is none (the caller's loop calls it, as it calls
``TerminalRuntime.pump``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import CommandError, DuplicateReportError, IllegalCommandError
from kiosk.terminal.core.state import Phase
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.hostlink import pki
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.seat.client import SeatClient
from kiosk.terminal.seat.machine import (
    Action,
    PutCards,
    RecordDecision,
    ResultMismatch,
    ReturnWagers,
    SeatMachine,
    SeatProtocolError,
    SendWager,
    TerminalRound,
    WrongTableError,
)
from kiosk.terminal.seat.status import Connection, SeatStatus
from kiosk.terminal.store.journal import StoreError
from proto.turbokiosk.v1 import table_pb2 as pb

#: the terminal's phases of a round in progress, as the machine names them
_PHASES = {
    Phase.DEALING: "dealing",
    Phase.DECISION: "decision",
    Phase.SETTLING: "settling",
    Phase.RESULT: "result",
}

#: the most actions one pump carries out (a round has at most five)
_MAX_ACTIONS = 16
#: the seat commits the chips on the felt this long before its betting window ends, so that the
#: report reaches the controller before its deadline (a round trip on a table's LAN is far less)
COMMIT_LEAD_MS = 1500


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class SeatNotReadyError(IllegalCommandError):
    """The seat cannot take this now (no link, bets closed, no decision pending)."""


class SeatRuntime:
    """One terminal (seat 0 of it) as seat ``seat`` of table ``table_id``."""

    def __init__(
        self,
        runtime: TerminalRuntime,
        table_id: str,
        seat: int,
        *,
        connect: Callable[[Callable[[], pb.SeatRequest]], SeatClient],
        clock: Callable[[], int] = monotonic_ms,
    ) -> None:
        """``connect(join)`` starts the client (``join`` makes each stream's first message)."""
        self.runtime = runtime
        self.machine = SeatMachine(table_id, seat)
        self.clock = clock
        self.notes: list[str] = []
        #: why the chips on the felt were not played at the last close of bets ("" none)
        self.unplayed = ""
        #: progressive hits the table told of, not yet paid (a handpay waits), by key
        self.hits_due: dict[str, pb.SeatProgressiveHit] = {}
        self._join = self.machine.join(*self._games())
        self.client = connect(lambda: self._join)

    @classmethod
    def over_tls(
        cls,
        runtime: TerminalRuntime,
        address: str,
        table_id: str,
        seat: int,
        pki_dir: Path,
        cert_name: str | None = None,
    ) -> SeatRuntime:
        """A seat with its ``seat-<n>`` certificate from ``pki_dir`` (the host's CA tooling)."""
        creds = pki.credentials(pki_dir, cert_name or f"seat-{seat}")
        return cls(
            runtime,
            table_id,
            seat,
            connect=lambda join: SeatClient(address, creds, join).start(),
        )

    # -- what the screen reads ----------------------------------------------------------------

    def status(self) -> SeatStatus:
        """The table's status now (kiosk.terminal.presentation.table_status.table_status reads
        it)."""
        return self.machine.status

    def terminal_round(self) -> TerminalRound:
        """What the terminal's journal holds of its table round."""
        rnd = self.runtime.state.round
        if rnd is None or not rnd.table_game:
            return TerminalRound()
        phase = self.runtime.state.phase
        mine = rnd.settlement[0] if rnd.settlement else None
        bet = rnd.bets[0].bet if rnd.bets else None
        return TerminalRound(
            table_game=rnd.table_game,
            phase=_PHASES.get(phase, "result" if rnd.settled_at else phase.value),
            wagers=tuple(sorted(bet.wagers.items())) if bet else (),
            positions=tuple(bet.positions) if bet else (),
            settled=mine is not None,
            voided=bool(rnd.voided),
            results=tuple((r.spot, r.stake, r.paid) for r in mine.results) if mine else (),
        )

    def _games(self) -> tuple[int, int]:
        """(pending table game, last settled table game) for the join."""
        view = self.terminal_round()
        if not view.table_game:
            return 0, 0
        if view.settled or view.voided:
            return 0, view.table_game
        return view.table_game, 0

    # -- the player's two acts ----------------------------------------------------------------

    def bet(self) -> list[e.Event]:
        """Commit the placed wagers for the table's open round, then report them."""
        status = self.machine.status
        if status.connection is not Connection.SEATED:
            raise SeatNotReadyError(
                f"new bets are disabled: {status.reason or 'not seated at the table'}"
            )
        if status.paused:
            raise SeatNotReadyError(f"the table is paused: {status.pause_reason}")
        if not status.bets_open:
            raise SeatNotReadyError("bets are closed: wait for the dealer's next game")
        events = self.runtime.execute(
            c.Deal(table_id=self.machine.table_id, table_game=status.game_number)
        )
        self._converge()
        return events

    def decide(self, choice: str) -> None:
        """Report the player's decision (journaled when the controller has journaled it)."""
        s = self.runtime.state
        rnd = s.round
        offer = rnd.offers.get(0) if rnd is not None else None
        if rnd is None or not rnd.table_game or s.phase is not Phase.DECISION or offer is None:
            raise SeatNotReadyError("there is no decision to make")
        if self.machine.status.paused:
            raise SeatNotReadyError(f"the table is paused: {self.machine.status.pause_reason}")
        if choice not in offer.decision.choices:
            raise c.InvalidArgumentError(f"choose one of {', '.join(offer.decision.choices)}")
        if choice == offer.decision.take and offer.decision.extra_wager > s.credits[0]:
            raise IllegalCommandError(f"not enough credits to {choice}")
        if not self.client.send(self.machine.decision_report(rnd.table_game, choice)):
            raise SeatNotReadyError("the table controller is not connected: the default stands")

    # -- the loop --------------------------------------------------------------------------

    def pump(self) -> list[str]:
        """Take the controller's news and bring the terminal up to it; notes of what happened."""
        self.notes = []
        while not self.client.inbox.empty():
            what, body = self.client.inbox.get_nowait()
            try:
                if isinstance(body, pb.SeatResponse) and body.HasField("progressive_hit"):
                    self._hit_told(body)
                elif isinstance(body, pb.SeatResponse):
                    self.machine.receive(body, self.clock())
                else:
                    self.machine.link(what, body)
            except SeatProtocolError as exc:
                self.notes.append(f"ignored: {exc}")
            self._converge()
        self._converge()
        self._pay_hits()
        self._commit_at_close()
        return self.notes

    def _hit_told(self, step: pb.SeatResponse) -> None:
        """The table booked a progressive hit of this seat: due until paid (decision 0066)."""
        if step.table_id != self.machine.table_id or step.seat != self.machine.seat:
            raise WrongTableError(f"a progressive hit for {step.table_id!r} seat {step.seat}")
        hit = step.progressive_hit
        if not any(p.key == hit.key for p in self.runtime.state.progressive_paid):
            self.hits_due[hit.key] = hit

    def _pay_hits(self) -> None:
        """Pay the hits due, once each (the terminal's journal refuses a key twice)."""
        for key, hit in list(self.hits_due.items()):
            command = c.PayProgressive(
                seat=0,
                key=key,
                progressive=hit.progressive,
                outcome=hit.outcome,
                award=hit.award_cents,
                handpay=hit.handpay,
            )
            try:
                self.runtime.execute(command)
            except DuplicateReportError:
                pass
            except (CommandError, StoreError) as exc:
                self.notes.append(f"progressive hit waits: {exc}")
                break
            else:
                self.notes.append(f"progressive hit paid: {key}")
            del self.hits_due[key]

    def _commit_at_close(self) -> None:
        """Commit the chips on the felt as the betting window closes (no DEAL at a table)."""
        status = self.machine.status
        if not status.bets_open:
            return
        if not status.last_call and status.remaining_at(self.clock()) > COMMIT_LEAD_MS:
            return
        s = self.runtime.state
        if s.phase is not Phase.WAGERING or not s.pending_wagers.get(0) or s.lockups():
            return
        try:
            self.bet()
        except CommandError as exc:
            self.notes.append(f"not played: {exc}")
            self.unplayed = str(exc)
        else:
            self.notes.append("committed at the close of bets")
            self.unplayed = ""

    def _converge(self) -> None:
        for _ in range(_MAX_ACTIONS):
            action = self.machine.next_action(self.terminal_round())
            if action is None:
                break
            try:
                self._carry_out(action)
            except (CommandError, StoreError) as exc:
                self.notes.append(f"{type(action).__name__}: {exc}")
                break
        self._join = self.machine.join(*self._games())

    def _carry_out(self, action: Action) -> None:
        if isinstance(action, SendWager):
            self.client.send(action.report)
            return
        if isinstance(action, PutCards):
            command: c.Command = c.CardsDrawn(action.cards)
        elif isinstance(action, RecordDecision):
            command = c.Decide(choice=action.choice, automatic=action.automatic)
        elif isinstance(action, ReturnWagers):
            command = c.VoidRound(action.reason)
        else:
            assert isinstance(action, ResultMismatch)
            command = c.RaiseTilt(
                code=TiltCode.TABLE_RESULT_MISMATCH, reason=action.reason, needs_attendant=True
            )
        self.runtime.execute(command)
        self.notes.append(type(action).__name__)

    def close(self) -> None:
        self.client.close()


@dataclass(frozen=True)
class TableSeating:
    """Where a terminal sits (``turbokiosk run --table``): the composition root seats the
    terminal with it after the power-up (:meth:`seat_on`)."""

    address: str
    table_id: str
    seat: int
    pki_dir: Path

    def seat_on(self, runtime: TerminalRuntime) -> SeatRuntime:
        """The powered-up terminal as this seat (raises ``PkiError`` without its certificate)."""
        return SeatRuntime.over_tls(runtime, self.address, self.table_id, self.seat, self.pki_dir)
