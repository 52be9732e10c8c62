"""A simulated correlation is checked with an exact standard error, and the whole report
keeps one check's false-alarm rate (issue 29: never the sample's error, a family-wide bound)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from kiosk.kernel.analysis import fast_sim, stadium_table, table_math
from kiosk.kernel.analysis.fast_sim import RunSums
from kiosk.kernel.analysis.table_sim import TableSimulation, family_bound
from kiosk.kernel.analysis.turbo_par import rules_par_sheet
from kiosk.kernel.cards import DECK_SIZE
from kiosk.kernel.games import stadium, turbo
from tests.analysis.stadium_pars import default_pars


def test_pairs_plus_product_moments_by_overlap_are_exact_sums() -> None:
    """Given 3 shared cards the two hands are one: ``E[x^2 x^2] = E[x^4]``; over every
    overlap the partner counts make up the whole deck: sum_k P(k) * partners(k) weights."""
    table = stadium.load({}).pairs_plus
    x, scale = stadium_table._pairs_plus_values(table)
    squares = stadium_table._overlap_cross([v * v for v in x])
    assert squares[3] == Fraction(sum(v**4 for v in x), len(x))
    total = sum(squares[k] * len(x) * comb(3, k) * comb(DECK_SIZE - 3, 3 - k) for k in range(4))
    assert total == sum(v * v for v in x) ** 2
    assert len(x) == comb(DECK_SIZE, 3) == len(list(combinations(range(DECK_SIZE), 3)))
    assert scale >= 1


@pytest.mark.parametrize("mode", [table_math.TABLE, table_math.STADIUM])
def test_turbo_product_variance_matches_a_long_run(mode: str) -> None:
    """The exact ``Var(X1 X2)`` of two seats against the one a run of two seats shows: the
    run's jackknife error of the correlation is the exact one, within its own noise."""
    rules = turbo.load("turbo-football")
    laws = table_math.seat_pair_laws(rules, mode)
    sheet = rules_par_sheet(rules).wagers
    deal = fast_sim.turbo_deal(rules, 2, mode)
    run = fast_sim.run_chunks(deal, 200_000, 11, 1)
    sim = fast_sim.report(
        "turbo-football",
        mode,
        deal.tables.scale,
        run,
        2,
        sheet,
        {w: law.covariance for w, law in laws.items()},
        {w: law.correlation for w, law in laws.items()},
        product_variances={w: law.product_variance for w, law in laws.items()},
    )
    rows = {c.wager_id: c for c in sim.correlations}
    for wager in ("first_down", "long_pass", "field_goal"):
        row = rows[wager]
        assert row.error_basis == "exact"
        expected = math.sqrt(laws[wager].product_variance / 200_000) / float(sheet[wager].variance)
        assert row.std_error == pytest.approx(expected)
        assert row.sample_std_error is not None
        # 20 batches: the jackknife's own relative error is about 1/sqrt(2 * 19) = 16%
        assert row.sample_std_error == pytest.approx(row.std_error, rel=0.5)


def test_more_seats_use_the_pair_variance_as_a_bound() -> None:
    rules = stadium.load({})
    deal = fast_sim.stadium_deal(rules, 3)
    run = fast_sim.run_chunks(deal, 3000, 5, 1)
    pars = default_pars()  # the rules are stadium.load({})
    corr = stadium_table.exact_correlations(rules)
    sim = fast_sim.report(
        "stadium-3cp",
        table_math.STADIUM,
        deal.tables.scale,
        run,
        3,
        pars,
        {w: c * pars[w].variance for w, c in corr.items()},
        corr,
        frozenset(stadium_table.blind_pars(rules)),
        product_variances=stadium_table.exact_product_variances(rules, corr),
    )
    rows = {c.wager_id: c for c in sim.correlations}
    assert rows["pairs_plus"].error_basis == "bound"
    covariance, _ = stadium_table.pairs_plus_covariance(rules.pairs_plus)
    product = stadium_table.pairs_plus_product_variance(rules.pairs_plus, covariance)
    assert rows["pairs_plus"].std_error == pytest.approx(
        math.sqrt(product / 3000) / float(pars["pairs_plus"].variance)
    )
    # no exact value: the jackknife's error, reported and never checked
    assert rows["ante_play"].error_basis == "jackknife"
    assert rows["ante_play"].z is None


def test_one_family_of_checks_keeps_one_checks_false_alarm_rate() -> None:
    """15 checks at 3 standard errors would raise a false alarm about 4% of the time; the
    family bound keeps it at one check's 0.27%."""
    one = 2 * (1 - 0.99865)  # one check beyond 3 standard errors
    assert 1 - (1 - one) ** 15 == pytest.approx(0.0397, abs=0.001)
    bound = family_bound(15)
    each = 2 * (1 - _normal_cdf(bound))
    assert 1 - (1 - each) ** 15 == pytest.approx(0.0027, abs=0.0001)
    sim = fast_sim.report(
        "stadium-3cp",
        table_math.STADIUM,
        1,
        RunSums(_empty_stadium(), False),
        1,
        default_pars(),
        {},
        {},
    )
    assert isinstance(sim, TableSimulation)
    assert sim.checks == 15
    assert sim.bound == pytest.approx(bound)


def _normal_cdf(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def _empty_stadium() -> fast_sim.ChunkResult:
    pars = default_pars()
    return fast_sim.ChunkResult(100, {w: fast_sim.WagerSums([0], [0], 0, 100, {}) for w in pars})


def test_simulate_reports_the_bound_and_the_error_basis() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk",
            "simulate",
            "stadium-3cp",
            "--games",
            "20000",
            "--seed",
            "4",
            "--seats",
            "2",
            "--jobs",
            "1",
            "--format",
            "json",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode in (0, 1), out.stderr
    doc = json.loads(out.stdout)
    assert doc["checks"] == 15 + 1 + 30  # pooled, Pairs Plus's correlation, 2 seats x 15
    assert doc["bound"] == pytest.approx(family_bound(46))
    assert doc["correlations"]["pairs_plus"]["error_basis"] == "exact"
    assert doc["correlations"]["ante_play"]["error_basis"] == "jackknife"
    assert {w["bound"] for w in doc["wagers"].values()} == {doc["bound"]}
