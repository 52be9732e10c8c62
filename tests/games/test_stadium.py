"""Stadium Three Card Poker rules: bets, the decision, settlement, and the Play/Fold advice."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.kernel.cards import cards
from kiosk.kernel.games import poker3, stadium
from kiosk.kernel.games.base import RuleError, SeatBet, pay
from kiosk.kernel.games.stadium_advice import advise, dealer_counts
from tests.helpers.brute_force import brute_force_ev_play

RULES = stadium.load({})
BLIND_SPOTS = [
    f"{w}_{kind}_{i}"
    for w in ("pairs_plus", "six_card_bonus")
    for kind in ("row", "col")
    for i in (1, 2, 3)
]
ALL_SPOTS = ["ante", "pairs_plus", "six_card_bonus", *BLIND_SPOTS]


def settle(array, positions, dealer, choice, **wagers):
    bet = SeatBet(wagers or {"ante": 100}, positions)
    return {r.spot: r for r in RULES.settle(bet, cards(array), choice, (), cards(dealer)).results}


def test_the_round_shape():
    assert RULES.game_id == "stadium-3cp"
    assert RULES.title == "Stadium Three Card Poker"
    assert (RULES.first_deal, RULES.second_deal_per_seat, RULES.second_deal_shared) == (9, 0, 3)
    assert [s.id for s in RULES.spots] == ALL_SPOTS
    assert [s.id for s in RULES.spots if s.mandatory] == ["ante"]
    assert {s.id for s in RULES.spots if s.group == "blind"} == set(BLIND_SPOTS)
    assert RULES.spots[3].label == "Pairs Plus Row 1"
    assert RULES.spots[-1].label == "6-Card Bonus Column 3"


def test_rows_and_columns_of_the_array():
    assert stadium.LINES["row_1"] == (0, 1, 2)  # locations 1-3, the first pack
    assert stadium.LINES["row_3"] == (6, 7, 8)
    assert stadium.LINES["col_1"] == (0, 3, 6)  # locations 1, 4, 7
    assert stadium.LINES["col_3"] == (2, 5, 8)


@pytest.mark.parametrize(
    ("bet", "message"),
    [
        (SeatBet({"ante": 5}, (0, 1)), "exactly 3 distinct positions"),
        (SeatBet({"ante": 5}, (0, 1, 1)), "exactly 3 distinct positions"),
        (SeatBet({"ante": 5}, (0, 1, 2, 3)), "exactly 3 distinct positions"),
        (SeatBet({"ante": 5}, (0, 1, 9)), "position is 0..8"),
        (SeatBet({"ante": 5}, (-1, 1, 2)), "position is 0..8"),
        (SeatBet({"ante": 5}, (True, 0, 2)), "position is 0..8"),
        (SeatBet({"pairs_plus": 5}, (0, 1, 2)), "ante is mandatory"),
        (SeatBet({"ante": 5, "play": 5}, (0, 1, 2)), "no wager spot 'play'"),
        (SeatBet({"ante": 5, "pairs_plus_row_4": 5}, (0, 1, 2)), "no wager spot"),
        (SeatBet({"ante": 0}, (0, 1, 2)), "positive number of cents"),
        (SeatBet({"ante": 5, "six_card_bonus": -5}, (0, 1, 2)), "positive number of cents"),
        (SeatBet({"ante": True}, (0, 1, 2)), "positive number of cents"),
    ],
)
def test_bad_bets_are_refused(bet, message):
    with pytest.raises(RuleError, match=message):
        RULES.validate_bet(bet)


def test_every_spot_may_be_bet():
    RULES.validate_bet(SeatBet(dict.fromkeys(ALL_SPOTS, 25), (8, 0, 4)))


def test_the_offer_is_play_for_the_ante_or_fold_by_default():
    offer = RULES.offer(SeatBet({"ante": 250, "pairs_plus": 100}, (0, 4, 8)), tuple(range(9)))
    assert offer is not None
    assert (offer.kind, offer.choices, offer.default, offer.take) == (
        "play",
        ("play", "fold"),
        "fold",
        "play",
    )
    assert (offer.extra_wager, offer.spot) == (250, "play")


@pytest.mark.parametrize("array", [tuple(range(8)), (0, 1, 2, 3, 4, 5, 6, 7, 7), (*range(8), 52)])
def test_the_offer_needs_a_whole_array(array):
    with pytest.raises(RuleError, match="array"):
        RULES.offer(SeatBet({"ante": 5}, (0, 1, 2)), array)


ARRAY = "As Ks Qs 7h 7d 7c 2h 5d 9c"  # row 1: Q-K-A suited; row 2: trip sevens


def test_dealer_not_qualifying_pays_the_ante_pushes_play_and_pays_the_bonus():
    r = settle(ARRAY, (0, 1, 2), "4c 6c Jd", "play", ante=100)
    assert (r["ante"].paid, r["ante"].outcome) == (200, "Dealer does not qualify")
    assert (r["play"].stake, r["play"].paid) == (100, 100)
    assert (r["ante_bonus"].stake, r["ante_bonus"].paid, r["ante_bonus"].odds) == (0, 500, 5)
    assert r["ante_bonus"].outcome == "Ante bonus: Straight flush"


def test_a_qualifying_dealer_is_compared():
    win = settle(ARRAY, (3, 4, 5), "Qc Jc 3d", "play", ante=100)
    assert (win["ante"].paid, win["play"].paid, win["ante_bonus"].paid) == (200, 200, 400)
    lose = settle(ARRAY, (6, 7, 0), "Kh Kd 3d", "play", ante=100)  # A-5-2 vs kings
    assert (lose["ante"].paid, lose["play"].paid, "ante_bonus" in lose) == (0, 0, False)
    tie = settle(ARRAY, (6, 7, 0), "Ah 5c 2d", "play", ante=100)  # A-5-2 vs A-5-2
    assert (tie["ante"].paid, tie["play"].paid) == (100, 100)
    assert tie["ante"].outcome == "Tie: push"


def test_a_lower_hand_still_wins_the_ante_when_the_dealer_does_not_qualify():
    r = settle(ARRAY, (6, 7, 8), "Jh Td 8h", "play", ante=100)  # 9-5-2 vs J-10-8
    assert (r["ante"].paid, r["play"].paid) == (200, 100)


def test_a_fold_loses_the_ante_but_the_side_wagers_still_resolve():
    r = settle(ARRAY, (0, 1, 2), "4c 6c Jd", "fold", ante=100, pairs_plus=10, six_card_bonus=10)
    assert set(r) == {"ante", "pairs_plus", "six_card_bonus"}
    assert (r["ante"].paid, r["ante"].outcome) == (0, "Fold")
    assert (r["pairs_plus"].paid, r["pairs_plus"].odds) == (410, 40)
    assert (r["six_card_bonus"].paid, r["six_card_bonus"].outcome) == (0, "Lose (High card)")


def test_blind_wagers_use_their_row_or_column():
    r = settle(
        ARRAY,
        (6, 7, 8),
        "7s Ah 3c",
        "fold",
        ante=100,
        pairs_plus_row_1=10,
        pairs_plus_row_2=10,
        pairs_plus_row_3=10,
        pairs_plus_col_1=10,
        six_card_bonus_row_2=10,
        six_card_bonus_col_1=10,
    )
    assert r["pairs_plus_row_1"].outcome == "Straight flush"
    assert r["pairs_plus_row_2"].paid == 10 + 300  # trips 30:1
    assert r["pairs_plus_row_3"].outcome == "Lose (High card)"
    assert r["pairs_plus_col_1"].outcome == "Lose (High card)"  # A-7-2
    assert r["six_card_bonus_row_2"].paid == 10 + 1000  # four sevens 100:1
    assert r["six_card_bonus_col_1"].outcome == "Lose (Two pair)"  # A-7-2 + 7-A-3


@pytest.mark.parametrize(
    ("choice", "seat_cards", "dealer", "message"),
    [
        (None, (), "4c 6c Jd", "'play' or 'fold'"),
        ("raise", (), "4c 6c Jd", "'play' or 'fold'"),
        ("play", (3,), "4c 6c Jd", "no cards to a seat"),
        ("play", (), "4c 6c", "dealer hand has 3 cards"),
        ("play", (), "4c 6c As", "appears twice"),
    ],
)
def test_bad_settlements_are_refused(choice, seat_cards, dealer, message):
    bet = SeatBet({"ante": 100}, (0, 1, 2))
    with pytest.raises(RuleError, match=message):
        RULES.settle(bet, cards(ARRAY), choice, seat_cards, cards(dealer))


deals = st.lists(st.integers(0, 51), min_size=12, max_size=12, unique=True)
positions = st.lists(st.integers(0, 8), min_size=3, max_size=3, unique=True).map(tuple)
wager_sets = st.dictionaries(st.sampled_from(ALL_SPOTS[1:]), st.integers(1, 10_000)).map(
    lambda side: {"ante": 100, **side}
)


@given(deals, positions, wager_sets, st.integers(1, 10_000))
def test_settlement_properties(deal, chosen, wagers, ante):
    wagers = {**wagers, "ante": ante}
    array, dealer = tuple(deal[:9]), tuple(deal[9:])
    bet = SeatBet(wagers, chosen)
    played = RULES.settle(bet, array, "play", (), dealer)
    folded = RULES.settle(bet, array, "fold", (), dealer)
    by_spot = {r.spot: r for r in played.results}
    assert played.total_stake == bet.total + ante
    assert folded.total_stake == bet.total
    assert [r.spot for r in folded.results] == [s for s in ALL_SPOTS if s in wagers]
    # side wagers do not depend on the decision
    assert [r for r in played.results if r.spot in wagers and r.spot != "ante"] == [
        r for r in folded.results if r.spot != "ante"
    ]
    assert next(r for r in folded.results if r.spot == "ante").paid == 0
    hand = [array[p] for p in chosen]
    mine, theirs = poker3.value3(hand), poker3.value3(dealer)
    if not poker3.dealer_qualifies(theirs):
        expected = (2 * ante, ante)
    elif mine > theirs:
        expected = (2 * ante, 2 * ante)
    elif mine == theirs:
        expected = (ante, ante)
    else:
        expected = (0, 0)
    assert (by_spot["ante"].paid, by_spot["play"].paid) == expected
    bonus = RULES.ante_bonus.odds(poker3.category3(mine))
    if bonus:
        assert (by_spot["ante_bonus"].stake, by_spot["ante_bonus"].paid) == (0, ante * bonus)
    else:
        assert "ante_bonus" not in by_spot
    for r in played.results:
        if r.spot == "ante_bonus":
            continue
        if r.odds:  # a win returns the stake plus the odds
            assert r.paid == pay(r.stake, r.odds) > r.stake
        else:  # a loss or a push
            assert r.paid in (0, r.stake)


@given(deals)
def test_a_blind_line_pays_like_a_seat_holding_that_line(deal):
    array, dealer = tuple(deal[:9]), tuple(deal[9:])
    for line, cells in stadium.LINES.items():
        seat = RULES.settle(
            SeatBet({"ante": 1, "pairs_plus": 7, "six_card_bonus": 7}, cells),
            array,
            "fold",
            (),
            dealer,
        ).results
        blind = RULES.settle(
            SeatBet({"ante": 1, f"pairs_plus_{line}": 7, f"six_card_bonus_{line}": 7}, (0, 1, 2)),
            array,
            "fold",
            (),
            dealer,
        ).results
        assert [(r.paid, r.outcome) for r in seat[1:]] == [(r.paid, r.outcome) for r in blind[1:]]


# --- Play/Fold advice ---------------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=9, max_size=9, unique=True), positions)
def test_optimal_play_is_the_exact_expectation_over_the_12341_dealer_hands(array, chosen):
    advice = stadium.optimal_play(RULES, array, chosen)
    hand = [array[p] for p in chosen]
    expected, n = brute_force_ev_play(hand, array, RULES.ante_bonus.pays)
    assert n == advice.counts.total == 12_341
    assert advice.ev_play == expected
    assert advice.ev_fold == -1
    assert advice.play == (expected > -1)
    assert RULES.optimal_play(array, chosen) == advice


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=3, max_size=12, unique=True), st.integers(0, 40))
def test_dealer_counts_match_a_pass_over_the_dealer_hands(dead, player_hand_index):
    from kiosk.kernel.games.stadium_advice import _tables

    player_value = _tables().all_values[player_hand_index * 500]
    counts = dealer_counts(dead, player_value)
    live = [c for c in range(52) if c not in dead]
    seen = [0, 0, 0, 0]
    for dealer in combinations(live, 3):
        v = poker3.value3(dealer)
        if not poker3.dealer_qualifies(v):
            seen[0] += 1
        elif v < player_value:
            seen[1] += 1
        elif v == player_value:
            seen[2] += 1
        else:
            seen[3] += 1
    assert [counts.not_qualifying, counts.player_wins, counts.ties, counts.dealer_wins] == seen


def test_q64_is_exactly_the_best_decision_on_the_own_three_cards():
    bonus = RULES.ante_bonus.pays
    differ = [
        h for h in combinations(range(52), 3) if advise(h, (), bonus).play != stadium.q64_play(h)
    ]
    assert differ == []


def test_the_q64_boundary_in_numbers():
    bonus = RULES.ante_bonus.pays
    assert advise(cards("Qs 6h 4d"), (), bonus).ev_play > -1
    assert advise(cards("Qs 6h 3d"), (), bonus).ev_play < -1


@pytest.mark.parametrize(
    ("array", "plays"),
    [
        # Q-6-3 folds on its own; with six aces and kings gone the dealer rarely qualifies
        ("Qs 6h 3d Kc Kd Kh Ac Ad Ah", True),
        # Q-6-4 plays on its own; with six low cards gone the dealer qualifies more often
        ("Qs 6h 4d 2c 2d 3c 3h 4c 5c", False),
    ],
)
def test_seeing_the_array_can_change_the_decision(array, plays):
    advice = stadium.optimal_play(RULES, cards(array), (0, 1, 2))
    assert stadium.q64_play(cards(array)[:3]) is not plays
    assert advice.play is plays
    assert (advice.ev_play > -1) is plays


def test_optimal_play_checks_its_input():
    with pytest.raises(RuleError, match="array has 9 cards"):
        stadium.optimal_play(RULES, tuple(range(8)), (0, 1, 2))
    with pytest.raises(RuleError, match="3 distinct positions"):
        stadium.optimal_play(RULES, tuple(range(9)), (0, 1, 1))


def test_advice_refuses_a_hand_with_a_repeated_card():
    with pytest.raises(ValueError, match="hand: a card appears twice"):
        advise((5, 5, 9), (), RULES.ante_bonus.pays)
