"""Our statistical tests: exact distribution functions, and power against known defects.

The production path is tested here at fast sizes on a fixed entropy input (reproducible, so the
default run cannot fail by chance); ``test_stats_large.py`` runs large sizes on OS entropy.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator

import pytest

from rng import stats
from rng.deck import Deck
from rng.shuffle import fisher_yates
from tests.helpers.rng_seeds import seeded_csprng

# -- distribution functions against closed forms -----------------------------------------------


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 10.0, 50.0, 200.0])
def test_chi2_sf_for_one_and_two_degrees_of_freedom(x):
    assert stats.chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10, abs=1e-300)
    assert stats.chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)


@pytest.mark.parametrize("df", [4, 10, 50, 120, 2704])
def test_chi2_sf_for_even_degrees_of_freedom_equals_the_poisson_sum(df):
    k = df // 2
    for x in (df * 0.5, df * 0.9, float(df), df * 1.1, df * 1.5):
        # Q(k, x/2) = e^(-x/2) sum_{i<k} (x/2)^i / i!, summed in logs
        half = x / 2
        terms = [i * math.log(half) - half - math.lgamma(i + 1) for i in range(k)]
        top = max(terms)
        expected = math.exp(top) * sum(math.exp(t - top) for t in terms)
        assert stats.chi2_sf(x, df) == pytest.approx(min(expected, 1.0), rel=1e-9, abs=1e-15)


def test_chi2_sf_edges():
    assert stats.chi2_sf(0, 5) == 1.0
    assert stats.chi2_sf(-1, 5) == 1.0
    with pytest.raises(ValueError, match="degrees of freedom"):
        stats.chi2_sf(1.0, 0)


def test_normal_two_sided_p():
    assert stats.normal_two_sided_p(0) == 1.0
    assert stats.normal_two_sided_p(2.5758293035489) == pytest.approx(0.01, rel=1e-9)
    assert stats.normal_two_sided_p(-1.959963984540054) == pytest.approx(0.05, rel=1e-9)


def test_permutation_index_ranks_lexicographically():
    assert stats.permutation_index((0, 1, 2)) == 0
    assert stats.permutation_index((2, 1, 0)) == 5
    assert stats.permutation_index((1, 0, 2)) == 2
    ranks = [stats.permutation_index(p) for p in itertools.permutations(range(5))]
    assert ranks == list(range(120))


def test_max_failures_is_the_exact_binomial_bound():
    # P(Bin(10, 0.01) >= 3) ~ 1.1e-4 <= 0.001 < P(Bin(10, 0.01) >= 2) ~ 4.3e-3
    assert stats.max_failures(10) == 2
    # P(Bin(100, 0.01) >= 6) ~ 5.3e-4 <= 0.001 < P(Bin(100, 0.01) >= 5) ~ 3.4e-3
    assert stats.max_failures(100) == 5
    assert stats.max_failures(1) == 1


# -- the card-position statistic is calibrated (the (k-1)/k factor) -------------------------------


def test_card_position_p_values_are_uniform_for_a_perfect_shuffle():
    """Without the (k-1)/k factor, k = 3 would give p < 0.05 about 3.5 times too often."""
    source = random.Random(20240601)  # a reference shuffle, independent of our code
    p_values = []
    for _ in range(400):
        decks = []
        for _ in range(300):
            deck = [0, 1, 2]
            source.shuffle(deck)
            decks.append(deck)
        p_values.append(stats.card_position_test(decks, 3).p_value)
    # each decile should hold about 40 of the 400 p-values
    counts = [sum(1 for p in p_values if d / 10 <= p < (d + 1) / 10) for d in range(10)]
    chi2 = sum((c - 40) ** 2 / 40 for c in counts)
    assert stats.chi2_sf(chi2, 9) > 0.001, counts
    assert sum(p < 0.05 for p in p_values) < 40


# -- the production path passes (fixed entropy input: reproducible) ----------------------------


def shuffled(deck_size: int, count: int, seed: bytes) -> Iterator[tuple[int, ...]]:
    deck = Deck(seeded_csprng(seed), deck_size)
    for _ in range(count):
        deck.new_round()
        yield deck.deal(deck_size)


def draws(n: int, count: int, seed: bytes) -> list[int]:
    generator = seeded_csprng(seed)
    return [generator.randbelow(n) for _ in range(count)]


def test_card_by_position_of_52_card_decks():
    result = stats.card_position_test(shuffled(52, 20_000, b"positions"), 52)
    assert result.df == 51 * 51
    assert result.passed, result.line()


def test_all_orderings_of_a_five_card_deck():
    result = stats.permutation_test(shuffled(5, 12_000, b"orderings"), 5)
    assert result.df == 119
    assert result.passed, result.line()


def test_runs_serial_correlation_pairs_and_frequency_of_draws_below_52():
    values = draws(52, 200_000, b"draws")
    for result in (
        stats.runs_test(values, 52),
        stats.serial_correlation_test(values, 52, lag=1),
        stats.serial_correlation_test(values, 52, lag=2),
        stats.serial_pairs_test(values, 52),
        stats.frequency_test(values, 52),
    ):
        assert result.passed, result.line()


# -- and each test catches the defect it is meant for ------------------------------------------


def naive_shuffle(items: list[int], randbelow: Callable[[int], int]) -> None:
    """The classic wrong shuffle: swap each position with any position (n^n paths)."""
    for i in range(len(items)):
        j = randbelow(len(items))
        items[i], items[j] = items[j], items[i]


def test_the_naive_shuffle_fails_card_position_and_orderings():
    generator = seeded_csprng(b"naive")
    decks = []
    for _ in range(12_000):
        deck = list(range(6))
        naive_shuffle(deck, generator.randbelow)
        decks.append(deck)
    assert not stats.card_position_test(decks, 6).passed
    assert not stats.permutation_test(decks[:7200], 6).passed


def test_modulo_bias_fails_frequency_and_runs():
    raw = seeded_csprng(b"modulo").random_bytes(200_000)
    biased = [b % 200 for b in raw]  # 0..55 twice as likely as 56..199
    assert not stats.frequency_test(biased, 200).passed
    assert not stats.runs_test(biased, 200).passed


def test_correlated_draws_fail_serial_correlation_and_pairs():
    generator = seeded_csprng(b"walk")
    value, walk = 0, []
    for _ in range(100_000):
        value = (value + generator.randbelow(13) - 6) % 52  # a random walk, uniform margins
        walk.append(value)
    assert not stats.serial_correlation_test(walk, 52).passed
    assert not stats.serial_pairs_test(walk, 52).passed


def test_a_sticky_shuffle_fails_the_runs_test():
    generator = seeded_csprng(b"sticky")
    values, last = [], 0
    for _ in range(50_000):
        last = last if generator.randbelow(10) == 0 else generator.randbelow(52)  # 10% repeats
        values.append(last)
    assert not stats.runs_test(values, 52).passed


def test_fisher_yates_with_an_off_by_one_bound_fails():
    """Sattolo's variant (j < i) produces only cyclic permutations."""
    generator = seeded_csprng(b"sattolo")
    orders = []
    for _ in range(2400):
        deck = list(range(4))
        fisher_yates(deck, lambda n: generator.randbelow(n - 1))
        orders.append(deck)
    assert not stats.permutation_test(orders, 4).passed


def test_results_and_verdicts_read_well():
    ok = stats.TestResult("x", 1.0, 3, 0.5, 100)
    bad = stats.TestResult("x", 9.0, None, 0.001, 100)
    assert ok.line() == "x: n=100 chi2=1.00 df=3 p=0.5000 pass"
    assert bad.line() == "x: n=100 z=+9.000 p=0.0010 FAIL"
    verdict = stats.batch_verdict([ok] * 9 + [bad])
    assert verdict.passed
    assert verdict.failures == 1
    assert "9/10 repetitions pass" in verdict.line()
    assert not stats.batch_verdict([ok] * 7 + [bad] * 3).passed
