"""The terminal core: commands in, events out, state folded from events (sans-IO).

Two explicit tables drive it, in the manner of h11:

- :data:`COMMAND_RULES` says, for every command, in which phases it is legal and which lockups
  stop it; a command outside its table entry raises :class:`IllegalCommandError` (wrong phase) or
  :class:`TerminalLockedError` (a lockup) and changes nothing;
- :data:`APPLY` folds each event kind into the state.

:meth:`TerminalCore.handle` never mutates the durable state: it returns the events a command
causes.  (Commands that only touch the player's unsaved wagers and positions — place, clear,
repeat, select — change those directly and cause no event: nothing is owed until Deal.)
The runtime journals them durably and only then calls :meth:`TerminalCore.apply`.  Replaying the
journal through :meth:`TerminalCore.apply` rebuilds exactly the same state.

Every refusal is a :class:`CommandError` of one kind (kiosk/terminal/core/commands.py):
:class:`IllegalCommandError`, :class:`TerminalLockedError`, :class:`InvalidArgumentError`, and
for the validator's reports :class:`DuplicateReportError` (already journaled: ignore it) or
:class:`ReportMismatchError` (it disagrees with the state: the runtime tilts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kiosk.kernel.games.base import DecisionOffer, GameRules, RuleError, SeatBet
from kiosk.kernel.games.registry import load_game
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.commands import (
    DuplicateReportError,
    IllegalCommandError,
    InvalidArgumentError,
    ReportMismatchError,
    TerminalLockedError,
    TransferRefusedError,
)
from kiosk.terminal.core.config import ConfigError, from_dict, to_dict
from kiosk.terminal.core.meters import METER_MODULUS, Meters, advance, expected_credits
from kiosk.terminal.core.pins import ROLE_NAMES, PinRecordError, checked_hash, migrated_record
from kiosk.terminal.core.records import (
    TRANSFER_HISTORY,
    TRANSFER_KINDS,
    Cashout,
    Handpay,
    LastBet,
    OfferRecord,
    ProgressivePaid,
    SeatBetRecord,
    SeatResult,
    TicketEscrow,
    Tilt,
    TransferRecord,
)
from kiosk.terminal.core.state import Lockup, Phase, RoundState, TerminalState
from kiosk.terminal.core.tilts import DISPUTE_TILTS, OPERATOR_TILTS, TiltCode, cleared_by_operator

ALL_PHASES = frozenset(Phase)
BETWEEN_ROUNDS = frozenset({Phase.IDLE, Phase.WAGERING, Phase.RESULT})
NO_WAGERS = frozenset({Phase.IDLE, Phase.RESULT})
ALL_LOCKUPS = frozenset(Lockup)
NO_LOCKUPS: frozenset[Lockup] = frozenset()
PLAY_STOPPERS = ALL_LOCKUPS
#: lockups that freeze a round in progress (a host disable waits for the end of the game)
ROUND_STOPPERS = ALL_LOCKUPS - {Lockup.DISABLED}
#: a tilt (paper out, a jammed validator...) must not keep the player's credits hostage: the
#: cash-out prints if the printer can, and becomes a handpay if it cannot
CASHOUT_STOPPERS = ROUND_STOPPERS - {Lockup.TILT}


VALIDATOR = "bill validator"


@dataclass(frozen=True)
class Resolution:
    """How a seat's last note or voucher in escrow ended (to know a device's report again)."""

    item: str  # "note of 500" / "voucher 123..."
    outcome: str  # "stacked" / "returned"


def _note(value: int) -> str:
    return f"note of {value}"


def _voucher(number: str) -> str:
    return f"voucher {number}"


@dataclass(frozen=True)
class CommandRule:
    """Where a command is legal."""

    phases: frozenset[Phase]
    blocked_by: frozenset[Lockup]


COMMAND_RULES: dict[type[c.Command], CommandRule] = {
    c.PowerUp: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.InsertBill: CommandRule(ALL_PHASES, NO_LOCKUPS),  # refused notes are returned, not errors
    c.BillStackedReport: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.BillReturnedReport: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.InsertTicket: CommandRule(ALL_PHASES, NO_LOCKUPS),  # refused vouchers are returned
    c.TicketStackedReport: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.TicketReturnedReport: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.SelectEdition: CommandRule(NO_WAGERS, PLAY_STOPPERS),
    c.PlaceWager: CommandRule(BETWEEN_ROUNDS, PLAY_STOPPERS),
    c.ClearWagers: CommandRule(BETWEEN_ROUNDS, frozenset({Lockup.CRITICAL})),
    c.RepeatWagers: CommandRule(BETWEEN_ROUNDS, PLAY_STOPPERS),
    c.SelectPositions: CommandRule(BETWEEN_ROUNDS, PLAY_STOPPERS),
    c.Deal: CommandRule(frozenset({Phase.WAGERING}), PLAY_STOPPERS),
    c.VoidRound: CommandRule(
        frozenset({Phase.DEALING, Phase.DECISION, Phase.SETTLING}), frozenset({Lockup.CRITICAL})
    ),
    c.CardsDrawn: CommandRule(
        frozenset({Phase.DEALING, Phase.SETTLING}), frozenset({Lockup.CRITICAL})
    ),
    c.Decide: CommandRule(frozenset({Phase.DECISION}), ROUND_STOPPERS),
    c.CashOut: CommandRule(BETWEEN_ROUNDS, CASHOUT_STOPPERS),
    c.PrinterReport: CommandRule(frozenset({Phase.CASHOUT}), frozenset({Lockup.CRITICAL})),
    # a handpay is not paid by hand while a device's record disputes the credits (0038)
    c.AttendantReset: CommandRule(ALL_PHASES, frozenset({Lockup.CRITICAL, Lockup.DEVICE_RECORDS})),
    c.RaiseTilt: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.ClearTilt: CommandRule(ALL_PHASES, frozenset({Lockup.CRITICAL})),
    c.SetDoor: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.SetEnabled: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.SetService: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.ChangeConfig: CommandRule(
        frozenset({Phase.IDLE, Phase.RESULT}), frozenset({Lockup.CRITICAL})
    ),
    c.ResetPeriodMeters: CommandRule(BETWEEN_ROUNDS, frozenset({Lockup.CRITICAL})),
    c.ReportCritical: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.RecordWithdrawal: CommandRule(ALL_PHASES, frozenset({Lockup.CRITICAL})),
    # the service menu is entered whatever stops play (a critical memory error included)
    c.RecordPinEntry: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.SetPin: CommandRule(ALL_PHASES, NO_LOCKUPS),
    c.MigratePins: CommandRule(ALL_PHASES, frozenset({Lockup.CRITICAL})),
    c.RecordDeviceBaseline: CommandRule(ALL_PHASES, frozenset({Lockup.CRITICAL})),
    c.ConfirmDeviceRecords: CommandRule(ALL_PHASES, frozenset({Lockup.CRITICAL})),
    # a transfer waits for the end of a round; a host's disable does not stop one (0059)
    c.TransferFunds: CommandRule(BETWEEN_ROUNDS, ROUND_STOPPERS),
    # a hit is paid whatever stops play but a critical error; never during a voucher's print
    c.PayProgressive: CommandRule(ALL_PHASES - {Phase.CASHOUT}, frozenset({Lockup.CRITICAL})),
}


def _transfer_family(kind: str) -> str:
    """Transfers whose ids share one space: every AFT kind; legacy bonuses apart."""
    return "bonus" if kind == "legacy_bonus" else "aft"


def paytable_key(paytables: dict[str, str]) -> str:
    """Meter key naming the pay tables in force ("default" when none was chosen)."""
    if not paytables:
        return "default"
    return ",".join(f"{k}={v}" for k, v in sorted(paytables.items())) or "default"


class TerminalCore:
    """The sans-IO terminal: validates commands, emits events, folds them into the state."""

    def __init__(self, state: TerminalState) -> None:
        self.state = state
        self._games: dict[str, GameRules] = {}
        #: the last escrow resolution per seat, folded from the events (not in the snapshot:
        #: the runtime seeds it from the event log at power-up, see :meth:`remember`)
        self.resolved: dict[int, Resolution] = {}

    def share_rules(self, other: TerminalCore) -> None:
        """Use ``other``'s cache of loaded rules (a scratch core of the same terminal)."""
        self._games = other._games

    # --- queries ---------------------------------------------------------------------------

    def game(self, edition: str | None = None) -> GameRules:
        """Rules of an enabled edition with its configured pay tables (cached)."""
        edition = edition or self.state.selected_edition
        game = self._games.get(edition)
        if game is None:
            ed = self.state.config.edition(edition)
            game = self._games[edition] = load_game(ed.edition, ed.paytables)
        return game

    def cards_needed(self) -> int:
        """Cards the runtime must draw and pass in with :class:`CardsDrawn` (0 if none)."""
        rnd = self.state.round
        if rnd is not None and rnd.table_game:
            return 0  # a table round's cards come from its controller (kiosk/terminal/seat)
        return self._cards_due()

    def round_cards(self) -> int:
        """Every card the round in play deals, all stages and seats (0 without a round)."""
        rnd = self.state.round
        if rnd is None:
            return 0
        game = self.game(rnd.edition)
        per_seat = game.second_deal_per_seat * len(rnd.bets)
        return game.first_deal + per_seat + game.second_deal_shared

    def _cards_due(self) -> int:
        """Cards the round waits for now, wherever they come from."""
        s = self.state
        rnd = s.round
        if rnd is None or s.critical is not None:
            return 0
        phase = s.phase
        if phase is Phase.DEALING:
            return self.game(rnd.edition).first_deal
        if phase is Phase.SETTLING:
            game = self.game(rnd.edition)
            return game.second_deal_per_seat * len(rnd.bets) + game.second_deal_shared
        return 0

    def money_refusal(self, seat: int, value: int) -> str | None:
        """Why a note or voucher of ``value`` must be returned now, or None to accept it."""
        s = self.state
        if not 0 <= seat < len(s.credits):
            return f"no seat {seat}"
        if s.critical is not None:
            return "critical memory error"
        lockups = s.lockups()
        if lockups:
            return f"terminal locked: {lockups[0].value}"
        if s.phase is Phase.CASHOUT:
            return "cash-out in progress"
        if s.escrow.get(seat) or s.ticket_escrow.get(seat):
            return "another note is in escrow"
        if s.credits[seat] + value > s.config.credit_limit:
            return "credit limit"
        return None

    def audit_credits(self) -> str | None:
        """The credit self-audit: None when credits equal money in minus money out."""
        s = self.state
        held = sum(s.credits) % METER_MODULUS
        expected = expected_credits(s.lifetime)
        if held != expected:
            return f"credits {held} != meters say {expected} (money in - money out + won - bet)"
        return None

    # --- commands --------------------------------------------------------------------------

    def handle(self, command: c.Command, now: int) -> list[e.Event]:
        """The events ``command`` causes at time ``now`` (epoch ms); raises CommandError."""
        rule = COMMAND_RULES.get(type(command))
        if rule is None:
            raise IllegalCommandError(f"unknown command {type(command).__name__}")
        s = self.state
        if s.phase not in rule.phases:
            name = type(command).__name__
            raise IllegalCommandError(f"{name} is not allowed while {s.phase.value}")
        for lockup in s.lockups():
            if lockup in rule.blocked_by:
                name = type(command).__name__
                raise TerminalLockedError(
                    f"{name} is not allowed: terminal locked ({lockup.value})", lockup.value
                )
        return _HANDLERS[type(command)](self, command, now)

    def apply(self, events: Iterable[e.Event]) -> None:
        """Fold journaled events into the state."""
        for event in events:
            APPLY[type(event)](self, event)
            self.state.last_event_at = event.at
            self.remember((event,))

    def remember(self, events: Iterable[e.Event]) -> None:
        """Note how escrows ended (oldest first), without folding anything into the state."""
        for event in events:
            if isinstance(event, e.BillStacked):
                self.resolved[event.seat] = Resolution(_note(event.value), "stacked")
            elif isinstance(event, e.BillReturned):
                self.resolved[event.seat] = Resolution(_note(event.value), "returned")
            elif isinstance(event, e.TicketRedeemed):
                self.resolved[event.seat] = Resolution(_voucher(event.validation_number), "stacked")
            elif isinstance(event, e.TicketReturned):
                self.resolved[event.seat] = Resolution(
                    _voucher(event.validation_number), "returned"
                )

    def _unexpected_report(self, seat: int, item: str, outcome: str, held: str | None) -> None:
        """Raise for a validator report of ``item`` ``outcome`` that does not match ``held``
        (what the seat has in escrow, None for nothing): a duplicate of the last journaled
        resolution, or a mismatch."""
        last = self.resolved.get(seat)
        if held is None and last == Resolution(item, outcome):
            raise DuplicateReportError(f"{VALIDATOR}: the {item} was {outcome} already")
        if held is None and outcome == "returned":
            # back to the player with nothing in escrow: nothing was or will be credited (an
            # escrow whose commit failed, e.g. on a full disk, ends this way at power-up)
            raise DuplicateReportError(f"{VALIDATOR}: the {item} was returned, none was held")
        expected = f"the {held} in escrow" if held else "nothing in escrow"
        raise ReportMismatchError(VALIDATOR, f"the {item} {outcome}", expected)

    # --- handlers (pure: read self.state, return events) -------------------------------------

    def _seat(self, seat: int) -> int:
        if not 0 <= seat < len(self.state.credits):
            raise InvalidArgumentError(f"no seat {seat} on this terminal")
        return seat

    def _power_up(self, cmd: c.PowerUp, now: int) -> list[e.Event]:
        return [e.PoweredUp(at=now, software_version=cmd.software_version, recovered=cmd.recovered)]

    def _insert_bill(self, cmd: c.InsertBill, now: int) -> list[e.Event]:
        seat = self._seat(cmd.seat)
        if cmd.value not in self.state.config.accepted_notes:
            return [e.BillReturned(at=now, seat=seat, value=cmd.value, reason="note not accepted")]
        refusal = self.money_refusal(seat, cmd.value)
        if refusal:
            return [e.BillReturned(at=now, seat=seat, value=cmd.value, reason=refusal)]
        return [e.BillEscrowAccepted(at=now, seat=seat, value=cmd.value)]

    def _held_note(self, seat: int) -> str | None:
        """What the seat holds in escrow, as a report names it (None: nothing)."""
        s = self.state
        if s.escrow.get(seat):
            return _note(s.escrow[seat])
        ticket = s.ticket_escrow.get(seat)
        return _voucher(ticket.validation_number) if ticket else None

    def _check_note_report(self, seat: int, value: int, outcome: str, message: str) -> None:
        """A note report must name the note in escrow (else a duplicate or a mismatch, the
        mismatch with ``message`` as its text)."""
        if self.state.escrow.get(seat) == value:
            return
        try:
            self._unexpected_report(seat, _note(value), outcome, self._held_note(seat))
        except ReportMismatchError as exc:
            raise ReportMismatchError(exc.device, exc.reported, exc.expected, message) from None

    def _bill_stacked(self, cmd: c.BillStackedReport, now: int) -> list[e.Event]:
        seat = self._seat(cmd.seat)
        held = self.state.escrow.get(seat, 0)
        message = f"bill validator reported {cmd.value} stacked but escrow holds {held}"
        self._check_note_report(seat, cmd.value, "stacked", message)
        count = max(0, cmd.device_count)
        device = cmd.device[:128]
        return [
            e.BillStacked(at=now, seat=seat, value=cmd.value, device=device, device_count=count)
        ]

    def _bill_returned(self, cmd: c.BillReturnedReport, now: int) -> list[e.Event]:
        seat = self._seat(cmd.seat)
        message = f"no note of {cmd.value} in escrow to return"
        self._check_note_report(seat, cmd.value, "returned", message)
        return [e.BillReturned(at=now, seat=seat, value=cmd.value, reason=cmd.reason)]

    def _insert_ticket(self, cmd: c.InsertTicket, now: int) -> list[e.Event]:
        seat = self._seat(cmd.seat)
        number = cmd.validation_number
        refusal = cmd.refused or self.money_refusal(seat, cmd.value)
        if not refusal and cmd.value <= 0:
            refusal = "a voucher must be worth more than zero"
        if not refusal and (len(number) != 18 or not number.isdigit()):
            refusal = "a validation number has 18 digits"
        if refusal:
            return [
                e.TicketReturned(
                    at=now, seat=seat, value=cmd.value, validation_number=number, reason=refusal
                )
            ]
        return [
            e.TicketEscrowAccepted(at=now, seat=seat, value=cmd.value, validation_number=number)
        ]

    def _ticket_in_escrow(self, seat: int, number: str, outcome: str) -> TicketEscrow:
        held = self.state.ticket_escrow.get(seat)
        if held is None or held.validation_number != number:
            try:
                self._unexpected_report(seat, _voucher(number), outcome, self._held_note(seat))
            except ReportMismatchError as exc:
                raise ReportMismatchError(
                    exc.device, exc.reported, exc.expected, f"no voucher {number} in escrow"
                ) from None
        assert held is not None
        return held

    def _ticket_stacked(self, cmd: c.TicketStackedReport, now: int) -> list[e.Event]:
        seat = self._seat(cmd.seat)
        held = self._ticket_in_escrow(seat, cmd.validation_number, "stacked")
        return [
            e.TicketRedeemed(
                at=now, seat=seat, value=held.value, validation_number=cmd.validation_number
            )
        ]

    def _ticket_returned(self, cmd: c.TicketReturnedReport, now: int) -> list[e.Event]:
        seat = self._seat(cmd.seat)
        held = self._ticket_in_escrow(seat, cmd.validation_number, "returned")
        return [
            e.TicketReturned(
                at=now,
                seat=seat,
                value=held.value,
                validation_number=cmd.validation_number,
                reason=cmd.reason,
            )
        ]

    def _select_edition(self, cmd: c.SelectEdition, now: int) -> list[e.Event]:
        try:
            self.state.config.edition(cmd.edition)
        except ConfigError as exc:
            raise InvalidArgumentError(str(exc)) from exc
        self.state.selected_edition = cmd.edition  # not durable: a choice on screen
        self.state.pending_wagers.clear()
        self.state.pending_positions.clear()
        return []

    def _place_wager(self, cmd: c.PlaceWager, now: int) -> list[e.Event]:
        s = self.state
        seat = self._seat(cmd.seat)
        game = self.game()
        spots = {spot.id for spot in game.spots}
        if cmd.spot not in spots:
            raise InvalidArgumentError(f"no wager spot {cmd.spot!r} in {game.title}")
        cfg = s.config
        if cmd.amount <= 0 or cmd.amount % cfg.denomination:
            raise InvalidArgumentError(
                f"a wager is a whole number of credits of {cfg.denomination} cents"
            )
        placed = s.pending_wagers.get(seat, {})
        new_amount = placed.get(cmd.spot, 0) + cmd.amount
        if new_amount > cfg.max_wager:
            raise InvalidArgumentError(f"{cmd.spot}: the most on one spot is {cfg.max_wager} cents")
        if s.pending_total(seat) + cmd.amount > cfg.table_max:
            raise InvalidArgumentError(f"the most on one round is {cfg.table_max} cents")
        if s.pending_total(seat) + cmd.amount > s.credits[seat]:
            raise IllegalCommandError("not enough credits")
        s.pending_wagers.setdefault(seat, {})[cmd.spot] = new_amount
        self._after_pending_change()
        return []

    def _clear_wagers(self, cmd: c.ClearWagers, now: int) -> list[e.Event]:
        seat = self._seat(cmd.seat)
        self.state.pending_wagers.pop(seat, None)
        self.state.pending_positions.pop(seat, None)
        self._after_pending_change()
        return []

    def _repeat_wagers(self, cmd: c.RepeatWagers, now: int) -> list[e.Event]:
        s = self.state
        seat = self._seat(cmd.seat)
        last = s.last_bets.get(seat)
        if last is None or last.edition != s.selected_edition:
            raise IllegalCommandError("no previous wager of this game to repeat")
        wagers = dict(last.bet.wagers)
        total = sum(wagers.values())
        if total > s.credits[seat]:
            raise IllegalCommandError("not enough credits to repeat the last wager")
        for spot, amount in wagers.items():
            if amount < s.config.min_wager or amount > s.config.max_wager:
                raise IllegalCommandError(f"{spot}: the last wager is outside today's limits")
        if total > s.config.table_max:
            raise IllegalCommandError("the last wager exceeds today's table maximum")
        s.pending_wagers[seat] = wagers
        if last.bet.positions and not s.pending_positions.get(seat):
            # the wagers are repeated; positions the player picked for this round stay
            s.pending_positions[seat] = last.bet.positions
        self._after_pending_change()
        return []

    def _select_positions(self, cmd: c.SelectPositions, now: int) -> list[e.Event]:
        seat = self._seat(cmd.seat)
        if not self.game().positions:
            raise IllegalCommandError(f"{self.game().title} has no positions to choose")
        positions = tuple(cmd.positions)
        if len(positions) > 3 or len(set(positions)) != len(positions):
            raise InvalidArgumentError("choose at most three distinct positions")
        if any(not isinstance(p, int) or not 0 <= p <= 8 for p in positions):
            raise InvalidArgumentError("positions are 0..8 of the 3x3 array")
        self.state.pending_positions[seat] = positions
        self._after_pending_change()
        return []

    def _after_pending_change(self) -> None:
        s = self.state
        placed = any(s.pending_wagers.values()) or any(s.pending_positions.values())
        if placed:
            s.phase = Phase.WAGERING
        elif s.phase is Phase.WAGERING:
            s.phase = Phase.RESULT if s.round is not None else Phase.IDLE

    def _deal(self, cmd: c.Deal, now: int) -> list[e.Event]:
        s = self.state
        cfg = s.config
        game = self.game()
        bets: list[SeatBetRecord] = []
        for seat in range(len(s.credits)):
            wagers = {k: v for k, v in s.pending_wagers.get(seat, {}).items() if v}
            if not wagers:
                continue
            positions = s.pending_positions.get(seat, ())
            for spot, amount in wagers.items():
                if amount < cfg.min_wager:
                    raise InvalidArgumentError(
                        f"{spot}: the least on one spot is {cfg.min_wager} cents"
                    )
            bet = SeatBet(wagers=wagers, positions=positions)
            try:
                game.validate_bet(bet)
            except RuleError as exc:
                raise InvalidArgumentError(f"seat {seat}: {exc}") from exc
            mandatory = [spot.id for spot in game.spots if spot.mandatory]
            reserve = wagers.get(mandatory[0], 0) if mandatory else 0
            if bet.total + reserve > cfg.table_max:
                raise InvalidArgumentError(
                    f"seat {seat}: wagers plus the possible {reserve} cents decision wager "
                    f"exceed the table maximum of {cfg.table_max} cents"
                )
            if bet.total > s.credits[seat]:
                raise IllegalCommandError(f"seat {seat}: not enough credits")
            bets.append(SeatBetRecord(seat=seat, bet=bet))
        if not bets:
            raise IllegalCommandError("place a wager first")
        edition = s.selected_edition
        started = e.RoundStarted(
            at=now,
            game_number=s.game_number + 1,
            edition=edition,
            paytables=dict(cfg.edition(edition).paytables),
            bets=tuple(bets),
        )
        if not cmd.table_game:
            return [started]
        joined = e.TableRoundJoined(
            at=now,
            game_number=started.game_number,
            table_id=cmd.table_id,
            table_game=cmd.table_game,
        )
        return [started, joined]

    def _void_round(self, cmd: c.VoidRound, now: int) -> list[e.Event]:
        rnd = self.state.round
        assert rnd is not None
        if not rnd.table_game:
            raise IllegalCommandError("only a table's round is voided")
        returned = sum(r.bet.total for r in rnd.bets) + sum(rnd.extra.values())
        return [
            e.RoundVoided(at=now, game_number=rnd.game_number, reason=cmd.reason, returned=returned)
        ]

    def _cards_drawn(self, cmd: c.CardsDrawn, now: int) -> list[e.Event]:
        s = self.state
        rnd = s.round
        assert rnd is not None
        need = self._cards_due()
        cards = list(cmd.cards)
        if len(cards) != need:
            raise InvalidArgumentError(f"{need} cards were needed, {len(cards)} drawn")
        drawn = set(cards)
        if (
            len(drawn) != len(cards)
            or not drawn.isdisjoint(rnd.first)
            or any(not drawn.isdisjoint(seat) for seat in rnd.seat_cards)
            or not all(0 <= x < 52 for x in cards)
        ):
            raise InvalidArgumentError("drawn cards must be distinct codes 0..51 not yet dealt")
        game = self.game(rnd.edition)
        if s.phase is Phase.DEALING:
            out: list[e.Event] = []
            for record in rnd.bets:
                offer = game.offer(record.bet, tuple(cards))
                if offer is not None:
                    out.append(
                        e.DecisionOffered(
                            at=now,
                            seat=record.seat,
                            kind=offer.kind,
                            choices=list(offer.choices),
                            default=offer.default,
                            take=offer.take,
                            extra_wager=offer.extra_wager,
                            spot=offer.spot,
                            deadline=decision_deadline(now, s.config.decision_seconds),
                        )
                    )
            return [
                e.CardsDealt(at=now, stage="first", shared=cards, per_seat=[], offers=len(out)),
                *out,
            ]
        per = game.second_deal_per_seat
        per_seat = [cards[i * per : (i + 1) * per] for i in range(len(rnd.bets))]
        shared = cards[per * len(rnd.bets) :]
        dealt = e.CardsDealt(at=now, stage="second", shared=shared, per_seat=per_seat, offers=0)
        return [dealt, self._settlement(now, per_seat, shared)]

    def _settlement(self, now: int, per_seat: list[list[int]], shared: list[int]) -> e.Event:
        s = self.state
        rnd = s.round
        assert rnd is not None
        game = self.game(rnd.edition)
        seats = []
        for index, record in enumerate(rnd.bets):
            choice = rnd.choices.get(record.seat)
            result = game.settle(
                record.bet, tuple(rnd.first), choice, tuple(per_seat[index]), tuple(shared)
            )
            paid = result.total_paid
            seats.append(
                SeatResult(
                    seat=record.seat,
                    stake=result.total_stake,
                    paid=paid,
                    handpay=paid >= s.config.handpay_limit,
                    results=tuple(result.results),
                )
            )
        return e.RoundSettled(at=now, game_number=rnd.game_number, seats=tuple(seats))

    def _decide(self, cmd: c.Decide, now: int) -> list[e.Event]:
        s = self.state
        rnd = s.round
        assert rnd is not None
        seat = self._seat(cmd.seat)
        offered = rnd.offers.get(seat)
        if offered is None or seat in rnd.choices:
            raise IllegalCommandError(f"seat {seat} has no decision to make")
        offer = offered.decision
        if cmd.choice not in offer.choices:
            raise InvalidArgumentError(
                f"choose one of {', '.join(offer.choices)}, not {cmd.choice!r}"
            )
        extra = offer.extra_wager if cmd.choice == offer.take else 0
        if extra > s.credits[seat]:
            raise IllegalCommandError(f"not enough credits to {cmd.choice}")
        return [
            e.DecisionMade(
                at=now, seat=seat, choice=cmd.choice, extra_wager=extra, automatic=cmd.automatic
            )
        ]

    def _cash_out(self, cmd: c.CashOut, now: int) -> list[e.Event]:
        s = self.state
        seat = self._seat(cmd.seat)
        value = s.credits[seat]
        if value <= 0:
            raise IllegalCommandError("no credits to cash out")
        if s.escrow.get(seat) or s.ticket_escrow.get(seat):
            raise IllegalCommandError("a note is in escrow; wait for it to be stacked")
        if value > s.config.ticket_out_limit or not cmd.printer_ready:
            return [
                e.HandpayLocked(
                    at=now, seat=seat, value=value, kind="cancelled_credits", game_number=0
                )
            ]
        if not cmd.validation_number.isdigit() or len(cmd.validation_number) != 18:
            raise InvalidArgumentError("a validation number has 18 digits")
        return [
            e.CashoutStarted(
                at=now, seat=seat, value=value, validation_number=cmd.validation_number
            )
        ]

    def _printer_report(self, cmd: c.PrinterReport, now: int) -> list[e.Event]:
        co = self.state.cashout
        assert co is not None
        if cmd.printed:
            return [
                e.VoucherPrinted(
                    at=now, seat=co.seat, value=co.value, validation_number=co.validation_number
                )
            ]
        return [
            e.VoucherFailed(
                at=now,
                seat=co.seat,
                value=co.value,
                validation_number=co.validation_number,
                reason=cmd.reason,
            )
        ]

    def _attendant_reset(self, cmd: c.AttendantReset, now: int) -> list[e.Event]:
        hp = self.state.handpay
        if hp is None:
            raise IllegalCommandError("no handpay to reset")
        return [e.HandpayReset(at=now, seat=hp.seat, value=hp.value, kind=hp.kind, by=cmd.by)]

    def _raise_tilt(self, cmd: c.RaiseTilt, now: int) -> list[e.Event]:
        current = self.state.tilts.get(cmd.code)
        if current is not None and current.reason == cmd.reason:
            return []
        return [
            e.TiltRaised(
                at=now, code=cmd.code, reason=cmd.reason, needs_attendant=cmd.needs_attendant
            )
        ]

    def _clear_tilt(self, cmd: c.ClearTilt, now: int) -> list[e.Event]:
        tilt = self.state.tilts.get(cmd.code)
        if tilt is None:
            return []
        if cmd.code in DISPUTE_TILTS:
            raise IllegalCommandError(
                f"tilt {cmd.code} is a device records dispute: only the host's confirmation or "
                "the operator's RAM clear ends it"
            )
        if tilt.needs_attendant and not cmd.by:
            raise InvalidArgumentError(f"tilt {cmd.code} must be cleared by an attendant")
        if cmd.code in OPERATOR_TILTS and not cleared_by_operator(cmd.by):
            raise InvalidArgumentError(f"tilt {cmd.code} is cleared only by the operator")
        return [e.TiltCleared(at=now, code=cmd.code, by=cmd.by)]

    def _confirm_records(self, cmd: c.ConfirmDeviceRecords, now: int) -> list[e.Event]:
        tilt = self.state.tilts.get(cmd.code)
        if cmd.code not in DISPUTE_TILTS or tilt is None:
            raise IllegalCommandError(f"no device records dispute {cmd.code!r} to confirm")
        if not cmd.by:
            raise InvalidArgumentError("a confirmation names who gave it")
        if cmd.reason and cmd.reason != tilt.reason:
            raise InvalidArgumentError(
                f"the dispute is no longer the one confirmed: it is now {tilt.reason!r}"
            )
        return [
            e.DeviceBaselineRecorded(
                at=now, device=cmd.device, journal=dict(cmd.journal), counters=dict(cmd.counters)
            ),
            e.TiltCleared(at=now, code=cmd.code, by=cmd.by),
        ]

    def _set_door(self, cmd: c.SetDoor, now: int) -> list[e.Event]:
        if (cmd.door in self.state.doors_open) == cmd.open:
            return []
        return [e.DoorChanged(at=now, door=cmd.door, open=cmd.open)]

    def _set_enabled(self, cmd: c.SetEnabled, now: int) -> list[e.Event]:
        held = self.state.disabled
        refused = cmd.reason.startswith(c.IDENTITY_REFUSED)
        if not cmd.enabled and held == c.ANCHOR_WAIT and refused:
            # the host refused the terminal before its anchor was checked: say so, still held
            return [e.EnableChanged(at=now, enabled=False, reason=cmd.reason)]
        if (held is None) == cmd.enabled:
            return []
        waits = held == c.ANCHOR_WAIT or (held or "").startswith(c.IDENTITY_REFUSED)
        if cmd.enabled and waits and cmd.reason != c.ANCHOR_CHECKED:
            raise IllegalCommandError("play waits for the host link's check of the host's anchor")
        return [e.EnableChanged(at=now, enabled=cmd.enabled, reason=cmd.reason)]

    def _set_service(self, cmd: c.SetService, now: int) -> list[e.Event]:
        s = self.state
        if cmd.active and s.service_role == cmd.role:
            return []
        if not cmd.active and s.service_role is None:
            return []
        return [e.ServiceChanged(at=now, active=cmd.active, role=cmd.role if cmd.active else "")]

    def _change_config(self, cmd: c.ChangeConfig, now: int) -> list[e.Event]:
        s = self.state
        if s.service_role is None:
            raise IllegalCommandError("configuration changes only from the service menu")
        if any(s.credits) or any(s.escrow.values()) or s.cashout or s.handpay:
            raise IllegalCommandError("configuration changes need zero credits and nothing pending")
        try:
            new = from_dict(cmd.config)
        except (ConfigError, TypeError) as exc:
            raise InvalidArgumentError(f"configuration refused: {exc}") from exc
        if new.seats != s.config.seats:
            raise InvalidArgumentError("seats: the number of seats is fixed at installation")
        version = cmd.version or s.config_version + 1
        if version <= s.config_version:
            raise InvalidArgumentError(
                f"configuration version {version} is not newer than the one in force, "
                f"{s.config_version}"
            )
        return [
            e.ConfigChanged(at=now, before=to_dict(s.config), after=to_dict(new), by=cmd.by),
            e.ConfigVersioned(at=now, version=version, source=cmd.source),
        ]

    def _reset_period(self, cmd: c.ResetPeriodMeters, now: int) -> list[e.Event]:
        if self.state.service_role is None:
            raise IllegalCommandError("period meters are reset only from the service menu")
        return [e.PeriodMetersReset(at=now, by=cmd.by)]

    def _record_baseline(self, cmd: c.RecordDeviceBaseline, now: int) -> list[e.Event]:
        return [
            e.DeviceBaselineRecorded(
                at=now, device=cmd.device, journal=dict(cmd.journal), counters=dict(cmd.counters)
            )
        ]

    def _record_withdrawal(self, cmd: c.RecordWithdrawal, now: int) -> list[e.Event]:
        withdrawn = e.HeadWithdrawn(
            at=now,
            epoch=cmd.epoch,
            seq=cmd.seq,
            chain_hash=cmd.chain_hash,
            store_seq=cmd.store_seq,
            game_number=cmd.game_number,
        )
        recent = [t for t in cmd.earlier if 0 <= now - t < cmd.window_ms]
        if not recent:
            return [withdrawn]
        hours = cmd.window_ms / 3_600_000
        lock = e.TiltRaised(
            at=now,
            code=TiltCode.HEAD_WITHDRAWN,
            reason=f"a second withdrawn head within {hours:g} h (rows {cmd.store_seq + 1}-"
            f"{cmd.seq} signed but not in the store): the operator checks the store and clears",
            needs_attendant=True,
        )
        return [withdrawn, lock]

    def _report_critical(self, cmd: c.ReportCritical, now: int) -> list[e.Event]:
        if self.state.critical is not None:
            return []
        return [e.CriticalMemoryError(at=now, reason=cmd.reason)]

    def _pin_record(self, role: str) -> dict[str, Any]:
        pins = self.state.pins
        if role not in ROLE_NAMES:
            raise InvalidArgumentError(f"no role {role!r}")
        if pins is None or role not in pins:
            raise IllegalCommandError(f"no PIN record for the {role} role in the journal")
        return pins[role]

    def _record_pin_entry(self, cmd: c.RecordPinEntry, now: int) -> list[e.Event]:
        rec = self._pin_record(cmd.role)
        if cmd.accepted:
            if rec["failures"] or rec["locked_until"] or cmd.failures:
                return [e.PinAccepted(at=now, role=cmd.role)]
            return []
        if cmd.failures <= rec["failures"]:
            raise InvalidArgumentError(f"a wrong PIN makes the count more than {rec['failures']}")
        events: list[e.Event] = [e.PinRefused(at=now, role=cmd.role, failures=cmd.failures)]
        if cmd.locked_until > now:
            events.append(
                e.PinLockedOut(at=now, role=cmd.role, until=cmd.locked_until, failures=cmd.failures)
            )
        return events

    def _set_pin(self, cmd: c.SetPin, now: int) -> list[e.Event]:
        rec = self._pin_record(cmd.role)
        try:
            record = checked_hash(cmd.record)
        except PinRecordError as exc:
            raise InvalidArgumentError(f"PIN record refused: {exc}") from exc
        events: list[e.Event] = [
            e.PinSet(
                at=now,
                role=cmd.role,
                record=record,
                must_change=cmd.must_change,
                reason=cmd.reason,
            )
        ]
        if rec["failures"] or rec["locked_until"] > now:
            events.append(e.PinLockoutLifted(at=now, role=cmd.role, by=cmd.by))
        return events

    def _migrate_pins(self, cmd: c.MigratePins, now: int) -> list[e.Event]:
        if self.state.pins is not None:
            raise IllegalCommandError("the PIN records are in the journal already")
        try:
            records = {role: migrated_record(cmd.records.get(role), now) for role in ROLE_NAMES}
        except PinRecordError as exc:
            raise InvalidArgumentError(f"PIN records refused: {exc}") from exc
        return [e.PinsMigrated(at=now, records=records, source=cmd.source)]

    def _transfer(self, cmd: c.TransferFunds, now: int) -> list[e.Event]:
        s = self.state
        seat = self._seat(cmd.seat)
        if cmd.kind not in TRANSFER_KINDS:
            raise InvalidArgumentError(f"no transfer kind {cmd.kind!r}")
        if not cmd.transaction_id or len(cmd.transaction_id) > 20:
            raise InvalidArgumentError("a transfer's id has 1 to 20 characters")
        family = _transfer_family(cmd.kind)
        for done in s.transfers:
            if _transfer_family(done.kind) == family and done.transaction_id == cmd.transaction_id:
                raise DuplicateReportError(f"transfer {cmd.transaction_id} was made already")
        amount = cmd.cashable
        if amount <= 0:
            raise TransferRefusedError(f"transfer of {amount} cents", "amount")
        if amount > cmd.limit:
            raise TransferRefusedError(f"{amount} cents is over the limit {cmd.limit}", "limit")
        credits = s.credits[seat]
        if cmd.kind == "aft_out":
            if credits <= 0:
                raise TransferRefusedError("no credits to transfer to the host", "credits")
            if amount > credits:
                if not cmd.partial:
                    raise TransferRefusedError(f"{amount} cents asked, {credits} held", "credits")
                amount = credits
        elif cmd.kind == "aft_in" and credits + amount > s.config.credit_limit:
            raise TransferRefusedError("the credits would pass the credit limit", "credit_limit")
        return [
            e.FundsTransferred(
                at=now,
                seat=seat,
                kind=cmd.kind,
                transaction_id=cmd.transaction_id,
                cashable=amount,
                requested=cmd.cashable,
                limit=cmd.limit,
                tax_status=cmd.tax_status,
                pos_id=cmd.pos_id,
            )
        ]

    def _pay_progressive(self, cmd: c.PayProgressive, now: int) -> list[e.Event]:
        s = self.state
        seat = self._seat(cmd.seat)
        if any(p.key == cmd.key for p in s.progressive_paid):
            raise DuplicateReportError(f"progressive hit {cmd.key} was paid already")
        if cmd.award <= 0:
            raise InvalidArgumentError(f"a progressive award of {cmd.award} cents")
        parts = cmd.key.split("/")
        if len(parts) != 4 or not all(parts) or not parts[1].isdigit() or not cmd.progressive:
            raise InvalidArgumentError(
                f"a progressive hit names its wager (source/game/seat/spot) and its meter, "
                f"not {cmd.key!r}"
            )
        if cmd.handpay and s.handpay is not None:
            raise IllegalCommandError("a handpay waits for the attendant; the hit is paid after")
        return [
            e.ProgressiveAwarded(
                at=now,
                seat=seat,
                key=cmd.key,
                progressive=cmd.progressive,
                outcome=cmd.outcome,
                award=cmd.award,
                handpay=cmd.handpay,
            )
        ]

    # --- the fold -----------------------------------------------------------------------------

    def _meter(self, name: str, amount: int = 1) -> None:
        s = self.state
        advance(name, amount, s.lifetime, s.period)

    def _a_powered_up(self, ev: e.PoweredUp) -> None:
        self._meter("power_resets")

    def _a_withdrawn(self, ev: e.HeadWithdrawn) -> None:
        """Only the record: the signer keeps the times (a store put back cannot hide them)."""

    def _a_critical(self, ev: e.CriticalMemoryError) -> None:
        self.state.critical = ev.reason

    def _a_storage_full(self, ev: e.StorageFull) -> None:
        """Only the record of the fault: nothing was applied while the disk was full."""

    def _a_ram_cleared(self, ev: e.RamCleared) -> None:
        """Nothing to fold: the new store's genesis state is the state after a RAM clear."""

    def _a_config(self, ev: e.ConfigChanged) -> None:
        s = self.state
        s.config = from_dict(ev.after)
        self._games.clear()
        enabled = [ed.edition for ed in s.config.editions]
        if s.selected_edition not in enabled:
            s.selected_edition = enabled[0]
        s.pending_wagers.clear()
        s.pending_positions.clear()
        s.last_bets = {k: v for k, v in s.last_bets.items() if v.edition in enabled}

    def _a_period_reset(self, ev: e.PeriodMetersReset) -> None:
        self.state.period = Meters()

    def _a_escrow(self, ev: e.BillEscrowAccepted) -> None:
        self.state.escrow[ev.seat] = ev.value

    def _a_bill_returned(self, ev: e.BillReturned) -> None:
        if self.state.escrow.get(ev.seat) == ev.value:
            del self.state.escrow[ev.seat]

    def _a_bill_stacked(self, ev: e.BillStacked) -> None:
        s = self.state
        s.escrow.pop(ev.seat, None)
        s.credits[ev.seat] += ev.value
        self._meter("bills_in", ev.value)
        self._meter("bills_in_count")
        self._meter(f"bills_in.{ev.value}")

    def _a_ticket_escrow(self, ev: e.TicketEscrowAccepted) -> None:
        self.state.ticket_escrow[ev.seat] = TicketEscrow(ev.validation_number, ev.value)

    def _a_ticket_returned(self, ev: e.TicketReturned) -> None:
        held = self.state.ticket_escrow.get(ev.seat)
        if held is not None and held.validation_number == ev.validation_number:
            del self.state.ticket_escrow[ev.seat]

    def _a_ticket(self, ev: e.TicketRedeemed) -> None:
        held = self.state.ticket_escrow.get(ev.seat)
        if held is not None and held.validation_number == ev.validation_number:
            del self.state.ticket_escrow[ev.seat]
        self.state.credits[ev.seat] += ev.value
        self._meter("tickets_in", ev.value)
        self._meter("tickets_in_count")

    def _a_round_started(self, ev: e.RoundStarted) -> None:
        s = self.state
        s.round = RoundState(
            game_number=ev.game_number,
            edition=ev.edition,
            paytables=dict(ev.paytables),
            bets=ev.bets,
            credits_before=list(s.credits),
            started_at=ev.at,
        )
        s.game_number = ev.game_number
        s.selected_edition = ev.edition
        key = paytable_key(ev.paytables)
        for record in ev.bets:
            bet = record.bet
            stake = bet.total
            s.credits[record.seat] -= stake
            self._meter("coin_in", stake)
            self._meter(f"game.{ev.edition}.{key}.in", stake)
            for spot, amount in bet.wagers.items():
                self._meter(f"wager_in.{spot}", amount)
            s.last_bets[record.seat] = LastBet(edition=ev.edition, bet=bet)
        s.pending_wagers.clear()
        s.pending_positions.clear()
        s.phase = Phase.DEALING

    def _a_cards(self, ev: e.CardsDealt) -> None:
        rnd = self.state.round
        assert rnd is not None
        if ev.stage == "first":
            rnd.first = list(ev.shared)
            self.state.phase = Phase.DECISION if ev.offers else Phase.SETTLING
        else:
            rnd.seat_cards = [list(x) for x in ev.per_seat]
            rnd.second_shared = list(ev.shared)

    def _a_offer(self, ev: e.DecisionOffered) -> None:
        rnd = self.state.round
        assert rnd is not None
        decision = DecisionOffer(
            kind=ev.kind,
            choices=tuple(ev.choices),
            default=ev.default,
            take=ev.take,
            extra_wager=ev.extra_wager,
            spot=ev.spot,
        )
        rnd.offers[ev.seat] = OfferRecord(decision=decision, deadline=ev.deadline)

    def _a_decision(self, ev: e.DecisionMade) -> None:
        s = self.state
        rnd = s.round
        assert rnd is not None
        rnd.choices[ev.seat] = ev.choice
        rnd.automatic[ev.seat] = ev.automatic
        if ev.extra_wager:
            spot = rnd.offers[ev.seat].decision.spot
            rnd.extra[ev.seat] = ev.extra_wager
            s.credits[ev.seat] -= ev.extra_wager
            self._meter("coin_in", ev.extra_wager)
            self._meter(f"wager_in.{spot}", ev.extra_wager)
            key = paytable_key(rnd.paytables)
            self._meter(f"game.{rnd.edition}.{key}.in", ev.extra_wager)
        if all(seat in rnd.choices for seat in rnd.offers):
            s.phase = Phase.SETTLING

    def _a_settled(self, ev: e.RoundSettled) -> None:
        s = self.state
        rnd = s.round
        assert rnd is not None
        rnd.settlement = ev.seats
        rnd.settled_at = ev.at
        key = paytable_key(rnd.paytables)
        for seat_result in ev.seats:
            seat, stake, paid = seat_result.seat, seat_result.stake, seat_result.paid
            self._meter("games_played")
            self._meter(f"game.{rnd.edition}.{key}.played")
            self._meter(f"game.{rnd.edition}.{key}.out", paid)
            self._meter(
                "games_won" if paid > stake else "games_pushed" if paid == stake else "games_lost"
            )
            for r in seat_result.results:
                self._meter(f"wager_out.{r.spot}", r.paid)
            if seat_result.handpay:
                s.handpay = Handpay(
                    seat=seat, value=paid, kind="jackpot", game_number=rnd.game_number
                )
            else:
                s.credits[seat] += paid
                self._meter("coin_out", paid)
        s.phase = Phase.RESULT

    def _a_table_round(self, ev: e.TableRoundJoined) -> None:
        rnd = self.state.round
        assert rnd is not None
        rnd.table_id, rnd.table_game = ev.table_id, ev.table_game

    def _a_voided(self, ev: e.RoundVoided) -> None:
        s = self.state
        rnd = s.round
        assert rnd is not None
        for record in rnd.bets:
            back = record.bet.total + rnd.extra.get(record.seat, 0)
            s.credits[record.seat] += back
            self._meter("voided_returns", back)  # credits = ... - coin_in + voided_returns
        self._meter("games_voided")
        rnd.voided = ev.reason or "voided"
        rnd.settled_at = ev.at
        s.phase = Phase.RESULT

    def _a_cashout(self, ev: e.CashoutStarted) -> None:
        s = self.state
        s.cashout = Cashout(seat=ev.seat, value=ev.value, validation_number=ev.validation_number)
        s.pending_wagers.clear()
        s.pending_positions.clear()
        s.phase = Phase.CASHOUT

    def _end_cashout(self) -> None:
        s = self.state
        s.cashout = None
        s.phase = Phase.RESULT if s.round is not None else Phase.IDLE

    def _a_printed(self, ev: e.VoucherPrinted) -> None:
        s = self.state
        s.credits[ev.seat] -= ev.value
        self._meter("tickets_out", ev.value)
        self._meter("tickets_out_count")
        self._end_cashout()

    def _a_voucher_failed(self, ev: e.VoucherFailed) -> None:
        self._end_cashout()

    def _a_handpay_locked(self, ev: e.HandpayLocked) -> None:
        s = self.state
        s.handpay = Handpay(seat=ev.seat, value=ev.value, kind=ev.kind, game_number=0)
        s.pending_wagers.clear()
        s.pending_positions.clear()
        if s.phase is Phase.WAGERING:
            s.phase = Phase.RESULT if s.round is not None else Phase.IDLE

    def _a_handpay_reset(self, ev: e.HandpayReset) -> None:
        s = self.state
        s.handpay = None
        self._meter("handpay_count")
        if ev.kind == "jackpot":
            self._meter("handpaid_jackpots", ev.value)
        elif ev.kind == "progressive":
            self._meter("handpaid_progressive", ev.value)
            self._meter("handpaid_progressive_count")
        else:
            s.credits[ev.seat] -= ev.value
            self._meter("handpaid_cancelled_credits", ev.value)

    def _a_transferred(self, ev: e.FundsTransferred) -> None:
        s = self.state
        position = 0
        if ev.kind != "legacy_bonus":
            position = s.lifetime["aft_transfers"] % TRANSFER_HISTORY + 1
            self._meter("aft_transfers")
        if ev.kind == "aft_out":
            s.credits[ev.seat] -= ev.cashable
            s.pending_wagers.pop(ev.seat, None)
            s.pending_positions.pop(ev.seat, None)
        else:
            s.credits[ev.seat] += ev.cashable
        self._meter(ev.kind, ev.cashable)
        self._meter(f"{ev.kind}_count")
        if ev.kind == "legacy_bonus":
            self._meter(f"legacy_bonus.{ev.tax_status}", ev.cashable)
        record = TransferRecord(
            kind=ev.kind,
            transaction_id=ev.transaction_id,
            cashable=ev.cashable,
            requested=ev.requested,
            at=ev.at,
            position=position,
            tax_status=ev.tax_status,
            pos_id=ev.pos_id,
            meter=s.lifetime[ev.kind],
        )
        s.transfers = [*s.transfers, record][-TRANSFER_HISTORY:]

    def _a_progressive(self, ev: e.ProgressiveAwarded) -> None:
        s = self.state
        paid = ProgressivePaid(ev.key, ev.progressive, ev.outcome, ev.seat, ev.award, ev.handpay)
        s.progressive_paid = [*s.progressive_paid, paid]
        if ev.handpay:
            s.handpay = Handpay(
                seat=ev.seat,
                value=ev.award,
                kind="progressive",
                game_number=paid.game,
                name=ev.outcome,
            )
            s.pending_wagers.clear()
            s.pending_positions.clear()
            if s.phase is Phase.WAGERING:
                s.phase = Phase.RESULT if s.round is not None else Phase.IDLE
            return
        s.credits[ev.seat] += ev.award
        self._meter("progressive_won", ev.award)
        self._meter("progressive_won_count")

    def _a_tilt(self, ev: e.TiltRaised) -> None:
        if ev.code not in self.state.tilts:
            self._meter("tilts")
        self.state.tilts[ev.code] = Tilt(reason=ev.reason, needs_attendant=ev.needs_attendant)

    def _a_tilt_cleared(self, ev: e.TiltCleared) -> None:
        self.state.tilts.pop(ev.code, None)

    def _a_door(self, ev: e.DoorChanged) -> None:
        s = self.state
        if ev.open:
            s.doors_open = sorted({*s.doors_open, ev.door})
            self._meter("door_opens")
        else:
            s.doors_open = [d for d in s.doors_open if d != ev.door]

    def _a_enable(self, ev: e.EnableChanged) -> None:
        self.state.disabled = None if ev.enabled else (ev.reason or "disabled by the host")

    def _a_service(self, ev: e.ServiceChanged) -> None:
        self.state.service_role = ev.role if ev.active else None
        if ev.active:
            self.state.pending_wagers.clear()
            self.state.pending_positions.clear()
            if self.state.phase is Phase.WAGERING:
                self.state.phase = Phase.RESULT if self.state.round is not None else Phase.IDLE

    def _a_config_version(self, ev: e.ConfigVersioned) -> None:
        self.state.config_version = ev.version

    def _a_pin(self, role: str, at: int, **changes: Any) -> None:
        pins = self.state.pins
        assert pins is not None
        pins[role] = {**pins[role], **changes, "updated_at": at}

    def _a_pin_set(self, ev: e.PinSet) -> None:
        pins = self.state.pins
        assert pins is not None
        pins[ev.role] = {
            **ev.record,
            "must_change": ev.must_change,
            "failures": 0,
            "locked_until": 0,
            "changed_at": ev.at,
            "updated_at": ev.at,
        }

    def _a_pin_refused(self, ev: e.PinRefused) -> None:
        self._a_pin(ev.role, ev.at, failures=ev.failures, locked_until=0)

    def _a_pin_locked(self, ev: e.PinLockedOut) -> None:
        self._a_pin(ev.role, ev.at, failures=ev.failures, locked_until=ev.until)

    def _a_pin_accepted(self, ev: e.PinAccepted) -> None:
        self._a_pin(ev.role, ev.at, failures=0, locked_until=0)

    def _a_lockout_lifted(self, ev: e.PinLockoutLifted) -> None:
        self._a_pin(ev.role, ev.at, failures=0, locked_until=0)

    def _a_pins_migrated(self, ev: e.PinsMigrated) -> None:
        self.state.pins = {role: dict(record) for role, record in ev.records.items()}


_HANDLERS: dict[type[c.Command], Callable[[TerminalCore, Any, int], list[e.Event]]] = {
    c.PowerUp: TerminalCore._power_up,
    c.InsertBill: TerminalCore._insert_bill,
    c.BillStackedReport: TerminalCore._bill_stacked,
    c.BillReturnedReport: TerminalCore._bill_returned,
    c.InsertTicket: TerminalCore._insert_ticket,
    c.TicketStackedReport: TerminalCore._ticket_stacked,
    c.TicketReturnedReport: TerminalCore._ticket_returned,
    c.SelectEdition: TerminalCore._select_edition,
    c.PlaceWager: TerminalCore._place_wager,
    c.ClearWagers: TerminalCore._clear_wagers,
    c.RepeatWagers: TerminalCore._repeat_wagers,
    c.SelectPositions: TerminalCore._select_positions,
    c.Deal: TerminalCore._deal,
    c.VoidRound: TerminalCore._void_round,
    c.CardsDrawn: TerminalCore._cards_drawn,
    c.Decide: TerminalCore._decide,
    c.CashOut: TerminalCore._cash_out,
    c.PrinterReport: TerminalCore._printer_report,
    c.AttendantReset: TerminalCore._attendant_reset,
    c.RaiseTilt: TerminalCore._raise_tilt,
    c.ClearTilt: TerminalCore._clear_tilt,
    c.SetDoor: TerminalCore._set_door,
    c.SetEnabled: TerminalCore._set_enabled,
    c.SetService: TerminalCore._set_service,
    c.ChangeConfig: TerminalCore._change_config,
    c.ResetPeriodMeters: TerminalCore._reset_period,
    c.ReportCritical: TerminalCore._report_critical,
    c.RecordWithdrawal: TerminalCore._record_withdrawal,
    c.RecordPinEntry: TerminalCore._record_pin_entry,
    c.SetPin: TerminalCore._set_pin,
    c.MigratePins: TerminalCore._migrate_pins,
    c.RecordDeviceBaseline: TerminalCore._record_baseline,
    c.ConfirmDeviceRecords: TerminalCore._confirm_records,
    c.TransferFunds: TerminalCore._transfer,
    c.PayProgressive: TerminalCore._pay_progressive,
}

APPLY: dict[type[e.Event], Callable[[TerminalCore, Any], None]] = {
    e.PoweredUp: TerminalCore._a_powered_up,
    e.CriticalMemoryError: TerminalCore._a_critical,
    e.HeadWithdrawn: TerminalCore._a_withdrawn,
    e.StorageFull: TerminalCore._a_storage_full,
    e.RamCleared: TerminalCore._a_ram_cleared,
    e.ConfigChanged: TerminalCore._a_config,
    e.PeriodMetersReset: TerminalCore._a_period_reset,
    e.BillEscrowAccepted: TerminalCore._a_escrow,
    e.BillReturned: TerminalCore._a_bill_returned,
    e.BillStacked: TerminalCore._a_bill_stacked,
    e.TicketRedeemed: TerminalCore._a_ticket,
    e.TicketEscrowAccepted: TerminalCore._a_ticket_escrow,
    e.TicketReturned: TerminalCore._a_ticket_returned,
    e.RoundStarted: TerminalCore._a_round_started,
    e.CardsDealt: TerminalCore._a_cards,
    e.DecisionOffered: TerminalCore._a_offer,
    e.DecisionMade: TerminalCore._a_decision,
    e.RoundSettled: TerminalCore._a_settled,
    e.RoundVoided: TerminalCore._a_voided,
    e.TableRoundJoined: TerminalCore._a_table_round,
    e.CashoutStarted: TerminalCore._a_cashout,
    e.VoucherPrinted: TerminalCore._a_printed,
    e.VoucherFailed: TerminalCore._a_voucher_failed,
    e.HandpayLocked: TerminalCore._a_handpay_locked,
    e.HandpayReset: TerminalCore._a_handpay_reset,
    e.TiltRaised: TerminalCore._a_tilt,
    e.TiltCleared: TerminalCore._a_tilt_cleared,
    e.DoorChanged: TerminalCore._a_door,
    e.EnableChanged: TerminalCore._a_enable,
    e.ServiceChanged: TerminalCore._a_service,
    e.ConfigVersioned: TerminalCore._a_config_version,
    e.PinSet: TerminalCore._a_pin_set,
    e.PinRefused: TerminalCore._a_pin_refused,
    e.PinLockedOut: TerminalCore._a_pin_locked,
    e.PinAccepted: TerminalCore._a_pin_accepted,
    e.PinLockoutLifted: TerminalCore._a_lockout_lifted,
    e.PinsMigrated: TerminalCore._a_pins_migrated,
    e.FundsTransferred: TerminalCore._a_transferred,
    e.ProgressiveAwarded: TerminalCore._a_progressive,
    e.DeviceBaselineRecorded: lambda core, ev: None,  # a record for the audit trail only
}


def decision_deadline(now: int, seconds: int) -> int:
    """When an offered decision is taken for the player: ``seconds`` from ``now``, or 0 for
    none (no timer set: the round waits for the player, decision 0054)."""
    return now + seconds * 1000 if seconds else 0
