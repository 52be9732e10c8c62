"""The progressive meter: settings as data, exact contributions, ceiling and overflow, hits,
idempotent keys, and the balance of every micro-cent."""

from __future__ import annotations

import random

import pytest

from kiosk.kernel.games import progressive as p
from kiosk.kernel.games.paytable import PaytableError
from tests.helpers.progressive import FREQUENT, frequent


def test_the_packaged_progressives_load() -> None:
    assert set(p.available()) >= {"stadium-6cb-royal", "ncb-straight-flush-9"}
    royal = p.load("stadium-6cb-royal")
    assert (royal.wager, royal.outcome, royal.mode) == (
        "six_card_bonus",
        "Royal flush",
        p.Mode.TABLE,
    )
    assert p.load("ncb-straight-flush-9").meter.overflow is p.Overflow.HIDDEN


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"reset_cents": 0}, "meter.reset_cents"),
        ({"reset_cents": 3000}, "meter"),  # above the ceiling
        ({"rate_ppm": 400_000, "hidden_ppm": 200_000}, "meter"),
        ({"overflow": "drop"}, "meter.overflow"),
        ({"rate_ppm": -1}, "meter.rate_ppm"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(change: dict[str, object], field: str) -> None:
    data = {**FREQUENT, "meter": {**FREQUENT["meter"], **change}}  # type: ignore[dict-item]
    with pytest.raises(PaytableError) as info:
        p.parse(data, "bad")
    assert info.value.field == field


def test_contributions_are_exact_and_the_ceiling_overflows() -> None:
    pool = p.ProgressivePool(frequent(reset_cents=500, ceiling_cents=600, rate_ppm=30_000))
    first = pool.contribute("T/1/1/six_card_bonus", 3333)
    assert (first.to_meter, first.to_overflow) == (3333 * 30_000, 0)  # 99.99 cents, exact
    pool.apply(first)
    second = pool.contribute("T/2/1/six_card_bonus", 3333)
    assert second.to_meter == 600 * p.MICRO - (500 * p.MICRO + 3333 * 30_000)  # to the ceiling
    assert second.to_meter + second.to_overflow == 3333 * 30_000
    pool.apply(second)
    assert pool.state.meter_cents == 600 and pool.state.balanced()
    hit = pool.hit("T/2/1/six_card_bonus", 3333, handpay_limit_cents=500)
    assert hit.award_cents == 600 and hit.handpay
    assert hit.from_overflow == second.to_overflow  # carried onto the new meter
    pool.apply(hit)
    assert pool.state.overflow == 0 and pool.state.balanced()


def test_a_known_key_changes_nothing_and_a_small_wager_cannot_win() -> None:
    pool = p.ProgressivePool(frequent())
    ev = pool.contribute("T/1/0/six_card_bonus", 200)
    pool.apply(ev)
    pool.apply(ev)  # replayed twice
    assert pool.contribute("T/1/0/six_card_bonus", 200) == ev
    assert pool.state.wagers == 1
    with pytest.raises(p.ProgressiveError):
        pool.contribute("T/1/0/six_card_bonus", 300)
    with pytest.raises(p.ProgressiveError):
        pool.hit("T/1/0/six_card_bonus", 50, None)


@pytest.mark.parametrize("overflow", ["carry", "hidden"])
def test_every_micro_cent_is_accounted_for(overflow: str) -> None:
    rnd = random.Random(7)
    pool = p.ProgressivePool(frequent(overflow=overflow, ceiling_cents=700))
    for n in range(3000):
        key = p.wager_key("T1", n, n % 5, "six_card_bonus")
        pool.apply(pool.contribute(key, rnd.choice((100, 125, 333, 500))))
        if rnd.random() < 0.01:
            pool.apply(pool.hit(key, 500, 1000))
        assert pool.state.balanced()
        assert pool.state.meter_cents <= 700
    assert pool.state.hits > 10
