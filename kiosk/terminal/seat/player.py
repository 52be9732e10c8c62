"""A seeded player on a real seated terminal (the headless ``turbokiosk seat``: tests, soak).

It presses what a player would: inserts a note when the credits run low, places a random valid
bet when the table's betting countdown runs (through the terminal's own commands, so the
terminal's limits and journal apply), commits it with :meth:`SeatRuntime.bet`, and answers its
decision at random.  It decides nothing about money: the terminal and the seat's runtime do.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass

from kiosk.terminal.core import commands as c
from kiosk.terminal.core.commands import CommandError
from kiosk.terminal.core.state import Phase
from kiosk.terminal.devices.inprocess import InProcessBillValidator
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.seat.runtime import SeatRuntime


@dataclass
class PlayerTally:
    """What the player did (its own count; the journal is the record)."""

    bets: int = 0
    refusals: int = 0
    notes: int = 0


class SeatPlayer:
    """Plays one seated terminal (seat 0 of it)."""

    def __init__(
        self,
        runtime: TerminalRuntime,
        seat: SeatRuntime,
        validator: InProcessBillValidator,
        *,
        seed: int | None = None,
    ) -> None:
        self.rt, self.seat, self.validator = runtime, seat, validator
        self.rand = random.Random(seed)
        self.tally = PlayerTally()
        self._bet_game = 0
        self._decided_game = 0

    def step(self) -> None:
        """One look at the table: bet if its countdown runs, decide if asked."""
        status = self.seat.status()
        s = self.rt.state
        if s.lockups():
            return
        if (
            status.bets_open
            and status.game_number != self._bet_game
            and s.phase in (Phase.IDLE, Phase.RESULT, Phase.WAGERING)
        ):
            self._bet_game = status.game_number
            self._fund()
            if self._place():
                try:
                    self.seat.bet()
                    self.tally.bets += 1
                except CommandError:
                    self.tally.refusals += 1
                    self._clear()
        rnd = s.round
        if (
            s.phase is Phase.DECISION
            and rnd is not None
            and rnd.table_game
            and rnd.table_game != self._decided_game
            and 0 in rnd.offers
        ):
            self._decided_game = rnd.table_game
            offer = rnd.offers[0].decision
            choice = self.rand.choice(offer.choices)
            if choice == offer.take and s.credits[0] < offer.extra_wager:
                choice = offer.default
            try:
                self.seat.decide(choice)
            except CommandError:
                self.tally.refusals += 1

    def _fund(self) -> None:
        cfg = self.rt.state.config
        if self.rt.state.credits[0] >= cfg.min_wager * 20:
            return
        note = 10_000 if 10_000 in cfg.accepted_notes else max(cfg.accepted_notes)
        self.validator.insert(note)
        for _ in range(4):
            self.rt.pump()
        self.tally.notes += 1

    def _clear(self) -> None:
        with contextlib.suppress(CommandError):
            self.rt.execute(c.ClearWagers())

    def _place(self) -> bool:
        rt = self.rt
        cfg = rt.state.config
        game = rt.core.game()
        self._clear()
        try:
            if game.positions:
                rt.execute(c.SelectPositions(tuple(sorted(self.rand.sample(range(9), 3)))))
            for spot in game.spots:
                if not spot.mandatory and self.rand.random() < 0.5:
                    continue
                amount = cfg.min_wager * self.rand.choice((1, 2, 5))
                rt.execute(c.PlaceWager(spot=spot.id, amount=amount))
        except CommandError:
            self.tally.refusals += 1
            self._clear()
            return False
        return True
