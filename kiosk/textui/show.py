"""Game rounds in text: cards by name, icon counts, the Stadium array, decisions, results.

Every function reads a round in its dict form (:meth:`RoundState.to_dict`, which is also the
recall record), so a round on show in ``turbokiosk play`` and a recalled game read alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

from kiosk.cards import names
from kiosk.games import poker3
from kiosk.games.base import GameRules
from kiosk.games.stadium import StadiumRules
from kiosk.games.turbo import TurboRules
from kiosk.presentation.money import dollars, signed_dollars
from kiosk.presentation.played_game import game_of
from kiosk.scoring import count_icons

#: what a player types for each decision choice
TYPED_CHOICE: Mapping[str, str] = {"no_raise": "noraise"}
#: labels of result lines that are not wager spots placed before the deal
EXTRA_LABELS: Mapping[str, str] = {"play": "Play", "ante_bonus": "Ante bonus"}


def local_time(epoch_ms: int) -> str:
    """ISO 8601 local time with its UTC offset, to the second."""
    return datetime.fromtimestamp(epoch_ms / 1000).astimezone().isoformat(timespec="seconds")


def clock_time(epoch_ms: int) -> str:
    """Local wall-clock time ``HH:MM:SS``."""
    return datetime.fromtimestamp(epoch_ms / 1000).astimezone().strftime("%H:%M:%S")


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
        if isinstance(game, TurboRules) and spot == "raise":
            return game.raise_label
    return EXTRA_LABELS.get(spot, spot)


def title_of(game: GameRules | None, edition: str) -> str:
    """``"Turbo Football (turbo-football)"``."""
    return f"{game.title} ({edition})" if game is not None else edition


def wagers_text(game: GameRules | None, wagers: Mapping[str, int]) -> str:
    """``"First Down $5.00, 9 Card Bonus $1.00 (total $6.00)"``."""
    if not wagers:
        return "none"
    parts = [f"{spot_label(game, spot)} {dollars(amount)}" for spot, amount in wagers.items()]
    return f"{', '.join(parts)} (total {dollars(sum(wagers.values()))})"


def icons_text(game: TurboRules, cards: Sequence[int]) -> str:
    """``"5 footballs"``."""
    count = count_icons(list(cards), game.suit)
    return f"{count} {game.edition.icon if count == 1 else game.edition.icons}"


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


def first_deal_lines(game: GameRules | None, record: Mapping[str, Any]) -> list[str]:
    """The shared cards of the first deal (Turbo community, Stadium array)."""
    first: list[int] = record["first"]
    if not first:
        return []
    if isinstance(game, TurboRules):
        return [f"Community: {names(first)}  ({icons_text(game, first)})"]
    if isinstance(game, StadiumRules):
        bets = record["bets"]
        marked = bets[0]["positions"] if len(bets) == 1 else []
        lines = ["Array (locations 1-9 row by row; [ ] = your hand):"]
        lines += [f"  {line}" for line in array_lines(first, marked)]
        return lines
    return [f"First deal: {names(first)}"]


def seat_hand_lines(game: GameRules | None, record: Mapping[str, Any], index: int) -> list[str]:
    """A seat's own hand: its Stadium positions, or its Turbo cards with the 9-card icons."""
    bet = record["bets"][index]
    first: list[int] = record["first"]
    if isinstance(game, StadiumRules) and first and bet["positions"]:
        hand = [first[p] for p in bet["positions"]]
        where = positions_text(bet["positions"])
        return [f"Hand (locations {where}): {names(hand)}  {three_card_text(hand)}"]
    seat_cards: list[list[int]] = record["seat_cards"]
    if index < len(seat_cards) and seat_cards[index]:
        own = seat_cards[index]
        if isinstance(game, TurboRules):
            return [f"Own cards: {names(own)}  (9 cards: {icons_text(game, first + own)})"]
        return [f"Own cards: {names(own)}"]
    return []


def dealer_lines(game: GameRules | None, record: Mapping[str, Any]) -> list[str]:
    """The shared cards of the second deal (the Stadium dealer's hand)."""
    shared: list[int] = record["second_shared"]
    if not shared:
        return []
    if isinstance(game, StadiumRules):
        return [f"Dealer: {dealer_text(shared)}"]
    return [f"Shared cards: {names(shared)}"]


def offer_text(game: GameRules | None, offer: Mapping[str, Any]) -> str:
    """``"Double offered for $5.00: raise or noraise (default noraise)"``."""
    label = game.raise_label if isinstance(game, TurboRules) else offer["kind"].capitalize()
    typed = " or ".join(TYPED_CHOICE.get(c, c) for c in offer["choices"])
    default = TYPED_CHOICE.get(offer["default"], offer["default"])
    return f"{label} offered for {dollars(offer['extra_wager'])}: {typed} (default {default})"


def decision_text(record: Mapping[str, Any], seat: int) -> str | None:
    """The seat's decision, ``automatic`` flagged; None when none was offered."""
    offer = record["offers"].get(str(seat))
    if offer is None:
        return None
    choice = record["choices"].get(str(seat))
    if choice is None:
        return "awaiting the decision"
    extra = record["extra"].get(str(seat), 0)
    cost = f" (+{dollars(extra)})" if extra else ""
    auto = "  AUTOMATIC: the timer ran out" if record["automatic"].get(str(seat)) else ""
    return f"chose {TYPED_CHOICE.get(choice, choice)}{cost}{auto}"


def result_lines(game: GameRules | None, results: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per wager result: label, stake, paid, outcome and odds."""
    width = max((len(spot_label(game, r["spot"])) for r in results), default=0)
    lines = []
    for r in results:
        paid, stake = r["paid"], r["stake"]
        won = paid > stake or (stake == 0 and paid > 0)
        odds = f" ({odds_text(r['odds'])})" if won and Fraction(r["odds"]) else ""
        lines.append(
            f"{spot_label(game, r['spot']):<{width}}  stake {dollars(stake):>9}  "
            f"paid {dollars(paid):>9}  {r['outcome']}{odds}"
        )
    return lines


def settlement_total(seat_result: Mapping[str, Any]) -> str:
    """``"stake $10.00, paid $15.00, net +$5.00"`` (and the handpay when there is one)."""
    stake, paid = seat_result["stake"], seat_result["paid"]
    text = f"stake {dollars(stake)}, paid {dollars(paid)}, net {signed_dollars(paid - stake)}"
    return text + ("  HANDPAY: paid by an attendant" if seat_result["handpay"] else "")


def round_lines(record: Mapping[str, Any]) -> list[str]:
    """A whole round (in progress or recalled), card by card, every seat."""
    game = game_of(record)
    tables = ", ".join(f"{k}={v}" for k, v in sorted(record["paytables"].items()))
    lines = [f"Game {record['game_number']}  {title_of(game, record['edition'])}"]
    lines.append(f"  pay tables: {tables or 'default'}")
    times = f"  started {local_time(record['started_at'])}"
    if record["settled_at"]:
        times += f"  settled {local_time(record['settled_at'])}"
    lines.append(times)
    lines += [f"  {line}" for line in first_deal_lines(game, record)]
    lines += [f"  {line}" for line in dealer_lines(game, record)]
    settled = {s["seat"]: s for s in record["settlement"]}
    after = record.get("credits_after")
    for index, bet in enumerate(record["bets"]):
        seat = bet["seat"]
        credits = f"credits before {dollars(record['credits_before'][seat])}"
        if after is not None:
            credits += f", after {dollars(after[seat])}"
        lines.append(f"  Seat {seat}: {credits}")
        lines.append(f"    Wagers: {wagers_text(game, bet['wagers'])}")
        lines += [f"    {line}" for line in seat_hand_lines(game, record, index)]
        offer = record["offers"].get(str(seat))
        if offer is not None:
            lines.append(f"    Decision: {offer_text(game, offer)}")
            lines.append(f"      {decision_text(record, seat)}")
        result = settled.get(seat)
        if result is not None:
            lines += [f"    {line}" for line in result_lines(game, result["results"])]
            lines.append(f"    Total: {settlement_total(result)}")
    return lines
