"""A robot player: inserts notes, wagers, decides and cashes out at random.

It drives a real :class:`~kiosk.terminal.runtime.terminal.TerminalRuntime` through the same commands
a player's touches send, handles every lockup the way an attendant would, and checks the
terminal's invariants after every game.  ``turbokiosk soak`` and the power-fail tests use it.
The robot's own choices come from a seeded :class:`random.Random` (reproducible play); the
cards always come from the terminal's certified RNG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.state import Phase, TerminalState
from kiosk.terminal.core.tilts import DISPUTE_TILTS, OPERATOR_TILTS, TiltCode
from kiosk.terminal.devices.inprocess import InProcessBillValidator, InProcessPrinter
from kiosk.terminal.runtime.terminal import TerminalRuntime

#: tries in a row without a game dealt before the robot says the terminal will not play
MAX_IDLE_TRIES = 200


class InvariantError(AssertionError):
    """The terminal broke an invariant the robot checks after every game."""


class NotPlayingError(Exception):
    """The terminal will not take the robot's play (a note refused, no game dealt try after
    try): the message says why, from the terminal's own lockups."""


def why_not_playing(state: TerminalState) -> str:
    """What keeps a terminal from playing, from its state (one line)."""
    reasons = []
    if state.critical is not None:
        reasons.append(f"critical memory error: {state.critical}")
    if state.storage_full is not None:
        reasons.append(f"storage full: {state.storage_full}")
    for code, tilt in state.tilts.items():
        attendant = " (needs an attendant)" if tilt.needs_attendant else ""
        reasons.append(f"tilt {code}{attendant}: {tilt.reason}")
    if state.handpay is not None:
        reasons.append("a handpay is pending")
    if state.doors_open:
        reasons.append(f"door open: {', '.join(state.doors_open)}")
    if state.disabled is not None:
        reasons.append(f"disabled: {state.disabled}")
    if state.service_role is not None:
        reasons.append("in the service menu")
    return "; ".join(reasons) or f"no lockup shown, the terminal is {state.phase.value}"


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
        self._idle_tries = 0  # play_game calls in a row that dealt no game

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
            if code in DISPUTE_TILTS:  # a device records dispute is the host's to confirm
                continue
            # the robot plays every role: an operator's tilt (a second withdrawn head) too
            by = "operator (soak robot)" if code in OPERATOR_TILTS else "robot-attendant"
            rt.execute(c.ClearTilt(code=code, by=by))
        if s.disabled is not None and s.disabled != c.ANCHOR_WAIT:  # that one is the link's
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
            before = self.rt.state.credits[0]
            if before + note > cfg.credit_limit:
                break
            self.validator.insert(note)
            self.rt.pump()
            self.stats.notes += 1
            if self.rt.state.credits[0] <= before:  # refused: it would be refused forever
                raise NotPlayingError(
                    f"a note of {note} cents was not credited: {why_not_playing(self.rt.state)}"
                )

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
        """One complete game (or as far as lockups allow), then the invariant checks.

        :class:`NotPlayingError` when the terminal will not play: a note it does not credit,
        or :data:`MAX_IDLE_TRIES` calls in a row without a game dealt."""
        games = self.stats.games
        self._play_game()
        self._idle_tries = 0 if self.stats.games > games else self._idle_tries + 1
        if self._idle_tries >= MAX_IDLE_TRIES:
            raise NotPlayingError(
                f"no game dealt in {MAX_IDLE_TRIES} tries: {why_not_playing(self.rt.state)}"
            )

    def _play_game(self) -> None:
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
