"""A terminal core in memory for property tests: no SQLite, no fsync, no runtime.

:class:`World` drives a :class:`TerminalCore` as the runtime does (handle, apply, draw the
cards the core asks for, journal the step) with a :class:`MemoryJournal` as its store, and a
power cycle rebuilds a fresh core from that journal.  The checks are computed from the
journaled events alone, independently of the core's fold: each seat's money, the meters, and
the state a replay gives.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.event_sets import ESCROW_ENDINGS, kind_names
from kiosk.terminal.core.meters import CORE_METERS
from kiosk.terminal.core.state import Phase, TerminalState
from kiosk.terminal.store.journal import Projections
from kiosk.terminal.store.memory import MemoryJournal

#: the refusals a command may raise: a bare CommandError is never one of them
ERROR_KINDS = (
    c.IllegalCommandError,
    c.TerminalLockedError,
    c.InvalidArgumentError,
    c.DuplicateReportError,
    c.ReportMismatchError,
)
#: the journaled kinds the runtime seeds the core's memory of escrows from at power-up
RESOLVING_KINDS = kind_names(ESCROW_ENDINGS)
START = 1_800_000_000_000


def field_of(record: Any, name: str) -> Any:
    """A field of a money or round record (a typed record, or its dict form); a bet's wagers
    and an offer's choices are found in the game's record a typed one wraps."""
    if isinstance(record, dict):
        return record[name]
    if not hasattr(record, name):
        inner = getattr(record, "bet", None) or getattr(record, "decision", None)
        return getattr(inner, name)
    return getattr(record, name)


def fingerprint(core: TerminalCore) -> object:
    """Everything a command could change: the durable state, the unsaved wagers, the memory."""
    s = core.state
    return (
        s.to_snapshot(),
        copy.deepcopy(s.pending_wagers),
        copy.deepcopy(s.pending_positions),
        s.selected_edition,
        dict(core.resolved),
    )


def durable(state: TerminalState) -> dict[str, Any]:
    """The part of a state a replay must rebuild: the snapshot without what only the screen
    holds (the edition on show, and the wagering phase of chips not yet dealt)."""
    snapshot = state.to_snapshot()
    del snapshot["selected_edition"]
    if state.phase is Phase.WAGERING:
        snapshot["phase"] = (Phase.RESULT if state.round is not None else Phase.IDLE).value
    return snapshot


@dataclass
class Outcome:
    """What one command did: its events, or the refusal it raised."""

    events: list[e.Event]
    error: c.CommandError | None = None


class World:
    """A core, its in-memory journal, a seeded deck and a clock."""

    def __init__(self, config: TerminalConfig, seed: int, snapshot_every: int = 3) -> None:
        self.config = config
        self.random = random.Random(seed)
        self.now = START
        self.snapshot_every = snapshot_every
        self.journal = MemoryJournal()
        self.cycles = 0
        self.core = self._power_up()

    def _power_up(self) -> TerminalCore:
        check = self.journal.power_up(
            None, lambda: TerminalState.genesis(self.config).to_snapshot(), self.now
        )
        assert check.critical is None and check.state is not None, check.critical
        core = TerminalCore(check.state)
        rows = self.journal.event_log(kinds=RESOLVING_KINDS, last=4 * len(core.state.credits))
        core.remember(row.event for row in reversed(rows))
        return core

    def power_cycle(self) -> None:
        """Drop the core (unsaved wagers with it) and rebuild it from the journal."""
        before = durable(self.core.state)
        self.core = self._power_up()
        assert durable(self.core.state) == before
        self.cycles += 1
        self.run(c.PowerUp(software_version="test", recovered=""))

    def draw(self, n: int) -> tuple[int, ...]:
        rnd = self.core.state.round
        assert rnd is not None
        dealt = set(field_of(rnd, "first"))
        dealt.update(x for cards in field_of(rnd, "seat_cards") for x in cards)
        return tuple(self.random.sample([x for x in range(52) if x not in dealt], n))

    def run(self, command: c.Command) -> Outcome:
        """Handle ``command`` as the runtime does; a refusal must change nothing."""
        core = self.core
        before = fingerprint(core)
        refusal: c.CommandError | None = None
        try:
            events = core.handle(command, self.now)
        except c.CommandError as exc:
            refusal = exc
        if refusal is not None:
            assert isinstance(refusal, ERROR_KINDS), f"untyped refusal {refusal!r}"
            assert fingerprint(core) == before, f"{command} refused ({refusal}), state changed"
            return Outcome([], refusal)
        core.apply(events)
        while need := core.cards_needed():
            more = core.handle(c.CardsDrawn(self.draw(need)), self.now)
            core.apply(more)
            events += more
        if events:
            settled = any(isinstance(x, e.RoundSettled) for x in events)
            due = settled and core.state.game_number % self.snapshot_every == 0
            snapshot = core.state.to_snapshot() if due else None
            self.journal.commit(events, Projections(snapshot=snapshot))
        self.now += 1_000
        return Outcome(events)

    def events(self) -> list[e.Event]:
        return [row.event for row in self.journal.rows()]


def tally(events: Iterable[e.Event]) -> Counter[str]:
    """The meters the events call for, counted from the events alone."""
    m: Counter[str] = Counter()
    raised: set[str] = set()
    spots: dict[int, str] = {}
    for ev in events:
        if isinstance(ev, e.BillStacked):
            m["bills_in"] += ev.value
            m["bills_in_count"] += 1
            m[f"bills_in.{ev.value}"] += 1
        elif isinstance(ev, e.TicketRedeemed):
            m["tickets_in"] += ev.value
            m["tickets_in_count"] += 1
        elif isinstance(ev, e.RoundStarted):
            for bet in ev.bets:
                for spot, amount in field_of(bet, "wagers").items():
                    m["coin_in"] += amount
                    m[f"wager_in.{spot}"] += amount
        elif isinstance(ev, e.DecisionOffered):
            spots[ev.seat] = ev.spot
        elif isinstance(ev, e.DecisionMade) and ev.extra_wager:
            m["coin_in"] += ev.extra_wager
            m[f"wager_in.{spots[ev.seat]}"] += ev.extra_wager
        elif isinstance(ev, e.RoundSettled):
            for seat in ev.seats:
                stake, paid = field_of(seat, "stake"), field_of(seat, "paid")
                m["games_played"] += 1
                m[
                    "games_won"
                    if paid > stake
                    else "games_pushed"
                    if paid == stake
                    else "games_lost"
                ] += 1
                for result in field_of(seat, "results"):
                    m[f"wager_out.{field_of(result, 'spot')}"] += field_of(result, "paid")
                if not field_of(seat, "handpay"):
                    m["coin_out"] += paid
        elif isinstance(ev, e.VoucherPrinted):
            m["tickets_out"] += ev.value
            m["tickets_out_count"] += 1
        elif isinstance(ev, e.HandpayReset):
            m["handpay_count"] += 1
            m["handpaid_jackpots" if ev.kind == "jackpot" else "handpaid_cancelled_credits"] += (
                ev.value
            )
        elif isinstance(ev, e.TiltRaised):
            if ev.code not in raised:
                m["tilts"] += 1
            raised.add(ev.code)
        elif isinstance(ev, e.TiltCleared):
            raised.discard(ev.code)
        elif isinstance(ev, e.DoorChanged) and ev.open:
            m["door_opens"] += 1
        elif isinstance(ev, e.PoweredUp):
            m["power_resets"] += 1
    return m


@dataclass
class SeatLedger:
    """One seat's money, from the events: in, played, won, out."""

    money_in: int = 0
    played: int = 0
    won: int = 0
    money_out: int = 0

    @property
    def balance(self) -> int:
        return self.money_in - self.played + self.won - self.money_out


def ledgers(events: Iterable[e.Event], seats: int) -> list[SeatLedger]:
    """Each seat's ledger, from the events alone."""
    out = [SeatLedger() for _ in range(seats)]
    for ev in events:
        if isinstance(ev, e.BillStacked | e.TicketRedeemed):
            out[ev.seat].money_in += ev.value
        elif isinstance(ev, e.RoundStarted):
            for bet in ev.bets:
                out[field_of(bet, "seat")].played += sum(field_of(bet, "wagers").values())
        elif isinstance(ev, e.DecisionMade):
            out[ev.seat].played += ev.extra_wager
        elif isinstance(ev, e.RoundSettled):
            for seat in ev.seats:
                if not field_of(seat, "handpay"):
                    out[field_of(seat, "seat")].won += field_of(seat, "paid")
        elif isinstance(ev, e.VoucherPrinted) or (
            isinstance(ev, e.HandpayReset) and ev.kind != "jackpot"
        ):
            out[ev.seat].money_out += ev.value
    return out


def check_invariants(world: World) -> None:
    """Money conservation per seat and on the meters, meters against the events, the chain."""
    state = world.core.state
    events = world.events()
    for seat, ledger in enumerate(ledgers(events, len(state.credits))):
        assert state.credits[seat] >= 0
        assert state.credits[seat] == ledger.balance, (seat, ledger, state.credits)
    life = state.lifetime
    money_in = life["bills_in"] + life["tickets_in"]
    out = life["tickets_out"] + life["handpaid_cancelled_credits"]
    assert money_in == life["coin_in"] - life["coin_out"] + out + sum(state.credits)
    assert world.core.audit_credits() is None
    expected = tally(events)
    lifetime = state.lifetime.as_dict()
    for name in {*CORE_METERS, *expected}:
        assert lifetime.get(name, 0) == expected[name], (name, lifetime.get(name), expected[name])
    resets = [i for i, ev in enumerate(events) if isinstance(ev, e.PeriodMetersReset)]
    since = tally(events[resets[-1] + 1 :] if resets else events)
    period = state.period.as_dict()
    for name in {*CORE_METERS, *since}:
        assert period.get(name, 0) == since[name], ("period", name)
    assert world.journal.verify_chain() == len(events)


def replayed(world: World) -> TerminalState:
    """A fresh core from the genesis snapshot with every journaled event applied."""
    genesis = TerminalState.genesis(world.config)
    core = TerminalCore(genesis)
    core.apply(world.events())
    return core.state
