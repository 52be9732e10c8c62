"""The table core: commands in, events out, state folded from events (sans-IO, no clock).

Two explicit tables drive it, in the manner of h11 and :mod:`kiosk.terminal.core.core`:

- :data:`COMMAND_PHASES`: in which phases each command is legal (outside them
  :class:`IllegalCommandError`, and nothing changes);
- :data:`TRANSITIONS`: the phase each event leads to from the phase it happens in.

:meth:`TableCore.handle` never changes the state; it returns the events a command causes.  The
controller journals them and only then calls :meth:`TableCore.apply`, so replaying a journal
through :meth:`TableCore.apply` rebuilds exactly the same state.  Time is an argument (``now``,
milliseconds); cards are an input (:class:`~kiosk.table.core.commands.CardsDrawn`) answering
:meth:`TableCore.draws_needed`.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from kiosk.kernel.games.base import GameRules, RuleError, SeatBet
from kiosk.kernel.games.registry import load_game
from kiosk.kernel.games.table_phase import TablePhase
from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.commands import (
    DuplicateReportError,
    IllegalCommandError,
    InvalidArgumentError,
    ReportMismatchError,
    StaleReportError,
)

#: the table's phase (:mod:`kiosk.kernel.games.table_phase`, one enum for controller, seats and
# screens)
Phase = TablePhase

DECK_SIZE = 52
#: cards in a pack a shuffler presents (or a dealer enters)
PACK_SIZE = 3


class DealMode(Enum):
    SHARED = "one-deck"  # one deck for the whole table
    STADIUM = "seat-shuffles"  # stadium mode: each seat completes its hand from its own shuffle


class CardSource(Enum):
    VIRTUAL = "virtual"  # the certified deck (rng/): a fully electronic table
    SHUFFLER = "shuffler"  # a card-reading shuffler on a serial port presents each pack
    MANUAL = "manual"  # the dealer enters each pack's cards on the Dealer Terminal


class TableConfigError(ValueError):
    """A table configuration that cannot run."""


@dataclass(frozen=True)
class TableConfig:
    """One table: its id, the game, how its cards are dealt and its timers (milliseconds)."""

    table_id: str
    edition: str
    paytables: tuple[tuple[str, str], ...] = ()
    mode: DealMode = DealMode.SHARED
    betting_ms: int = 15_000
    decision_ms: int = 10_000
    max_seats: int = 200
    recall_rounds: int = 100
    card_source: CardSource = CardSource.VIRTUAL


@dataclass(frozen=True)
class DrawPart:
    """``count`` cards from the round's one deck, or (``own_shuffle``) from a fresh shuffle of
    the cards not in ``excluded``."""

    count: int
    own_shuffle: bool
    excluded: frozenset[int] = frozenset()


@dataclass(frozen=True)
class PackSlot:
    """A pack the dealer lays: its number in the round, where it goes, whose it is (-1: shared)."""

    pack: int
    location: str
    seat: int = -1


@dataclass(frozen=True)
class RoundRecord:
    """The table's recall of one finished round: every seat's wagers, cards, choice, result."""

    game_number: int
    first: tuple[int, ...]
    shared_second: tuple[int, ...]
    bets: tuple[tuple[int, e.Bet], ...]
    outcomes: tuple[e.SeatOutcome, ...]
    voided: str | None = None
    returns: tuple[tuple[int, int], ...] = ()
    card_source: str = "virtual"
    packs: tuple[e.PackLaid, ...] = ()
    deck_checks: tuple[e.DeckChecked, ...] = ()
    tilts: tuple[e.CardTilted, ...] = ()


@dataclass
class TableMeters:
    """Table meters in cents and counts (never reset)."""

    rounds_played: int = 0
    rounds_voided: int = 0
    seat_rounds: int = 0
    wagered: int = 0
    paid: int = 0
    returned: int = 0


@dataclass
class RoundState:
    game_number: int
    betting_deadline: int
    bets: dict[int, e.Bet] = field(default_factory=dict)
    first: tuple[int, ...] = ()
    offers: dict[int, e.SeatOffer] = field(default_factory=dict)
    decision_deadline: int = 0
    decisions: dict[int, str] = field(default_factory=dict)
    shared_second: tuple[int, ...] = ()
    seat_cards: dict[int, tuple[int, ...]] = field(default_factory=dict)
    outcomes: tuple[e.SeatOutcome, ...] = ()
    timed_out: set[int] = field(default_factory=set)
    packs: list[e.PackLaid] = field(default_factory=list)
    deck_checks: list[e.DeckChecked] = field(default_factory=list)
    tilts: list[e.CardTilted] = field(default_factory=list)
    tilt: e.CardTilted | None = None
    #: the dealer closed bets early: the last call runs until ``betting_deadline``
    closing: bool = False

    def dealt(self) -> frozenset[int]:
        """Every card dealt in the round so far (packs laid included)."""
        seats = {x for cards in self.seat_cards.values() for x in cards}
        laid = {x for pack in self.packs for x in pack.cards}
        return frozenset(self.first) | frozenset(self.shared_second) | seats | laid

    def committed(self, seat: int) -> int:
        """Cents the seat has at stake: its bet plus a decision wager it took."""
        total = self.bets[seat].total
        offer = self.offers.get(seat)
        if offer is not None and self.decisions.get(seat) == offer.take:
            total += offer.extra_wager
        return total


@dataclass
class TableState:
    config: TableConfig
    phase: Phase = Phase.IDLE
    seats: set[int] = field(default_factory=set)
    last_game: int = 0
    round: RoundState | None = None
    meters: TableMeters = field(default_factory=TableMeters)
    recall: list[RoundRecord] = field(default_factory=list)
    paused: e.TablePaused | None = None
    #: dealer role -> its PIN record (see kiosk/table/core/dealer_access.py)
    pins: dict[str, DealerPin] = field(default_factory=dict)


@dataclass
class DealerPin:
    """A dealer role's PIN as journaled: its hash, must-change, wrong PINs in a row, lock-out."""

    pin: e.PinHash
    must_change: bool
    failures: int = 0
    locked_until: int = 0


_ROUND_PHASES = frozenset(
    {Phase.BETTING, Phase.BETS_CLOSED, Phase.DECIDING, Phase.DEALING, Phase.SETTLED}
)
_ALL = frozenset(Phase)

#: command -> the phases in which it is legal
COMMAND_PHASES: dict[type[Any], frozenset[Phase]] = {
    c.Join: _ALL,
    c.Leave: _ALL,
    c.OpenRound: frozenset({Phase.IDLE}),
    c.ReportWager: frozenset({Phase.BETTING}),
    c.ReportDecision: frozenset({Phase.DECIDING}),
    c.Tick: _ALL,
    c.CardsDrawn: frozenset({Phase.BETS_CLOSED, Phase.DEALING}),
    c.CloseRound: frozenset({Phase.SETTLED, Phase.DEALING}),
    c.VoidRound: _ROUND_PHASES - {Phase.SETTLED},
    c.CloseBets: frozenset({Phase.BETTING}),
    c.LayPack: frozenset({Phase.BETS_CLOSED, Phase.DEALING}),
    c.SourceFault: frozenset({Phase.BETS_CLOSED, Phase.DEALING}),
    c.ReRead: frozenset({Phase.BETS_CLOSED, Phase.DEALING}),
    c.PauseTable: _ALL,
    c.ResumeTable: _ALL,
}

#: commands refused while the table is paused (the dealer resumes it first)
PAUSED_REFUSES: frozenset[type[Any]] = frozenset(
    {
        c.OpenRound,
        c.ReportWager,
        c.ReportDecision,
        c.CloseBets,
        c.LayPack,
        c.CloseRound,
        c.PauseTable,
    }
)

_DEALING = (Phase.BETS_CLOSED, Phase.DEALING)

#: the dealer's early close waits this long at most for the seats' last reports (decision
#: 0064): shorter than a seat's commit lead (kiosk.terminal.seat.runtime.COMMIT_LEAD_MS), so a
#: seat commits its felt as soon as it hears of it; far longer than a round trip on a table's LAN
LAST_CALL_MS = 1000

#: (phase, event) -> the phase after it; an event of a round not listed here cannot happen
TRANSITIONS: dict[tuple[Phase, type[Any]], Phase] = {
    (Phase.IDLE, e.RoundOpened): Phase.BETTING,
    (Phase.BETTING, e.WagerAccepted): Phase.BETTING,
    (Phase.BETTING, e.BetsClosing): Phase.BETTING,
    (Phase.BETTING, e.BetsClosed): Phase.BETS_CLOSED,
    (Phase.BETS_CLOSED, e.FirstDealt): Phase.DECIDING,
    (Phase.DECIDING, e.DecisionMade): Phase.DECIDING,
    (Phase.DECIDING, e.DecisionsClosed): Phase.DEALING,
    (Phase.DEALING, e.SecondDealt): Phase.DEALING,
    (Phase.DEALING, e.RoundSettled): Phase.SETTLED,
    (Phase.SETTLED, e.RoundClosed): Phase.IDLE,
    (Phase.BETS_CLOSED, e.RoundClosed): Phase.IDLE,  # nobody wagered
    **{(p, e.RoundVoided): Phase.IDLE for p in _ROUND_PHASES - {Phase.SETTLED}},
    **{(p, kind): p for p in _DEALING for kind in (e.PackLaid, e.DeckChecked, e.CardTilted)},
    **{(p, e.TiltCleared): p for p in _DEALING},
}

#: events legal in any phase (seats come and go, the table pauses, the dealer's PINs and audit)
_ANY_PHASE = frozenset(
    {
        e.SeatJoined,
        e.SeatLeft,
        e.TablePaused,
        e.TableResumed,
        e.DealerPinSet,
        e.DealerPinRefused,
        e.DealerAudited,
    }
)
#: events the dealer's sign-in and audit journal on their own (no command of the core)
DEALER_EVENTS = frozenset({e.DealerPinSet, e.DealerPinRefused, e.DealerAudited})


class TableCore:
    """One table's rules of play; :attr:`state` is folded from the events applied."""

    def __init__(self, config: TableConfig) -> None:
        self.game: GameRules = load_game(config.edition, dict(config.paytables))
        if config.mode is DealMode.STADIUM and (
            self.game.second_deal_per_seat == 0 or self.game.second_deal_shared
        ):
            raise TableConfigError(
                f"stadium mode needs a game that deals cards to each seat only ({config.edition})"
            )
        if config.betting_ms <= 0 or config.decision_ms <= 0 or config.max_seats < 1:
            raise TableConfigError("timers and max_seats must be positive")
        if config.card_source is not CardSource.VIRTUAL:
            if config.mode is DealMode.STADIUM:
                raise TableConfigError(
                    f"{config.card_source.value} cards need one deck for the table (mode one-deck)"
                )
            counts = (
                self.game.first_deal,
                self.game.second_deal_per_seat,
                self.game.second_deal_shared,
            )
            if any(n % PACK_SIZE for n in counts):
                raise TableConfigError(
                    f"{config.edition} does not deal in packs of {PACK_SIZE}: virtual cards only"
                )
        self.state = TableState(config)

    @property
    def config(self) -> TableConfig:
        return self.state.config

    def copy(self) -> TableCore:
        """A scratch core with a deep copy of the state (the same rules).

        Frozen records (the recall's rounds, the round's bets, offers, outcomes and packs) are
        shared, not copied: nothing can change them, and copying the recall made every copy
        cost as much as the recall is long (a Confirm at 100 seats took 0.1-0.5 s)."""
        twin = copy.copy(self)
        twin.state = copy.deepcopy(self.state, _frozen_memo(self.state))
        return twin

    def deck_capacity(self) -> int | None:
        """Seats one round can deal to (None: any number)."""
        per = self.game.second_deal_per_seat
        if per == 0 or self.config.mode is DealMode.STADIUM:
            return None
        return (DECK_SIZE - self.game.first_deal - self.game.second_deal_shared) // per

    # -- commands -------------------------------------------------------------------------

    def handle(self, cmd: c.Command, now: int) -> list[e.Event]:
        """The events ``cmd`` causes at time ``now`` (ms); a typed error changes nothing."""
        if isinstance(cmd, c.ReportWager | c.ReportDecision):
            self._check_report(cmd)
        if self.state.phase not in COMMAND_PHASES[type(cmd)]:
            raise IllegalCommandError(
                f"{type(cmd).__name__} is not legal while the table is {self.state.phase.value}"
            )
        if self.state.paused is not None and type(cmd) in PAUSED_REFUSES:
            raise IllegalCommandError(f"the table is paused ({self.state.paused.reason})")
        handler: Callable[[TableCore, Any, int], list[e.Event]] = _HANDLERS[type(cmd)]
        return handler(self, cmd, now)

    def _check_report(self, cmd: c.ReportWager | c.ReportDecision) -> None:
        """Idempotency by (table, game number, seat), checked before the phase."""
        if cmd.table_id != self.config.table_id:
            raise InvalidArgumentError(
                f"this is table {self.config.table_id!r}, not {cmd.table_id!r}"
            )
        rnd = self.state.round
        if rnd is None or cmd.game_number != rnd.game_number:
            raise StaleReportError(f"game {cmd.game_number} is not the table's current round")
        if isinstance(cmd, c.ReportWager):
            had: object = rnd.bets.get(cmd.seat)
            new: object = cmd.bet
        else:
            had, new = rnd.decisions.get(cmd.seat), cmd.choice
        if had is None:
            return
        if had == new:
            raise DuplicateReportError(f"seat {cmd.seat}'s report for game {rnd.game_number} is in")
        raise ReportMismatchError(
            f"seat {cmd.seat} already has {had!r} for game {rnd.game_number}, not {new!r}"
        )

    def _join(self, cmd: c.Join, now: int) -> list[e.Event]:
        if cmd.seat < 0:
            raise InvalidArgumentError(f"a seat is a number >= 0, not {cmd.seat}")
        if cmd.seat in self.state.seats:
            return []
        if len(self.state.seats) >= self.config.max_seats:
            raise InvalidArgumentError(f"the table has its {self.config.max_seats} seats")
        return [e.SeatJoined(now, cmd.seat)]

    def _leave(self, cmd: c.Leave, now: int) -> list[e.Event]:
        if cmd.seat not in self.state.seats:
            return []
        return [e.SeatLeft(now, cmd.seat)]

    def _open(self, cmd: c.OpenRound, now: int) -> list[e.Event]:
        number = self.state.last_game + 1
        return [e.RoundOpened(now, number, now + self.config.betting_ms)]

    def _wager(self, cmd: c.ReportWager, now: int) -> list[e.Event]:
        rnd = self._round()
        if cmd.seat not in self.state.seats:
            raise InvalidArgumentError(f"seat {cmd.seat} has not joined the table")
        if now >= rnd.betting_deadline:
            raise IllegalCommandError("bets are closed: the betting countdown has run out")
        capacity = self.deck_capacity()
        if capacity is not None and len(rnd.bets) >= capacity:
            raise InvalidArgumentError(f"one deck deals to {capacity} seats: the round is full")
        wagers = [spot for spot, _ in cmd.bet.wagers]
        if wagers != sorted(set(wagers)):
            raise InvalidArgumentError("a bet names each spot once, sorted")
        try:
            self.game.validate_bet(_seat_bet(cmd.bet))
        except RuleError as exc:
            raise InvalidArgumentError(str(exc)) from exc
        accepted = e.WagerAccepted(now, rnd.game_number, cmd.seat, cmd.bet)
        if rnd.closing and self.state.seats <= {*rnd.bets, cmd.seat}:  # the last one in
            return [
                accepted,
                e.BetsClosed(now, rnd.game_number, tuple(sorted({*rnd.bets, cmd.seat}))),
            ]
        return [accepted]

    def _decide(self, cmd: c.ReportDecision, now: int) -> list[e.Event]:
        rnd = self._round()
        offer = rnd.offers.get(cmd.seat)
        if offer is None:
            raise InvalidArgumentError(f"seat {cmd.seat} has no decision to make")
        if cmd.choice not in offer.choices:
            raise InvalidArgumentError(f"the choice is one of {offer.choices}, not {cmd.choice!r}")
        if now >= rnd.decision_deadline:
            raise IllegalCommandError("the decision window has run out")
        made = e.DecisionMade(now, rnd.game_number, cmd.seat, cmd.choice)
        if set(rnd.offers) == set(rnd.decisions) | {cmd.seat}:
            return [made, e.DecisionsClosed(now, rnd.game_number, ())]
        return [made]

    def _tick(self, cmd: c.Tick, now: int) -> list[e.Event]:
        rnd = self.state.round
        if rnd is None or self.state.paused is not None:
            return []
        if self.state.phase is Phase.BETTING and now >= rnd.betting_deadline:
            closed = e.BetsClosed(now, rnd.game_number, tuple(sorted(rnd.bets)))
            if not rnd.bets:
                return [closed, e.RoundClosed(now, rnd.game_number)]
            return [closed]
        if self.state.phase is Phase.DECIDING and now >= rnd.decision_deadline:
            defaulted = tuple(
                (seat, offer.default)
                for seat, offer in sorted(rnd.offers.items())
                if seat not in rnd.decisions
            )
            return [e.DecisionsClosed(now, rnd.game_number, defaulted)]
        return []

    def draws_needed(self) -> tuple[DrawPart, ...]:
        """The cards the table waits for, in the order :class:`CardsDrawn` gives them."""
        rnd = self.state.round
        if rnd is None or self.config.card_source is not CardSource.VIRTUAL:
            return ()
        if self.state.phase is Phase.BETS_CLOSED:
            return (DrawPart(self.game.first_deal, own_shuffle=False),)
        if self.state.phase is not Phase.DEALING:
            return ()
        per = self.game.second_deal_per_seat
        seats = sorted(rnd.bets)
        if self.config.mode is DealMode.STADIUM:
            rest = frozenset(rnd.first)
            return tuple(DrawPart(per, own_shuffle=True, excluded=rest) for _ in seats)
        parts = [DrawPart(per, own_shuffle=False) for _ in seats if per]
        if self.game.second_deal_shared:
            parts.append(DrawPart(self.game.second_deal_shared, own_shuffle=False))
        return tuple(parts)

    def _cards(self, cmd: c.CardsDrawn, now: int) -> list[e.Event]:
        rnd = self._round()
        parts = self.draws_needed()
        if len(cmd.cards) != len(parts) or any(
            len(got) != part.count for got, part in zip(cmd.cards, parts, strict=True)
        ):
            raise InvalidArgumentError("the cards drawn do not match the draw asked for")
        one_deck = [
            x for got, p in zip(cmd.cards, parts, strict=True) if not p.own_shuffle for x in got
        ]
        dealt = rnd.dealt()
        if not all(0 <= x < DECK_SIZE for got in cmd.cards for x in got) or (
            len(set(one_deck)) != len(one_deck) or not dealt.isdisjoint(one_deck)
        ):
            raise InvalidArgumentError("cards drawn must be distinct codes 0..51 not yet dealt")
        for got, part in zip(cmd.cards, parts, strict=True):
            if part.own_shuffle and (
                len(set(got)) != len(got) or not part.excluded.isdisjoint(got)
            ):
                raise InvalidArgumentError("a seat's own shuffle repeats a card or a dealt card")
        if self.state.phase is Phase.BETS_CLOSED:
            return self._first(rnd, cmd.cards[0], now)
        return self._second(rnd, cmd.cards, now)

    def _first(self, rnd: RoundState, cards: tuple[int, ...], now: int) -> list[e.Event]:
        offers = []
        for seat, bet in sorted(rnd.bets.items()):
            offer = self.game.offer(_seat_bet(bet), cards)
            if offer is not None:
                offers.append(
                    e.SeatOffer(seat, offer.choices, offer.default, offer.take, offer.extra_wager)
                )
        deadline = now + self.config.decision_ms
        out: list[e.Event] = [e.FirstDealt(now, rnd.game_number, cards, tuple(offers), deadline)]
        if not offers:
            out.append(e.DecisionsClosed(now, rnd.game_number, ()))
        return out

    def _second(
        self, rnd: RoundState, cards: tuple[tuple[int, ...], ...], now: int
    ) -> list[e.Event]:
        seats = sorted(rnd.bets)
        if self.game.second_deal_per_seat:
            per_seat, rest = cards[: len(seats)], cards[len(seats) :]
        else:
            per_seat, rest = tuple(() for _ in seats), cards
        shared = rest[0] if rest else ()
        seat_cards = tuple(zip(seats, per_seat, strict=True))
        dealt = e.SecondDealt(now, rnd.game_number, shared, seat_cards)
        outcomes = tuple(
            settle(self.game, seat, rnd.bets[seat], rnd.first, self._choice(rnd, seat), got, shared)
            for seat, got in seat_cards
        )
        return [dealt, e.RoundSettled(now, rnd.game_number, outcomes)]

    @staticmethod
    def _choice(rnd: RoundState, seat: int) -> str | None:
        return rnd.decisions[seat] if seat in rnd.offers else None

    # -- the dealer's steps ---------------------------------------------------------------

    def _close_bets(self, cmd: c.CloseBets, now: int) -> list[e.Event]:
        """The dealer's "No more bets": closed at once when every seat has reported; else the
        last call (decision 0064): each seat commits what lies on its felt as it hears of it,
        and bets close when all have reported or after :data:`LAST_CALL_MS`."""
        rnd = self._round_of(cmd.game_number)
        if rnd.closing:
            return []  # the last call runs: bets close by themselves
        waiting = self.state.seats - set(rnd.bets)
        if waiting and rnd.betting_deadline > now:
            deadline = min(rnd.betting_deadline, now + LAST_CALL_MS)
            return [e.BetsClosing(now, rnd.game_number, deadline)]
        closed = e.BetsClosed(now, rnd.game_number, tuple(sorted(rnd.bets)))
        if not rnd.bets:
            return [closed, e.RoundClosed(now, rnd.game_number)]
        return [closed]

    def pack_plan(self) -> tuple[PackSlot, ...]:
        """Every pack of the current deal of a physical card source, in the order laid."""
        rnd = self.state.round
        if rnd is None or self.config.card_source is CardSource.VIRTUAL:
            return ()
        game = self.game
        if self.state.phase is Phase.BETS_CLOSED:
            count = game.first_deal // PACK_SIZE
            if count == 1:
                return (PackSlot(1, "community"),)
            return tuple(
                PackSlot(k + 1, f"array {PACK_SIZE * k + 1}-{PACK_SIZE * k + PACK_SIZE}")
                for k in range(count)
            )
        if self.state.phase is not Phase.DEALING:
            return ()
        number = game.first_deal // PACK_SIZE
        slots = []
        per = game.second_deal_per_seat // PACK_SIZE
        for seat in sorted(rnd.bets):
            for k in range(per):
                number += 1
                where = f"seat {seat} cards {PACK_SIZE * k + 1}-{PACK_SIZE * k + PACK_SIZE}"
                slots.append(PackSlot(number, where, seat))
        if game.second_deal_shared:
            for _ in range(game.second_deal_shared // PACK_SIZE):
                number += 1
                slots.append(PackSlot(number, "dealer"))
        return tuple(slots)

    def next_pack(self) -> PackSlot | None:
        """The pack the dealer lays next (None: none expected, or the round is on a tilt)."""
        rnd = self.state.round
        if rnd is None or rnd.tilt is not None:
            return None
        laid = {p.pack for p in rnd.packs}
        return next((slot for slot in self.pack_plan() if slot.pack not in laid), None)

    def packs_in_round(self) -> int:
        """Packs a round of this table lays with the seats now in it."""
        rnd = self.state.round
        seats = len(rnd.bets) if rnd is not None else 0
        game = self.game
        per_seat = game.second_deal_per_seat * seats
        return (game.first_deal + per_seat + game.second_deal_shared) // PACK_SIZE

    def _lay(self, cmd: c.LayPack, now: int) -> list[e.Event]:
        rnd = self._round_of(cmd.game_number)
        if self.config.card_source is CardSource.VIRTUAL:
            raise IllegalCommandError("a virtual table deals its own cards: no pack is laid")
        done = next((p for p in rnd.packs if p.pack == cmd.pack), None)
        if done is not None:
            if done.cards == cmd.cards or not cmd.cards:
                raise DuplicateReportError(f"pack {cmd.pack} is on the layout already")
            raise ReportMismatchError(f"pack {cmd.pack} was laid with other cards")
        if rnd.tilt is not None:
            raise IllegalCommandError(f"the round is stopped: {rnd.tilt.reason} (supervisor)")
        slot = self.next_pack()
        if slot is None or cmd.pack != slot.pack:
            expected = slot.pack if slot is not None else "none"
            raise InvalidArgumentError(f"pack {cmd.pack} is not the next (expected {expected})")
        out: list[e.Event] = []
        problem = None
        deck = cmd.deck
        check = deck_check(deck, now, rnd.game_number) if deck is not None else None
        if check is not None and not any(  # each deck (shuffle and digest) is checked once
            (d.shuffle, d.digest, d.passed) == (check.shuffle, check.digest, True)
            for d in rnd.deck_checks
        ):
            assert deck is not None
            out.append(check)
            if not check.passed:
                problem = (
                    f"deck of shuffle {deck.shuffle} fails its check "
                    f"({check.cards_read} cards read, 52 distinct expected)"
                )
        if problem is None:
            problem = self.card_problem(rnd, cmd, slot)
        if problem is not None:
            return [*out, e.CardTilted(now, rnd.game_number, slot.pack, problem, cmd.cards)]
        laid = e.PackLaid(now, rnd.game_number, slot.pack, slot.location, slot.seat, cmd.cards)
        out.append(laid)
        if self.next_pack_after(slot) is not None:
            return out
        packs = [*[p for p in rnd.packs if p.pack in {s.pack for s in self.pack_plan()}], laid]
        if self.state.phase is Phase.BETS_CLOSED:
            first = tuple(x for p in packs for x in p.cards)
            return out + self._first(rnd, first, now)
        return out  # the dealer's Confirm settles the round

    def next_pack_after(self, slot: PackSlot) -> PackSlot | None:
        """The pack of the current deal after ``slot`` (None: ``slot`` completes the deal)."""
        return next((s for s in self.pack_plan() if s.pack > slot.pack), None)

    def _second_parts(
        self, rnd: RoundState, packs: list[e.PackLaid]
    ) -> tuple[tuple[int, ...], ...]:
        """The second deal's cards grouped as :meth:`draws_needed` groups them."""
        parts: list[tuple[int, ...]] = []
        if self.game.second_deal_per_seat:
            for seat in sorted(rnd.bets):
                parts.append(tuple(x for p in packs if p.seat == seat for x in p.cards))
        if self.game.second_deal_shared:
            parts.append(tuple(x for p in packs if p.seat < 0 for x in p.cards))
        return tuple(parts)

    def card_problem(self, rnd: RoundState, cmd: c.LayPack, slot: PackSlot) -> str | None:
        """The one check every physical source's pack goes through (None: the pack is good)."""
        if cmd.presented_as != slot.pack:
            return f"pack {cmd.presented_as} presented out of turn (expected {slot.pack})"
        if len(cmd.cards) != PACK_SIZE:
            return f"pack {slot.pack} has {len(cmd.cards)} cards, not {PACK_SIZE}"
        bad = [x for x in cmd.cards if not 0 <= x < DECK_SIZE]
        if bad:
            return f"pack {slot.pack}: card {bad[0]} misread (not a card code 0..51)"
        if len(set(cmd.cards)) != len(cmd.cards):
            return f"pack {slot.pack} holds a card twice"
        again = sorted(rnd.dealt() & set(cmd.cards))
        if again:
            return f"card {again[0]} twice in the round (pack {slot.pack})"
        if cmd.deck is not None and not set(cmd.cards) <= set(cmd.deck.cards):
            return f"pack {slot.pack} holds a card not in the deck of shuffle {cmd.deck.shuffle}"
        return None

    def _source_fault(self, cmd: c.SourceFault, now: int) -> list[e.Event]:
        rnd = self._round_of(cmd.game_number)
        if self.config.card_source is CardSource.VIRTUAL:
            raise IllegalCommandError("a virtual table has no card source to fault")
        if rnd.tilt is not None:
            return []
        slot = self.next_pack()
        pack = slot.pack if slot is not None else cmd.pack
        return [e.CardTilted(now, rnd.game_number, pack, cmd.reason, ())]

    def _reread(self, cmd: c.ReRead, now: int) -> list[e.Event]:
        rnd = self._round_of(cmd.game_number)
        if rnd.tilt is None:
            raise IllegalCommandError("the round is not stopped on its cards")
        if cmd.pack != rnd.tilt.pack:
            raise InvalidArgumentError(f"the tilt is on pack {rnd.tilt.pack}, not {cmd.pack}")
        return [e.TiltCleared(now, rnd.game_number, cmd.pack, cmd.by)]

    def _pause(self, cmd: c.PauseTable, now: int) -> list[e.Event]:
        reason = cmd.reason.strip()
        if not reason:
            raise InvalidArgumentError("a pause needs a reason (shown on the seats)")
        return [e.TablePaused(now, reason[:200], cmd.by, self.time_left(now))]

    def _resume(self, cmd: c.ResumeTable, now: int) -> list[e.Event]:
        paused = self.state.paused
        if paused is None:
            raise IllegalCommandError("the table is not paused")
        shift = max(0, now - paused.at)
        rnd = self.state.round
        betting = decision = 0
        if rnd is not None:
            betting = rnd.betting_deadline + (shift if self.state.phase is Phase.BETTING else 0)
            deciding = self.state.phase is Phase.DECIDING
            decision = rnd.decision_deadline + (shift if deciding else 0)
        return [e.TableResumed(now, shift, cmd.by, betting, decision)]

    def time_left(self, now: int) -> int:
        """Milliseconds the running window (betting or decision) has left (paused: held)."""
        rnd = self.state.round
        if rnd is None:
            return 0
        at = self.state.paused.at if self.state.paused is not None else now
        if self.state.phase is Phase.BETTING:
            return max(0, rnd.betting_deadline - at)
        if self.state.phase is Phase.DECIDING:
            return max(0, rnd.decision_deadline - at)
        return 0

    def _round_of(self, game_number: int) -> RoundState:
        rnd = self._round()
        if game_number != rnd.game_number:
            raise StaleReportError(f"game {game_number} is not the table's current round")
        return rnd

    def _close(self, cmd: c.CloseRound, now: int) -> list[e.Event]:
        rnd = self._round()
        if self.state.phase is Phase.DEALING:  # a physical source: Confirm settles the round
            if self.config.card_source is CardSource.VIRTUAL or rnd.tilt is not None:
                raise IllegalCommandError("the round is not ready to confirm")
            slot = self.next_pack()
            if slot is not None:
                raise IllegalCommandError(f"pack {slot.pack} ({slot.location}) is not laid yet")
            plan = {s.pack for s in self.pack_plan()}
            packs = [p for p in rnd.packs if p.pack in plan]
            settled = self._second(rnd, self._second_parts(rnd, packs), now)
            return [*settled, e.RoundClosed(now, rnd.game_number)]
        return [e.RoundClosed(now, rnd.game_number)]

    def _void(self, cmd: c.VoidRound, now: int) -> list[e.Event]:
        rnd = self._round()
        returns = tuple((seat, rnd.committed(seat)) for seat in sorted(rnd.bets))
        return [e.RoundVoided(now, rnd.game_number, cmd.reason, returns)]

    def _round(self) -> RoundState:
        if self.state.round is None:
            raise IllegalCommandError("no round is open")
        return self.state.round

    # -- folding events -------------------------------------------------------------------

    def apply(self, events: Iterable[e.Event]) -> None:
        """Fold journaled events into the state (the one way the state changes)."""
        for event in events:
            kind = type(event)
            before = self.state.phase
            if kind not in _ANY_PHASE and (before, kind) not in TRANSITIONS:
                raise ValueError(f"{kind.__name__} cannot happen while {before.value}")
            _APPLY[kind](self, event)
            self.state.phase = TRANSITIONS.get((before, kind), self.state.phase)

    def _a_joined(self, ev: e.SeatJoined) -> None:
        self.state.seats.add(ev.seat)

    def _a_left(self, ev: e.SeatLeft) -> None:
        self.state.seats.discard(ev.seat)

    def _a_opened(self, ev: e.RoundOpened) -> None:
        self.state.last_game = ev.game_number
        self.state.round = RoundState(ev.game_number, ev.betting_deadline)

    def _a_wager(self, ev: e.WagerAccepted) -> None:
        self._round().bets[ev.seat] = ev.bet

    def _a_bets_closing(self, ev: e.BetsClosing) -> None:
        rnd = self._round()
        rnd.betting_deadline, rnd.closing = ev.betting_deadline, True

    def _a_bets_closed(self, ev: e.BetsClosed) -> None:
        pass

    def _a_first(self, ev: e.FirstDealt) -> None:
        rnd = self._round()
        rnd.first = ev.cards
        rnd.offers = {offer.seat: offer for offer in ev.offers}
        rnd.decision_deadline = ev.decision_deadline

    def _a_decision(self, ev: e.DecisionMade) -> None:
        self._round().decisions[ev.seat] = ev.choice

    def _a_decisions_closed(self, ev: e.DecisionsClosed) -> None:
        rnd = self._round()
        rnd.decisions.update(dict(ev.defaulted))
        rnd.timed_out.update(seat for seat, _ in ev.defaulted)

    def _a_pack(self, ev: e.PackLaid) -> None:
        self._round().packs.append(ev)

    def _a_deck(self, ev: e.DeckChecked) -> None:
        self._round().deck_checks.append(ev)

    def _a_tilt(self, ev: e.CardTilted) -> None:
        rnd = self._round()
        rnd.tilt = ev
        rnd.tilts.append(ev)

    def _a_tilt_cleared(self, ev: e.TiltCleared) -> None:
        self._round().tilt = None

    def _a_paused(self, ev: e.TablePaused) -> None:
        self.state.paused = ev

    def _a_resumed(self, ev: e.TableResumed) -> None:
        self.state.paused = None
        rnd = self.state.round
        if rnd is None:
            return
        rnd.betting_deadline = ev.betting_deadline
        rnd.decision_deadline = ev.decision_deadline

    def _a_pin_set(self, ev: e.DealerPinSet) -> None:
        self.state.pins[ev.role] = DealerPin(ev.pin, ev.must_change)

    def _a_pin_refused(self, ev: e.DealerPinRefused) -> None:
        record = self.state.pins.get(ev.role)
        if record is not None:
            record.failures = ev.failures
            record.locked_until = ev.locked_until

    def _a_audited(self, ev: e.DealerAudited) -> None:
        if ev.action == "sign_in" and ev.outcome == "ok":
            record = self.state.pins.get(ev.role)
            if record is not None:
                record.failures = 0
                record.locked_until = 0

    def _a_second(self, ev: e.SecondDealt) -> None:
        rnd = self._round()
        rnd.shared_second = ev.shared
        rnd.seat_cards = dict(ev.seat_cards)

    def _a_settled(self, ev: e.RoundSettled) -> None:
        rnd = self._round()
        rnd.outcomes = ev.outcomes
        m = self.state.meters
        m.rounds_played += 1
        m.seat_rounds += len(ev.outcomes)
        m.wagered += sum(o.stake for o in ev.outcomes)
        m.paid += sum(o.paid for o in ev.outcomes)

    def _a_closed(self, ev: e.RoundClosed) -> None:
        rnd = self._round()
        if rnd.bets:
            self._remember(
                RoundRecord(
                    rnd.game_number,
                    rnd.first,
                    rnd.shared_second,
                    tuple(sorted(rnd.bets.items())),
                    rnd.outcomes,
                    **self._round_extras(rnd),
                )
            )
        self.state.round = None

    def _round_extras(self, rnd: RoundState) -> dict[str, Any]:
        return {
            "card_source": self.config.card_source.value,
            "packs": tuple(rnd.packs),
            "deck_checks": tuple(rnd.deck_checks),
            "tilts": tuple(rnd.tilts),
        }

    def _a_voided(self, ev: e.RoundVoided) -> None:
        rnd = self._round()
        m = self.state.meters
        m.rounds_voided += 1
        m.returned += sum(cents for _, cents in ev.returns)
        self._remember(
            RoundRecord(
                rnd.game_number,
                rnd.first,
                rnd.shared_second,
                tuple(sorted(rnd.bets.items())),
                (),
                ev.reason,
                ev.returns,
                **self._round_extras(rnd),
            )
        )
        self.state.round = None

    def _remember(self, record: RoundRecord) -> None:
        self.state.recall.append(record)
        del self.state.recall[: -self.config.recall_rounds]


def _frozen_memo(state: TableState) -> dict[int, Any]:
    """A deepcopy memo that maps each frozen record of ``state`` to itself."""
    frozen: list[object] = [*state.recall]
    rnd = state.round
    if rnd is not None:
        frozen += [*rnd.bets.values(), *rnd.offers.values(), *rnd.outcomes, *rnd.packs]
        frozen += [*rnd.deck_checks, *rnd.tilts]
    return {id(record): record for record in frozen}


def deck_check(deck: c.DeckReading, now: int, game_number: int) -> e.DeckChecked:
    """The check of a shuffler's deck: 52 distinct card codes 0..51 (and its digest)."""
    digest = hashlib.sha256(",".join(map(str, deck.cards)).encode()).hexdigest()
    passed = len(deck.cards) == DECK_SIZE and set(deck.cards) == set(range(DECK_SIZE))
    return e.DeckChecked(now, game_number, deck.shuffle, len(deck.cards), digest, passed)


def _seat_bet(bet: e.Bet) -> SeatBet:
    return SeatBet(dict(bet.wagers), bet.positions)


def settle(
    game: GameRules,
    seat: int,
    bet: e.Bet,
    first: tuple[int, ...],
    choice: str | None,
    cards: tuple[int, ...],
    shared: tuple[int, ...],
) -> e.SeatOutcome:
    """One seat's result from the pure game rules (the same function every seat runs)."""
    settlement = game.settle(_seat_bet(bet), first, choice, cards, shared)
    return e.SeatOutcome(
        seat,
        choice,
        cards,
        tuple(
            e.WagerOutcome(r.spot, r.stake, r.paid, r.outcome, *_odds(r.odds))
            for r in settlement.results
        ),
    )


def _odds(odds: Fraction) -> tuple[int, int]:
    return odds.numerator, odds.denominator


_HANDLERS: dict[type[Any], Callable[..., list[e.Event]]] = {
    c.Join: TableCore._join,
    c.Leave: TableCore._leave,
    c.OpenRound: TableCore._open,
    c.ReportWager: TableCore._wager,
    c.ReportDecision: TableCore._decide,
    c.Tick: TableCore._tick,
    c.CardsDrawn: TableCore._cards,
    c.CloseRound: TableCore._close,
    c.VoidRound: TableCore._void,
    c.CloseBets: TableCore._close_bets,
    c.LayPack: TableCore._lay,
    c.SourceFault: TableCore._source_fault,
    c.ReRead: TableCore._reread,
    c.PauseTable: TableCore._pause,
    c.ResumeTable: TableCore._resume,
}

_APPLY: dict[type[Any], Callable[..., None]] = {
    e.SeatJoined: TableCore._a_joined,
    e.SeatLeft: TableCore._a_left,
    e.RoundOpened: TableCore._a_opened,
    e.WagerAccepted: TableCore._a_wager,
    e.BetsClosing: TableCore._a_bets_closing,
    e.BetsClosed: TableCore._a_bets_closed,
    e.FirstDealt: TableCore._a_first,
    e.DecisionMade: TableCore._a_decision,
    e.DecisionsClosed: TableCore._a_decisions_closed,
    e.SecondDealt: TableCore._a_second,
    e.RoundSettled: TableCore._a_settled,
    e.RoundClosed: TableCore._a_closed,
    e.RoundVoided: TableCore._a_voided,
    e.PackLaid: TableCore._a_pack,
    e.DeckChecked: TableCore._a_deck,
    e.CardTilted: TableCore._a_tilt,
    e.TiltCleared: TableCore._a_tilt_cleared,
    e.TablePaused: TableCore._a_paused,
    e.TableResumed: TableCore._a_resumed,
    e.DealerPinSet: TableCore._a_pin_set,
    e.DealerPinRefused: TableCore._a_pin_refused,
    e.DealerAudited: TableCore._a_audited,
}
