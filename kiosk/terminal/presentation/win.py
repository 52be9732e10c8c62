"""The win presentation as data: how big a win is against its bet, the banner it earns, and the
meters' roll-up from nothing to the settled amount.

Presentation only: the terminal has already paid the win into the credit meter when the round
settled; the roll-up only counts the shown meters up to the amounts the terminal settled, and a
touch shows them at once (:func:`rolled`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from kiosk.terminal.presentation.i18n import text
from kiosk.terminal.presentation.money import dollars


@dataclass(frozen=True)
class WinTier:
    """A size of win: from ``min_ratio`` times the bet (paid over staked), its banner's size and
    how long its meters roll."""

    name: str  # "win", "big", "huge", "top"
    min_ratio: Fraction  # paid / staked, at least (the first tier: more than)
    scale: float  # the banner's size against the smallest
    roll_seconds: float  # the meters' roll-up at full speed
    hold_seconds: float  # the banner stays this long after the roll-up


#: tiers from the smallest: any win, 5x the bet, 20x, 100x
TIERS: tuple[WinTier, ...] = (
    WinTier("win", Fraction(1), 1.0, 1.0, 1.2),
    WinTier("big", Fraction(5), 1.2, 2.0, 1.5),
    WinTier("huge", Fraction(20), 1.4, 3.0, 2.0),
    WinTier("top", Fraction(100), 1.6, 4.0, 2.5),
)


def tier(paid: int, staked: int) -> WinTier | None:
    """The tier of a round that paid ``paid`` cents on ``staked`` (None: no win, a push or a
    loss — the stake back is not a win)."""
    if staked <= 0 or paid <= staked:
        return None
    ratio = Fraction(paid, staked)
    return next(t for t in reversed(TIERS) if ratio >= t.min_ratio)


@dataclass(frozen=True)
class WinView:
    """One round's win, as the presentation shows it."""

    game_number: int
    paid: int  # cents won (stake included): the WIN meter's final amount
    staked: int
    credits: int  # the credit meter's final amount (the terminal's settled credits)
    to_credits: int  # the part of ``paid`` that went to the credit meter (0: a handpay)
    tier: WinTier
    title: str  # "WIN", "BIG WIN"...
    amount_text: str  # "$72.00"
    winning_spots: tuple[str, ...]  # the spots whose wagers paid more than their stake

    @property
    def roll_seconds(self) -> float:
        """The roll-up's length at full speed."""
        return self.tier.roll_seconds

    def meters_at(self, fraction: float) -> tuple[int, int]:
        """(credit, win) cents shown when ``fraction`` (0..1) of the roll-up has passed: the win
        counts up from 0, the credits from before the win; both end on the settled amounts."""
        won = rolled(self.paid, fraction)
        shown_to_credits = rolled(self.to_credits, fraction)
        return self.credits - self.to_credits + shown_to_credits, won


def rolled(amount: int, fraction: float) -> int:
    """Cents shown after ``fraction`` of a roll-up to ``amount``: 0 at the start, ``amount``
    exactly at the end (and beyond), never more."""
    if fraction >= 1:
        return amount
    if fraction <= 0:
        return 0
    return min(amount, int(amount * fraction))


def win_view(
    paid: int,
    staked: int,
    handpay: bool,
    game_number: int,
    credits: int,
    winning_spots: tuple[str, ...],
    language: str,
) -> WinView | None:
    """The win of a settled round that paid ``paid`` cents on ``staked`` as shown (None when
    it did not win); ``credits`` is the credit meter the terminal settled, ``handpay`` whether
    the win went to a handpay instead."""
    size = tier(paid, staked)
    if size is None:
        return None
    return WinView(
        game_number=game_number,
        paid=paid,
        staked=staked,
        credits=credits,
        to_credits=0 if handpay else paid,
        tier=size,
        title=text(language, f"win_tier_{size.name}"),
        amount_text=dollars(paid),
        winning_spots=winning_spots,
    )


def round_summary(paid: int, staked: int, language: str) -> str:
    """What a settled round did, in one line: ``"YOU WIN $8.00"`` only when it paid more than
    its stake; a push ``"PUSH — $6.00 returned"``; a part returned ``"Returned $2.00 of
    $6.00"`` (a loss, said plainly); nothing back ``"No win this game"``."""
    if paid > staked:
        return text(language, "you_win", amount=dollars(paid))
    if paid == staked and staked:
        return text(language, "push", amount=dollars(paid))
    if paid:
        return text(language, "returned", paid=dollars(paid), stake=dollars(staked))
    return text(language, "no_win")


def net_win(paid: int, staked: int) -> bool:
    """A round (or a wager) won: it paid back more than was staked."""
    return paid > staked
