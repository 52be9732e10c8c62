"""A robot player: inserts notes, wagers, decides and cashes out at random.

It drives a real :class:`~kiosk.runtime.terminal.TerminalRuntime` through the same commands a
player's touches send, handles every lockup the way an attendant would, and checks the
terminal's invariants after every game.  ``turbokiosk soak`` and the power-fail tests use it.
The robot's own choices come from a seeded :class:`random.Random` (reproducible play); the
cards always come from the terminal's certified RNG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kiosk.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.runtime.terminal import TerminalRuntime
from kiosk.terminal import commands as c
from kiosk.terminal.commands import CommandError
from kiosk.terminal.state import Phase
from kiosk.terminal.tilts import OPERATOR_TILTS, TiltCode


class InvariantError(AssertionError):
    """The terminal broke an invariant the robot checks after every game."""


@dataclass
class RobotStats:
    """What the robot did."""

    games: int = 0
    notes: int = 0
    cashouts: int = 0
    handpays: int = 0
    faults: int = 0


class Robot:
    """Plays a terminal at random."""

    def __init__(
        self,
        runtime: TerminalRuntime,
        validator: InProcessBillValidator,
        printer: InProcessPrinter,
        choices: random.Random,
        editions: list[str] | None = None,
        fault_rate: float = 0.02,
    ) -> None:
        self.rt = runtime
        self.validator = validator
        self.printer = printer
        self.rand = choices
        self.editions = editions or [ed.edition for ed in runtime.state.config.editions]
        self.fault_rate = fault_rate
        self.stats = RobotStats()

    def settle_lockups(self) -> None:
        """Do what an attendant would: close doors, pay handpays, fix the printer, clear tilts."""
        rt = self.rt
        rt.pump()
        s = rt.state
        for door in list(s.doors_open):
            rt.execute(c.SetDoor(door=door, open=False))
        if s.service_role is not None:
            rt.execute(c.SetService(active=False))
        if s.handpay is not None:
            rt.execute(c.AttendantReset(by="robot-attendant"))
            self.stats.handpays += 1
        if not self.printer.ready():
            self.printer.paper, self.printer.fault = True, None
        for code in list(s.tilts):
            # the robot plays every role: an operator's tilt (a second withdrawn head) too
            by = "operator (soak robot)" if code in OPERATOR_TILTS else "robot-attendant"
            rt.execute(c.ClearTilt(code=code, by=by))
        if s.disabled is not None:
            rt.execute(c.SetEnabled(enabled=True))
        rt.pump()

    def finish_round(self) -> None:
        """Answer every pending decision at random until the round settles."""
        rt = self.rt
        while rt.state.phase is Phase.DECISION and rt.state.round is not None:
            rnd = rt.state.round
            pending = [seat for seat in rnd.offers if seat not in rnd.choices]
            for seat in pending:
                offer = rnd.offers[seat].decision
                choice = self.rand.choice(offer.choices)
                if choice == offer.take and rt.state.credits[seat] < offer.extra_wager:
                    choice = offer.default
                rt.execute(c.Decide(choice=choice, seat=seat))

    def _fund(self) -> None:
        cfg = self.rt.state.config
        while self.rt.state.credits[0] < cfg.min_wager * 6:
            note = self.rand.choice(cfg.accepted_notes)
            if self.rt.state.credits[0] + note > cfg.credit_limit:
                break
            self.validator.insert(note)
            self.rt.pump()
            self.stats.notes += 1

    def _wager(self) -> bool:
        rt = self.rt
        s = rt.state
        cfg = s.config
        if s.phase in (Phase.IDLE, Phase.RESULT):
            rt.execute(c.SelectEdition(self.rand.choice(self.editions)))
        game = rt.core.game()
        budget = s.credits[0] // 3
        if rt.state.round is not None and self.rand.random() < 0.3:
            try:
                rt.execute(c.RepeatWagers())
                return True
            except CommandError:
                pass
        if game.first_deal == 9:
            rt.execute(c.SelectPositions(tuple(self.rand.sample(range(9), 3))))
        units = max(1, min(cfg.max_wager, budget) // cfg.min_wager)
        for spot in game.spots:
            if not spot.mandatory and self.rand.random() < 0.6:
                continue
            amount = cfg.min_wager * self.rand.randint(1, min(units, 4))
            try:
                rt.execute(c.PlaceWager(spot=spot.id, amount=amount))
            except CommandError:
                if spot.mandatory:
                    rt.execute(c.ClearWagers())
                    return False
        return True

    def _maybe_fault(self) -> None:
        if self.rand.random() >= self.fault_rate:
            return
        self.stats.faults += 1
        kind = self.rand.randrange(4)
        if kind == 0:
            self.rt.execute(c.SetDoor(door="main", open=True))
        elif kind == 1:
            self.printer.paper = False
        elif kind == 2:
            self.rt.execute(c.SetEnabled(enabled=False, reason="host disable (robot)"))
        else:
            self.rt.execute(
                c.RaiseTilt(code=TiltCode.BILL_JAM, reason="bill validator jam (robot)")
            )

    def play_game(self) -> None:
        """One complete game (or as far as lockups allow), then the invariant checks."""
        self.settle_lockups()
        if self.rt.state.phase is Phase.CASHOUT:
            self.rt.pump()
        self.finish_round()
        self._fund()
        if self._wager():
            self._maybe_fault()
            try:
                self.rt.execute(c.Deal())
            except CommandError:
                self.settle_lockups()
                self.rt.execute(c.ClearWagers())
                return
            self.settle_lockups()
            self.finish_round()
            self.stats.games += 1
        if self.rand.random() < 0.15 and any(self.rt.state.credits):
            self._maybe_fault()
            self.settle_lockups()
            self.rt.cash_out()
            self.rt.pump()
            self.settle_lockups()
            self.stats.cashouts += 1
        self.check_invariants()

    def check_invariants(self) -> None:
        """Credits reconcile with the meters and the journal head matches the state."""
        audit = self.rt.core.audit_credits()
        if audit is not None:
            raise InvariantError(audit)
        if self.rt.state.critical is not None:
            raise InvariantError(f"critical memory error: {self.rt.state.critical}")
        if any(x < 0 for x in self.rt.state.credits):
            raise InvariantError(f"negative credits {self.rt.state.credits}")
