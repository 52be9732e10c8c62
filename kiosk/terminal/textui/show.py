"""Game rounds in text: cards by name, icon counts, the Stadium array, decisions, results.

Every function reads a :class:`~kiosk.terminal.core.state.RoundState` (a recall record is read with
:meth:`RoundState.from_dict`), so a round on show in ``turbokiosk play`` and a recalled game
read alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from kiosk.kernel.cards import names
from kiosk.kernel.games import poker3
from kiosk.kernel.games.base import DecisionOffer, GameRules, WagerResult
from kiosk.kernel.time_text import local_time
from kiosk.terminal.core.records import SeatResult
from kiosk.terminal.core.state import RoundState
from kiosk.terminal.presentation.money import dollars, signed_dollars
from kiosk.terminal.presentation.played_game import game_of
from kiosk.terminal.textui.families import text_family

#: what a player types for each decision choice
TYPED_CHOICE: Mapping[str, str] = {"no_raise": "noraise"}


def odds_text(odds: Fraction | str) -> str:
    """``Fraction(3, 2)`` or ``"3/2"`` -> ``"3:2"`` (``"1:1"`` for even money)."""
    value = Fraction(odds)
    return f"{value.numerator}:{value.denominator}"


def spot_label(game: GameRules | None, spot: str) -> str:
    """Display name of a wager spot or result line (the id when unknown)."""
    if game is not None:
        for s in game.spots:
            if s.id == spot:
                return s.label
    extra = text_family(game).extra_label(game, spot)
    return extra if extra is not None else spot


def title_of(game: GameRules | None, edition: str) -> str:
    """``"Turbo Football (turbo-football)"``."""
    return f"{game.title} ({edition})" if game is not None else edition


def wagers_text(game: GameRules | None, wagers: Mapping[str, int]) -> str:
    """``"First Down $5.00, 9 Card Bonus $1.00 (total $6.00)"``."""
    if not wagers:
        return "none"
    parts = [f"{spot_label(game, spot)} {dollars(amount)}" for spot, amount in wagers.items()]
    return f"{', '.join(parts)} (total {dollars(sum(wagers.values()))})"


def three_card_text(cards: Sequence[int]) -> str:
    """The category of a three-card poker hand, e.g. ``"Pair"``."""
    return poker3.CATEGORY3_NAMES[poker3.category3(poker3.value3(list(cards)))]


def dealer_text(cards: Sequence[int]) -> str:
    """``"Qs 7h 2c  High card (qualifies)"``."""
    value = poker3.value3(list(cards))
    qualifies = "qualifies" if poker3.dealer_qualifies(value) else "does not qualify"
    return f"{names(cards)}  {three_card_text(cards)} ({qualifies})"


def array_lines(array: Sequence[int], marked: Sequence[int] = ()) -> list[str]:
    """The Stadium array as three rows; the seat's positions in brackets."""
    rows = []
    for row in range(3):
        cells = []
        for position in range(row * 3, row * 3 + 3):
            text = names([array[position]])
            cells.append(f"[{text}]" if position in marked else f" {text} ")
        rows.append(" ".join(cells).rstrip())
    return rows


def positions_text(positions: Sequence[int]) -> str:
    """1-based locations, as players name them: ``"1 5 9"``."""
    return " ".join(str(p + 1) for p in positions)


def first_deal_lines(game: GameRules | None, rnd: RoundState) -> list[str]:
    """The shared cards of the first deal (Turbo community, Stadium array)."""
    return text_family(game).first_deal_lines(game, rnd) if rnd.first else []


def seat_hand_lines(game: GameRules | None, rnd: RoundState, index: int) -> list[str]:
    """A seat's own hand: its Stadium positions, or its Turbo cards with the 9-card icons."""
    return text_family(game).seat_hand_lines(game, rnd, index)


def dealer_lines(game: GameRules | None, rnd: RoundState) -> list[str]:
    """The shared cards of the second deal (the Stadium dealer's hand)."""
    return text_family(game).dealer_lines(game, rnd) if rnd.second_shared else []


def offer_text(game: GameRules | None, offer: DecisionOffer) -> str:
    """``"Double offered for $5.00: raise or noraise (default noraise)"``."""
    label = text_family(game).offer_label(game, offer)
    typed = " or ".join(TYPED_CHOICE.get(c, c) for c in offer.choices)
    default = TYPED_CHOICE.get(offer.default, offer.default)
    return f"{label} offered for {dollars(offer.extra_wager)}: {typed} (default {default})"


def decision_text(rnd: RoundState, seat: int) -> str | None:
    """The seat's decision, ``automatic`` flagged; None when none was offered."""
    if seat not in rnd.offers:
        return None
    choice = rnd.choices.get(seat)
    if choice is None:
        return "awaiting the decision"
    extra = rnd.extra.get(seat, 0)
    cost = f" (+{dollars(extra)})" if extra else ""
    auto = "  AUTOMATIC: the timer ran out" if rnd.automatic.get(seat) else ""
    return f"chose {TYPED_CHOICE.get(choice, choice)}{cost}{auto}"


def result_lines(game: GameRules | None, results: Sequence[WagerResult]) -> list[str]:
    """One line per wager result: label, stake, paid, outcome and odds."""
    width = max((len(spot_label(game, r.spot)) for r in results), default=0)
    lines = []
    for r in results:
        paid, stake = r.paid, r.stake
        won = paid > stake or (stake == 0 and paid > 0)
        odds = f" ({odds_text(r.odds)})" if won and r.odds else ""
        lines.append(
            f"{spot_label(game, r.spot):<{width}}  stake {dollars(stake):>9}  "
            f"paid {dollars(paid):>9}  {r.outcome}{odds}"
        )
    return lines


def settlement_total(seat_result: SeatResult) -> str:
    """``"stake $10.00, paid $15.00, net +$5.00"`` (and the handpay when there is one)."""
    stake, paid = seat_result.stake, seat_result.paid
    text = f"stake {dollars(stake)}, paid {dollars(paid)}, net {signed_dollars(paid - stake)}"
    return text + ("  HANDPAY: paid by an attendant" if seat_result.handpay else "")


def round_lines(rnd: RoundState, credits_after: Sequence[int] | None = None) -> list[str]:
    """A whole round (in progress or recalled, with the credits after it), card by card."""
    game = game_of(rnd)
    tables = ", ".join(f"{k}={v}" for k, v in sorted(rnd.paytables.items()))
    lines = [f"Game {rnd.game_number}  {title_of(game, rnd.edition)}"]
    lines.append(f"  pay tables: {tables or 'default'}")
    times = f"  started {local_time(rnd.started_at)}"
    if rnd.settled_at:
        times += f"  settled {local_time(rnd.settled_at)}"
    lines.append(times)
    lines += [f"  {line}" for line in first_deal_lines(game, rnd)]
    lines += [f"  {line}" for line in dealer_lines(game, rnd)]
    settled = {s.seat: s for s in rnd.settlement}
    for index, record in enumerate(rnd.bets):
        seat = record.seat
        credits = f"credits before {dollars(rnd.credits_before[seat])}"
        if credits_after is not None:
            credits += f", after {dollars(credits_after[seat])}"
        lines.append(f"  Seat {seat}: {credits}")
        lines.append(f"    Wagers: {wagers_text(game, record.bet.wagers)}")
        lines += [f"    {line}" for line in seat_hand_lines(game, rnd, index)]
        offer = rnd.offers.get(seat)
        if offer is not None:
            lines.append(f"    Decision: {offer_text(game, offer.decision)}")
            lines.append(f"      {decision_text(rnd, seat)}")
        result = settled.get(seat)
        if result is not None:
            lines += [f"    {line}" for line in result_lines(game, result.results)]
            lines.append(f"    Total: {settlement_total(result)}")
    return lines
