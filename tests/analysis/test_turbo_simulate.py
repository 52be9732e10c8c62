"""Simulated Turbo play through the real settlement code agrees with the exact par sheets."""

import random
from fractions import Fraction

import pytest

from kiosk.kernel.analysis import simulate
from kiosk.kernel.games import turbo


@pytest.mark.parametrize(
    ("edition_id", "paytables", "seats", "seed"),
    [
        ("turbo-football", {}, 1, 11),
        ("icon-v2", {"bet_b": "flat"}, 3, 12),
        ("turbo-hockey", {"nine_card_bonus": "3-8-40-150-750-5000-sf-5000-250000"}, 2, 13),
        ("turbo-basketball", {"nine_card_bonus": "off"}, 8, 14),
    ],
)
def test_small_simulations_agree_within_three_standard_errors(edition_id, paytables, seats, seed):
    rows = simulate.simulate(edition_id, 2000, paytables, shuffler=random.Random(seed), seats=seats)
    rules = turbo.load(edition_id, paytables)
    assert [r.wager_id for r in rows] == [s.id for s in rules.spots]
    for row in rows:
        assert row.games == 2000
        assert row.std_error > 0
        assert row.agrees(), row


def test_a_run_is_reproducible_from_its_seed():
    first = simulate.simulate("icon-v2", 300, shuffler=random.Random(5))
    again = simulate.simulate("icon-v2", 300, shuffler=random.Random(5))
    other = simulate.simulate("icon-v2", 300, shuffler=random.Random(6))
    assert first == again
    assert first != other


def test_the_check_catches_a_wrong_exact_edge():
    (row, *_) = simulate.simulate("turbo-football", 3000, shuffler=random.Random(7))
    wrong = simulate.SimulatedWager(
        row.wager_id,
        row.games,
        row.observed_edge,
        row.std_error,
        row.exact_edge + Fraction(4) * Fraction(row.std_error),
    )
    assert row.agrees()
    assert not wrong.agrees()
    assert wrong.z < -3


@pytest.mark.parametrize(
    ("games", "seats", "message"), [(1, 1, "at least 2 games"), (10, 0, "seats"), (10, 9, "seats")]
)
def test_bad_runs_are_refused(games, seats, message):
    with pytest.raises(ValueError, match=message):
        simulate.simulate("icon-v2", games, shuffler=random.Random(1), seats=seats)


def test_zero_error_is_handled():
    exact = simulate.SimulatedWager("x", 10, 0.5, 0.0, Fraction(1, 2))
    assert exact.z == 0.0
    assert exact.agrees()
    off = simulate.SimulatedWager("x", 10, 0.25, 0.0, Fraction(1, 2))
    assert not off.agrees()
