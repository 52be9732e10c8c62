"""What a player at the text terminal is told about each committed event."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from kiosk.kernel.games.base import GameRules
from kiosk.kernel.time_text import clock_time
from kiosk.terminal.core import events as e
from kiosk.terminal.core.state import RoundState, TerminalState
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.played_game import game_of
from kiosk.terminal.textui.families import text_family
from kiosk.terminal.textui.show import (
    dealer_lines,
    decision_text,
    first_deal_lines,
    offer_text,
    result_lines,
    seat_hand_lines,
    settlement_total,
    title_of,
    wagers_text,
)


def deadline_text(deadline: int, now: int) -> str:
    """``"decide by 14:05:29 (20 s left)"``; ``"no timer"`` for a decision without one."""
    if not deadline:
        return "no timer"
    left = max(0, -(-(deadline - now) // 1000))
    return f"decide by {clock_time(deadline)} ({left} s left)"


class Narrator:
    """Turns events into lines, reading the state they produced (called after each commit)."""

    def __init__(self, state: Callable[[], TerminalState], clock: Callable[[], int]) -> None:
        self._state = state
        self._clock = clock

    def lines(self, events: Iterable[e.Event]) -> list[str]:
        """Lines for a batch of events, in order."""
        out: list[str] = []
        for event in events:
            out += self.event_lines(event)
        return out

    def _round(self) -> tuple[RoundState, GameRules | None]:
        rnd = self._state().round
        assert rnd is not None, "a round event without a round"
        return rnd, game_of(rnd)

    def event_lines(self, event: e.Event) -> list[str]:
        """Lines for one event (nothing for bookkeeping the player does not need)."""
        say = _SAYINGS.get(type(event))
        return [] if say is None else say(self, event)

    def _powered_up(self, event: e.PoweredUp) -> list[str]:
        terminal = self._state().config.terminal_id
        lines = [f"Terminal {terminal} powered up (software {event.software_version})."]
        if event.recovered:
            lines.append(f"Recovery: {event.recovered}")
        return lines

    def _bill_stacked(self, event: e.BillStacked) -> list[str]:
        return [f"{dollars(event.value)} note stacked: credits {self.credits(event.seat)}."]

    def _round_voided(self, event: e.RoundVoided) -> list[str]:
        return [
            f"Game {event.game_number} voided: {event.reason}; "
            f"{dollars(event.returned)} returned: credits {self.credits(0)}."
        ]

    def _ticket_redeemed(self, event: e.TicketRedeemed) -> list[str]:
        return [f"Voucher {dollars(event.value)} redeemed: credits {self.credits(event.seat)}."]

    def _round_started(self, event: e.RoundStarted) -> list[str]:
        _, game = self._round()
        lines = [f"Game {event.game_number}  {title_of(game, event.edition)}"]
        for bet in event.bets:
            lines.append(f"  wagers taken: {wagers_text(game, bet.bet.wagers)}")
        return lines

    def _cards_dealt(self, event: e.CardsDealt) -> list[str]:
        record, game = self._round()
        if event.stage == "first":
            lines = first_deal_lines(game, record)
            if record.bets and record.bets[0].bet.positions:
                lines += seat_hand_lines(game, record, 0)
            if not event.offers:
                lines += text_family(game).no_offer_lines(game)
        else:
            lines = dealer_lines(game, record)
            if record.bets and not record.bets[0].bet.positions:
                lines += seat_hand_lines(game, record, 0)
        return [f"  {line}" for line in lines]

    def _decision_offered(self, event: e.DecisionOffered) -> list[str]:
        record, game = self._round()
        offer = record.offers[event.seat].decision
        return [
            f"  {offer_text(game, offer)}",
            f"  {deadline_text(event.deadline, self._clock())}",
        ]

    def _decision_made(self, event: e.DecisionMade) -> list[str]:
        record, _ = self._round()
        return [f"  Decision: {decision_text(record, event.seat)}"]

    def _round_settled(self, event: e.RoundSettled) -> list[str]:
        _, game = self._round()
        lines = []
        for seat_result in event.seats:
            lines += [f"  {x}" for x in result_lines(game, seat_result.results)]
            lines.append(f"  Total: {settlement_total(seat_result)}")
            lines.append(f"  Credits {self.credits(seat_result.seat)}.")
        return lines

    def _voucher_printed(self, event: e.VoucherPrinted) -> list[str]:
        return [
            f"Voucher printed: {dollars(event.value)}, validation number "
            f"{event.validation_number}. Credits {self.credits(event.seat)}."
        ]

    def _handpay_reset(self, event: e.HandpayReset) -> list[str]:
        return [
            f"Handpay {dollars(event.value)} paid by {event.by}. Credits "
            f"{self.credits(event.seat)}."
        ]

    def credits(self, seat: int) -> str:
        """The seat's credit meter in dollars."""
        return dollars(self._state().credits[seat])


def _handpay_locked(event: e.HandpayLocked) -> list[str]:
    kind = event.kind.replace("_", " ")
    return [f"HANDPAY {dollars(event.value)} ({kind}): call an attendant (type 'attendant')."]


def _tilt_raised(event: e.TiltRaised) -> list[str]:
    who = " (needs an attendant)" if event.needs_attendant else ""
    return [f"TILT {event.code}: {event.reason}{who}."]


def _tilt_cleared(event: e.TiltCleared) -> list[str]:
    return [f"Tilt {event.code} cleared" + (f" by {event.by}." if event.by else ".")]


def _service_changed(event: e.ServiceChanged) -> list[str]:
    return [f"Service menu {'entered by ' + event.role if event.active else 'left'}."]


def _plain(line: Callable[[Any], str]) -> Callable[[Narrator, Any], list[str]]:
    """A saying that needs only the event (no state, no clock)."""
    return lambda _narrator, event: [line(event)]


def _listed(lines: Callable[[Any], list[str]]) -> Callable[[Narrator, Any], list[str]]:
    return lambda _narrator, event: lines(event)


#: what the player is told for each kind of event (kinds not here say nothing)
_SAYINGS: dict[type[e.Event], Callable[[Narrator, Any], list[str]]] = {
    e.PoweredUp: Narrator._powered_up,
    e.CriticalMemoryError: _plain(
        lambda ev: f"CRITICAL MEMORY ERROR: {ev.reason}. The terminal is locked."
    ),
    e.BillStacked: Narrator._bill_stacked,
    e.RoundVoided: Narrator._round_voided,
    e.BillReturned: _plain(lambda ev: f"{dollars(ev.value)} note returned: {ev.reason}."),
    e.TicketRedeemed: Narrator._ticket_redeemed,
    e.RoundStarted: Narrator._round_started,
    e.CardsDealt: Narrator._cards_dealt,
    e.DecisionOffered: Narrator._decision_offered,
    e.DecisionMade: Narrator._decision_made,
    e.RoundSettled: Narrator._round_settled,
    e.CashoutStarted: _plain(lambda ev: f"Printing a voucher for {dollars(ev.value)}..."),
    e.VoucherPrinted: Narrator._voucher_printed,
    e.VoucherFailed: _plain(lambda ev: f"Voucher not printed ({ev.reason}): the credits stay."),
    e.HandpayLocked: _listed(_handpay_locked),
    e.HandpayReset: Narrator._handpay_reset,
    e.TiltRaised: _listed(_tilt_raised),
    e.TiltCleared: _listed(_tilt_cleared),
    e.DoorChanged: _plain(lambda ev: f"{ev.door} door {'opened' if ev.open else 'closed'}."),
    e.EnableChanged: _plain(
        lambda ev: "Play enabled." if ev.enabled else f"Play disabled: {ev.reason}."
    ),
    e.ServiceChanged: _listed(_service_changed),
    e.ConfigChanged: _plain(lambda ev: f"Configuration changed by {ev.by}."),
    e.PeriodMetersReset: _plain(lambda ev: f"Period meters reset by {ev.by}."),
}
