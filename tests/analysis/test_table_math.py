"""The exact per-seat math of a table (kiosk.kernel.analysis.table_math, stadium_table) and the deal
of many seats (kiosk.kernel.analysis.table_sim.deal_turbo / deal_stadium)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import MutableSequence, Sequence
from fractions import Fraction
from itertools import combinations, permutations, product
from math import comb

import pytest

from kiosk.kernel.analysis import stadium_par, stadium_table, table_math
from kiosk.kernel.analysis.table_sim import deal_stadium, deal_turbo
from kiosk.kernel.analysis.turbo_par import rules_par_sheet
from kiosk.kernel.games import stadium, turbo
from rng import Deck


@pytest.mark.parametrize("edition", ["turbo-football", "icon-v2"])
@pytest.mark.parametrize("mode", table_math.MODES)
def test_every_seat_has_the_single_seat_par_sheet(edition, mode):
    rules = turbo.load(edition)
    sheet = rules_par_sheet(rules).wagers
    for wager_id, net in table_math.net_functions(rules).items():
        law = table_math.seat_pair_law(net, mode)
        assert -law.seat1_mean == sheet[wager_id].house_edge
        assert law.seat2_mean == law.seat1_mean  # the second seat, counted exactly
        assert law.variance == sheet[wager_id].variance
        assert -1 < law.correlation < 1
    tm = table_math.turbo_table_math(rules, 5, mode)
    assert tm.hold_per_round == 5 * sum(w.house_edge for w in sheet.values())


def test_figures_of_turbo_football():
    rules = turbo.load("turbo-football")
    table = {w.wager_id: w for w in table_math.turbo_table_math(rules, 8, "table").wagers}
    stadium_mode = {w.wager_id: w for w in table_math.turbo_table_math(rules, 8, "stadium").wagers}
    assert table["first_down"].correlation == pytest.approx(0.161687, abs=1e-6)
    assert stadium_mode["first_down"].correlation == pytest.approx(0.225958, abs=1e-6)
    assert table["nine_card_bonus"].correlation == pytest.approx(0.016382, abs=1e-6)
    assert stadium_mode["nine_card_bonus"].correlation == pytest.approx(0.035633, abs=1e-6)
    for wager_id, row in table.items():
        # disjoint hands from one deck compete for the same suit-S cards: less correlated
        assert row.covariance is not None
        assert row.covariance < stadium_mode[wager_id].covariance  # type: ignore[operator]
        assert row.house_edge == stadium_mode[wager_id].house_edge


def _bonus_net(suited: int) -> Fraction:
    pays = turbo.load("turbo-football").nine_card_bonus
    assert pays is not None
    award = pays.award(suited, 0)
    return Fraction(-1) if award is None else Fraction(award[1])


def _hyper(good: int, bad: int, draws: int, k: int) -> Fraction:
    return Fraction(comb(good, k) * comb(bad, draws - k), comb(good + bad, draws))


@pytest.mark.parametrize("mode", table_math.MODES)
def test_nine_card_bonus_covariance_from_suit_counts_alone(mode):
    """An independent count: the 9 Card Bonus looks only at how many suit-S cards a hand
    holds, so two seats' law is a chain of hypergeometric draws of suit-S cards."""
    mean = second = cross = Fraction(0)
    for k in range(4):
        p_community = _hyper(13, 39, 3, k)
        for j1 in range(7):
            p1 = _hyper(13 - k, 36 + k, 6, j1)
            x1 = _bonus_net(k + j1)
            mean += p_community * p1 * x1
            second += p_community * p1 * x1 * x1
            for j2 in range(7):
                if mode == "table":
                    p2 = _hyper(13 - k - j1, 30 + k + j1, 6, j2)
                else:
                    p2 = _hyper(13 - k, 36 + k, 6, j2)
                cross += p_community * p1 * p2 * x1 * _bonus_net(k + j2)
    rules = turbo.load("turbo-football")
    law = table_math.seat_pair_law(table_math.net_functions(rules)["nine_card_bonus"], mode)
    assert law.seat1_mean == mean
    assert law.variance == second - mean * mean
    assert law.covariance == cross - mean * mean


def test_a_straight_flush_bonus_is_left_to_the_simulation():
    rules = turbo.load("turbo-football", {"nine_card_bonus": "3-8-40-150-750-5000-sf-5000-250000"})
    assert "nine_card_bonus" not in table_math.net_functions(rules)
    row = table_math.turbo_table_math(rules, 2, "table").wagers[-1]
    assert (row.wager_id, row.covariance, row.correlation) == ("nine_card_bonus", None, None)
    assert "simulate" in row.method


@pytest.mark.parametrize(
    ("seats", "mode", "message"),
    [
        (9, "table", "at most 8 Turbo seats"),
        (0, "stadium", "at least 1"),
        (2, "round", "mode must be"),
    ],
)
def test_seat_counts_a_mode_cannot_deal(seats, mode, message):
    with pytest.raises(ValueError, match=message):
        table_math.check_turbo_seats(seats, mode)


class Enumerated:
    """A shuffler that applies given permutations in turn (to enumerate every deal)."""

    def __init__(self, orders: Sequence[Sequence[int]]) -> None:
        self.orders = list(orders)

    def shuffle(self, items: MutableSequence[int]) -> None:
        order = self.orders.pop(0)
        items[:] = [items[i] for i in order]


def test_one_deck_joint_law_on_a_small_deck():
    """Every shuffle of a 5-card deck, dealt 1 community card and 2 cards to each of 2 seats:
    the seats' hands are disjoint, each seat's (community, hand) is uniform, and the pairs of
    disjoint hands are equally likely: the exchangeability the one-deck argument uses."""
    joint: Counter[tuple[int, frozenset[int], frozenset[int]]] = Counter()
    for order in permutations(range(5)):
        shuffler = Enumerated([order])
        community, hands = deal_turbo(
            Deck(shuffler, 5), shuffler, 2, "table", community_cards=1, seat_cards=2
        )
        joint[(community[0], frozenset(hands[0]), frozenset(hands[1]))] += 1
    assert len(joint) == 5 * comb(4, 2) * comb(2, 2)
    assert set(joint.values()) == {4}  # 120 shuffles over 30 deals
    for c, h1, h2 in joint:
        assert c not in h1 | h2 and not h1 & h2
    first = Counter((c, h1) for (c, h1, _), n in joint.items() for _ in range(n))
    second = Counter((c, h2) for (c, _, h2), n in joint.items() for _ in range(n))
    assert first == second
    assert set(first.values()) == {4}


def test_stadium_mode_joint_law_on_a_small_deck():
    """Every shuffle of the deck and of each seat's own copy of the rest: given the community
    the two seats are independent and uniform on the cards the community left."""
    joint: Counter[tuple[int, frozenset[int], frozenset[int]]] = Counter()
    deck_orders = list(permutations(range(5)))
    seat_orders = list(permutations(range(4)))
    for order, first, second in product(deck_orders, seat_orders, seat_orders):
        shuffler = Enumerated([order, first, second])
        community, hands = deal_turbo(
            Deck(shuffler, 5), shuffler, 2, "stadium", community_cards=1, seat_cards=2
        )
        joint[(community[0], frozenset(hands[0]), frozenset(hands[1]))] += 1
    assert len(joint) == 5 * comb(4, 2) * comb(4, 2)
    assert len(set(joint.values())) == 1
    assert all(c not in h1 | h2 for c, h1, h2 in joint)


@pytest.mark.parametrize("mode", table_math.MODES)
def test_full_deck_deals(mode):
    rng = random.Random(14)
    seats = 8 if mode == "table" else 40
    overlaps = 0
    for _ in range(200):
        community, hands = deal_turbo(Deck(rng), rng, seats, mode)
        assert len(hands) == seats and all(len(h) == 6 for h in hands)
        for hand in hands:
            assert not set(hand) & set(community)
        cards = [c for h in hands for c in h]
        overlaps += len(cards) - len(set(cards))
    if mode == "table":
        assert overlaps == 0  # one deck: no card twice
    else:
        assert overlaps > 0  # own shuffles: seats may hold the same card


def test_stadium_deal_shares_the_array_and_dealer():
    rng = random.Random(3)
    array, dealer, picks = deal_stadium(Deck(rng), rng, 30)
    assert len(set(array) | set(dealer)) == 12
    assert all(len(set(p)) == 3 and set(p) <= set(range(9)) for p in picks)
    assert len(set(picks)) > 1


def test_position_overlap_is_hypergeometric():
    counts = Counter(
        len(set(a) & set(b)) for a in combinations(range(9), 3) for b in combinations(range(9), 3)
    )
    assert {k: Fraction(n, 84 * 84) for k, n in counts.items()} == stadium_table.OVERLAP
    assert {
        0: Fraction(20, 84),
        1: Fraction(45, 84),
        2: Fraction(18, 84),
        3: Fraction(1, 84),
    } == stadium_table.OVERLAP


def test_pairs_plus_covariance():
    rules = stadium.load({})
    par = stadium_par.side_wager_par(rules.pairs_plus)
    covariance, given = stadium_table.pairs_plus_covariance(rules.pairs_plus)
    assert given[3] == par.variance  # the same three cards
    assert covariance == sum(stadium_table.OVERLAP[k] * given[k] for k in range(4))
    assert float(covariance / par.variance) == pytest.approx(0.026865, abs=1e-6)
    assert given[2] > given[1]
