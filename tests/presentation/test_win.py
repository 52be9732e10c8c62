"""The win presentation as data: tiers against the bet, the roll-up's amounts."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from kiosk.terminal.presentation.win import TIERS, rolled, tier, win_view


@pytest.mark.parametrize(
    ("paid", "staked", "name"),
    [
        (0, 100, None),
        (100, 100, None),  # a push returns the stake: no win
        (101, 100, "win"),
        (499, 100, "win"),
        (500, 100, "big"),
        (2000, 100, "huge"),
        (9999, 100, "huge"),
        (10000, 100, "top"),
        (100, 0, None),
    ],
)
def test_tier_by_paid_over_staked(paid: int, staked: int, name: str | None) -> None:
    size = tier(paid, staked)
    assert (size.name if size else None) == name


def test_bigger_tiers_are_bigger_and_longer() -> None:
    ratios = [t.min_ratio for t in TIERS]
    assert ratios == sorted(ratios) and ratios[0] == Fraction(1)
    for small, big in itertools.pairwise(TIERS):
        assert big.scale > small.scale
        assert big.roll_seconds > small.roll_seconds


@pytest.mark.parametrize("amount", [1, 99, 312, 4600, 1_000_000])
def test_roll_up_starts_at_nothing_never_overshoots_and_ends_exactly(amount: int) -> None:
    steps = [rolled(amount, i / 37) for i in range(-2, 45)]
    assert steps[0] == 0 and steps[-1] == amount
    assert steps == sorted(steps)
    assert max(steps) == amount


def test_meters_end_on_the_settled_credits_and_a_handpay_leaves_credits_alone() -> None:
    view = win_view(4600, 1100, False, 7, 12_400, ("td",), "en")
    assert view is not None and view.title == "WIN" and view.amount_text == "$46.00"
    assert view.meters_at(0) == (12_400 - 4600, 0)
    assert view.meters_at(1) == (12_400, 4600)
    handpay = win_view(4600, 1100, True, 7, 500, (), "es")
    assert handpay is not None and handpay.title == "PREMIO"
    assert handpay.meters_at(0) == (500, 0) and handpay.meters_at(1) == (500, 4600)
    assert win_view(100, 100, False, 7, 500, (), "en") is None
