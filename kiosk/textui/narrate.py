"""What a player at the text terminal is told about each committed event."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kiosk.games.base import GameRules
from kiosk.presentation.money import dollars
from kiosk.presentation.played_game import game_of
from kiosk.terminal import events as e
from kiosk.terminal.state import RoundState, TerminalState
from kiosk.textui.families import text_family
from kiosk.textui.show import (
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
from kiosk.time_text import clock_time


def deadline_text(deadline: int, now: int) -> str:
    """``"decide by 14:05:29 (20 s left)"``."""
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
        s = self._state()
        match event:
            case e.PoweredUp():
                lines = [
                    f"Terminal {s.config.terminal_id} powered up (software "
                    f"{event.software_version})."
                ]
                if event.recovered:
                    lines.append(f"Recovery: {event.recovered}")
                return lines
            case e.CriticalMemoryError():
                return [f"CRITICAL MEMORY ERROR: {event.reason}. The terminal is locked."]
            case e.BillStacked():
                return [f"{dollars(event.value)} note stacked: credits {self.credits(event.seat)}."]
            case e.RoundVoided():
                return [
                    f"Game {event.game_number} voided: {event.reason}; "
                    f"{dollars(event.returned)} returned: credits {self.credits(0)}."
                ]
            case e.BillReturned():
                return [f"{dollars(event.value)} note returned: {event.reason}."]
            case e.TicketRedeemed():
                return [
                    f"Voucher {dollars(event.value)} redeemed: credits {self.credits(event.seat)}."
                ]
            case e.RoundStarted():
                record, game = self._round()
                lines = [f"Game {event.game_number}  {title_of(game, event.edition)}"]
                for bet in event.bets:
                    lines.append(f"  wagers taken: {wagers_text(game, bet.bet.wagers)}")
                return lines
            case e.CardsDealt(stage="first"):
                record, game = self._round()
                lines = first_deal_lines(game, record)
                if record.bets and record.bets[0].bet.positions:
                    lines += seat_hand_lines(game, record, 0)
                if not event.offers:
                    lines += text_family(game).no_offer_lines(game)
                return [f"  {line}" for line in lines]
            case e.DecisionOffered():
                record, game = self._round()
                offer = record.offers[event.seat].decision
                return [
                    f"  {offer_text(game, offer)}",
                    f"  {deadline_text(event.deadline, self._clock())}",
                ]
            case e.DecisionMade():
                record, _ = self._round()
                return [f"  Decision: {decision_text(record, event.seat)}"]
            case e.CardsDealt():
                record, game = self._round()
                lines = dealer_lines(game, record)
                if record.bets and not record.bets[0].bet.positions:
                    lines += seat_hand_lines(game, record, 0)
                return [f"  {line}" for line in lines]
            case e.RoundSettled():
                record, game = self._round()
                lines = []
                for seat_result in event.seats:
                    lines += [f"  {x}" for x in result_lines(game, seat_result.results)]
                    lines.append(f"  Total: {settlement_total(seat_result)}")
                    lines.append(f"  Credits {self.credits(seat_result.seat)}.")
                return lines
            case e.CashoutStarted():
                return [f"Printing a voucher for {dollars(event.value)}..."]
            case e.VoucherPrinted():
                return [
                    f"Voucher printed: {dollars(event.value)}, validation number "
                    f"{event.validation_number}. Credits {self.credits(event.seat)}."
                ]
            case e.VoucherFailed():
                return [f"Voucher not printed ({event.reason}): the credits stay."]
            case e.HandpayLocked():
                kind = event.kind.replace("_", " ")
                return [
                    f"HANDPAY {dollars(event.value)} ({kind}): call an attendant "
                    "(type 'attendant')."
                ]
            case e.HandpayReset():
                return [
                    f"Handpay {dollars(event.value)} paid by {event.by}. Credits "
                    f"{self.credits(event.seat)}."
                ]
            case e.TiltRaised():
                who = " (needs an attendant)" if event.needs_attendant else ""
                return [f"TILT {event.code}: {event.reason}{who}."]
            case e.TiltCleared():
                return [f"Tilt {event.code} cleared" + (f" by {event.by}." if event.by else ".")]
            case e.DoorChanged():
                return [f"{event.door} door {'opened' if event.open else 'closed'}."]
            case e.EnableChanged():
                return ["Play enabled." if event.enabled else f"Play disabled: {event.reason}."]
            case e.ServiceChanged():
                return [f"Service menu {'entered by ' + event.role if event.active else 'left'}."]
            case e.ConfigChanged():
                return [f"Configuration changed by {event.by}."]
            case e.PeriodMetersReset():
                return [f"Period meters reset by {event.by}."]
        return []

    def credits(self, seat: int) -> str:
        """The seat's credit meter in dollars."""
        return dollars(self._state().credits[seat])
