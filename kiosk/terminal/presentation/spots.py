"""Wager spots as shown: label, short pays, the stake on it and, after a game, its results."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from kiosk.kernel.games.base import GameRules, WagerResult, WagerSpot
from kiosk.terminal.presentation.chips import Chip
from kiosk.terminal.presentation.families import table_family
from kiosk.terminal.presentation.i18n import text
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.words import GameWords


@dataclass(frozen=True)
class ResultLine:
    """How one wager line ended (a spot may hold two: the First Down and its Double)."""

    label: str
    outcome: str
    amount_text: str  # "WIN $10.00", "PUSH", "LOSE"
    won: bool
    push: bool
    detail: str = ""  # the outcome without the words the amount already says ("One pair")
    paid: int = 0  # cents the line paid back (0 when it lost)
    stake_text: str = ""  # what was staked on the line, "$5.00"
    stake: int = 0  # cents staked on the line

    @property
    def text(self) -> str:
        """``"WIN $10.00 Super TD (14+ footballs)"``, ``"LOSE One pair"``, ``"LOSE"``."""
        return f"{self.amount_text} {self.detail}".strip()


@dataclass(frozen=True)
class SpotView:
    """One wager spot."""

    id: str
    label: str
    group: str  # "main", "side" or "blind"
    mandatory: bool
    amount: int  # cents on the spot (for the chip stack drawn on it)
    amount_text: str  # "$5.00", or "" when empty
    extra_text: str  # the decision wager on this spot: "+ Double $5.00"
    pays_text: str  # "2:1 · 4:1"
    results: tuple[ResultLine, ...]
    highlight: str  # "win", "push", "lose" or ""
    line: str = ""  # Stadium blind spots: "row_1" .. "col_3"
    kind_label: str = ""  # Stadium blind spots: "Pairs Plus" / "6-Card Bonus"
    line_label: str = ""  # Stadium blind spots: "Row 1" / "Column 1"
    chip_colour: str = ""  # colour of the chip drawn on the spot ("" when empty)
    extra_label: str = ""  # the decision wager riding on this spot ("Double", "Play"), if any
    extra_amount: int = 0  # cents of that decision wager
    total_text: str = ""  # the spot's lines together: "WIN $20.00" (a wager and its Double)


def odds_text(odds: Fraction) -> str:
    """``3:2``, ``10,000:1``."""
    return f"{odds.numerator:,}:{odds.denominator:,}"


def odds_range(odds: Sequence[Fraction]) -> str:
    """``"1:1"`` or ``"1:1 – 40:1"``."""
    low, high = min(odds), max(odds)
    return odds_text(low) if low == high else f"{odds_text(low)} – {odds_text(high)}"


def pays_text(game: GameRules, spot: WagerSpot) -> str:
    """A short summary of what a spot pays (the help screen has the full tables)."""
    return table_family(game).pays_text(game, spot)


def _extra_label(game: GameRules, spot: str, words: GameWords) -> str:
    return table_family(game).extra_label(game, spot, words)


def decision_spot(game: GameRules) -> tuple[str, str] | None:
    """(main spot, decision wager) of a game whose decision wager has its own printed spot."""
    return table_family(game).decision_spot(game)


def host_spot(game: GameRules, result_spot: str) -> str:
    """The spot a result line is shown on: decision wagers and bonuses on their main spot."""
    return table_family(game).host_spot(game, result_spot)


def spot_labels(game: GameRules, words: GameWords) -> dict[str, str]:
    """Spot id -> the spot's name in the player's language."""
    return {s.id: words.spot(s) for s in game.spots}


def result_line(
    game: GameRules, result: WagerResult, words: GameWords, labels: Mapping[str, str]
) -> ResultLine:
    """One settled wager line, display-ready (``labels``: :func:`spot_labels`)."""
    language = words.language
    paid, stake = result.paid, result.stake
    won = paid > stake
    push = paid == stake and stake > 0
    if won:
        amount = text(language, "result_win", amount=dollars(paid))
    else:
        amount = text(language, "result_push" if push else "result_lose")
    spot = result.spot
    label = labels.get(spot) or _extra_label(game, spot, words)
    outcome = result.outcome
    detail = "" if outcome in _GENERIC else words(outcome)
    inner = _LOSE_WITH.match(outcome)
    if inner is not None:
        detail = words(inner[1])
    return ResultLine(label, words(outcome), amount, won, push, detail, paid, dollars(stake), stake)


#: outcomes that say no more than WIN / LOSE / PUSH
_GENERIC = frozenset({"Win", "Lose", "Tie: push", "Dealer does not qualify: push"})
_LOSE_WITH = re.compile(r"^Lose \((.+)\)$")


def spot_highlight(lines: Sequence[ResultLine]) -> str:
    """How a spot is lit after a round, from its lines together (a wager and its Double, the
    Ante with its bonus): ``"win"`` only when they paid back more than was staked on them,
    ``"push"`` when exactly the stake, else ``"lose"`` ("" with no result); the same sum as
    the spot's ``total_text``, so a spot never shines green on a net loss."""
    if not lines:
        return ""
    paid = sum(line.paid for line in lines)
    stake = sum(line.stake for line in lines)
    if paid > stake:
        return "win"
    return "push" if paid == stake and stake else "lose"


def _line_fields(game: GameRules, spot: WagerSpot, words: GameWords) -> tuple[str, str, str]:
    return table_family(game).line_fields(game, spot, words)


def spot_views(
    game: GameRules,
    wagers: Mapping[str, int],
    extra: tuple[str, int] | None,
    results: Sequence[WagerResult],
    language: str,
    rack: Sequence[Chip] = (),
) -> tuple[SpotView, ...]:
    """Every spot of ``game`` with its stake, the decision wager (spot id, cents) riding on it,
    and the results of the last game (empty while it is not to be shown)."""
    words = GameWords(game, language)
    labels = spot_labels(game, words)
    by_spot: dict[str, list[ResultLine]] = {}
    sums: dict[str, tuple[int, int]] = {}
    for r in results:
        host = host_spot(game, r.spot)
        by_spot.setdefault(host, []).append(result_line(game, r, words, labels))
        paid, stake = sums.get(host, (0, 0))
        sums[host] = (paid + r.paid, stake + r.stake)
    decision = decision_spot(game)
    views = []
    for spot in game.spots:
        amount = wagers.get(spot.id, 0)
        extra_text = ""
        if extra is not None and host_spot(game, extra[0]) == spot.id:
            extra_text = f"+ {_extra_label(game, extra[0], words)} {dollars(extra[1])}"
        lines = tuple(by_spot.get(spot.id, ()))
        line, kind_label, line_label = _line_fields(game, spot, words)
        views.append(
            SpotView(
                id=spot.id,
                label=labels[spot.id],
                group=spot.group,
                mandatory=spot.mandatory,
                amount=amount,
                amount_text=dollars(amount) if amount else "",
                extra_text=extra_text,
                pays_text=pays_text(game, spot),
                results=lines,
                highlight=spot_highlight(lines),
                line=line,
                kind_label=kind_label,
                line_label=line_label,
                chip_colour=chip_colour(rack, amount + (extra[1] if extra_text and extra else 0)),
                extra_label=(
                    _extra_label(game, decision[1], words)
                    if decision is not None and decision[0] == spot.id
                    else ""
                ),
                extra_amount=extra[1] if extra_text and extra is not None else 0,
                total_text=_total_text(sums.get(spot.id), language),
            )
        )
    return tuple(views)


def _total_text(sums: tuple[int, int] | None, language: str) -> str:
    if sums is None:
        return ""
    paid, stake = sums
    if paid > stake:
        return text(language, "result_win", amount=dollars(paid))
    return text(language, "result_push" if paid == stake and stake else "result_lose")


def chip_colour(rack: Sequence[Chip], amount: int) -> str:
    """The colour of the largest rack chip not above ``amount`` (the smallest chip's for less;
    "" for nothing on the spot)."""
    if amount <= 0 or not rack:
        return ""
    fitting = [chip for chip in rack if chip.value <= amount]
    return (fitting[-1] if fitting else rack[0]).colour
