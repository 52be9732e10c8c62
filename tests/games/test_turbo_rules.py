"""Turbo settlement, decision offer and bet checks against the seed rules, written out here
independently of the edition data files."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.kernel import cards
from kiosk.kernel.games import turbo
from kiosk.kernel.games.base import RuleError, SeatBet

# --- the seeds, restated -------------------------------------------------------------------

SEED_ICONS = {**dict.fromkeys("2345", 1), **dict.fromkeys("6789T", 2), **dict.fromkeys("JQKA", 4)}

RuleSet = dict[str, list[tuple[int, Fraction]]]
FOOTBALL: RuleSet = {  # wager -> [(min icons in 9 cards, odds)], highest pay wins
    "first_down": [(6, Fraction(1))],  # plus 3:2 on 6+ icons in the community, below
    "long_pass": [(7, Fraction(2)), (14, Fraction(4))],
    "field_goal": [(8, Fraction(3)), (14, Fraction(6))],
    "td": [(9, Fraction(5)), (14, Fraction(10))],
}
VERSION_2: RuleSet = {
    "bet_a": [(6, Fraction(1))],
    "bet_b": [(7, Fraction(2)), (14, Fraction(4))],
    "bet_c": [(8, Fraction(3)), (14, Fraction(6))],
}
#: Edition -> (seed rule set, suit S letter).
EDITIONS = {
    "turbo-football": (FOOTBALL, "s"),
    "turbo-hockey": (FOOTBALL, "h"),
    "icon-v2": (VERSION_2, "s"),
    "turbo-basketball": (VERSION_2, "d"),
    "turbo-baseball": (VERSION_2, "c"),
}
STANDARD_BONUS = {4: 3, 5: 8, 6: 40, 7: 150, 8: 1000, 9: 10000}


def seed_icons(codes: tuple[int, ...], suit_letter: str) -> int:
    """Icons on cards per the seed: rank letter of suit S -> 1, 2 or 4."""
    return sum(SEED_ICONS[cards.name(c)[0]] for c in codes if cards.name(c)[1] == suit_letter)


def seed_net(rule_set: RuleSet, wager: str, hand_icons: int, community_icons: int) -> Fraction:
    """Net result per unit of one wager, straight from the seed's pay table."""
    best = Fraction(-1)
    for minimum, odds in rule_set[wager]:
        if hand_icons >= minimum:
            best = max(best, odds)
    if wager == "first_down" and community_icons >= 6:
        best = max(best, Fraction(3, 2))
    return best


def full_bet(rules: turbo.TurboRules, stake: int = 100) -> SeatBet:
    return SeatBet({spot.id: stake for spot in rules.spots})


def test_every_edition_of_the_seeds_is_shipped():
    assert set(EDITIONS) <= set(turbo.edition_ids())


@pytest.mark.parametrize("edition_id", sorted(EDITIONS))
def test_spots_follow_the_rule_set(edition_id):
    rules = turbo.load(edition_id)
    rule_set, suit_letter = EDITIONS[edition_id]
    assert [s.id for s in rules.spots] == [*rule_set, "nine_card_bonus"]
    assert [s.id for s in rules.spots if s.mandatory] == [next(iter(rule_set))]
    assert rules.suit == cards.SUITS.index(suit_letter)
    assert (rules.first_deal, rules.second_deal_per_seat, rules.second_deal_shared) == (3, 6, 0)


def test_themes_rename_bets_suit_and_icon():
    hockey = turbo.load("turbo-hockey")
    assert [s.label for s in hockey.spots] == [
        "Face-Off",
        "Breakaway",
        "Power Play",
        "Goal",
        "9 Card Hearts Bonus",
    ]
    assert hockey.raise_label == "Double"
    assert hockey.edition.icons == "pucks"
    bet = full_bet(hockey)
    done = hockey.settle(bet, cards.cards("Ah Kh Qh"), None, cards.cards("Jh Th 2c 3c 4c 5c"), ())
    assert done.results[1].outcome == "Hat Trick (14+ pucks)"


def test_first_down_pays_3_to_2_on_six_community_footballs_and_offers_no_double():
    rules = turbo.load("turbo-football")
    bet = SeatBet({"first_down": 100})
    community = cards.cards("As Ks 2h")  # 8 footballs
    assert rules.offer(bet, community) is None
    done = rules.settle(bet, community, None, cards.cards("3h 4h 5h 6h 7h 8h"), ())
    (first_down,) = done.results
    assert (first_down.paid, first_down.odds) == (250, Fraction(3, 2))
    assert first_down.outcome == "6+ footballs in the 3 community cards"


def test_three_to_two_on_an_odd_stake_breaks_down_to_the_cent():
    rules = turbo.load("turbo-football")
    done = rules.settle(
        SeatBet({"first_down": 5}),
        cards.cards("As Ks 2h"),
        None,
        cards.cards("3h 4h 5h 6h 7h 8h"),
        (),
    )
    assert done.results[0].paid == 5 + 7  # 7.5 cents of win: the half cent is not paid


def test_bet_a_pays_even_money_on_six_community_icons():
    rules = turbo.load("icon-v2")
    done = rules.settle(
        SeatBet({"bet_a": 100}),
        cards.cards("As Ks 2h"),
        None,
        cards.cards("3h 4h 5h 6h 7h 8h"),
        (),
    )
    assert done.results[0].paid == 200


def test_only_the_highest_payout_is_paid():
    rules = turbo.load("turbo-football")
    bet = full_bet(rules)
    community = cards.cards("As Ks 2h")
    done = rules.settle(bet, community, None, cards.cards("Qs Js 9s 3d 4d 5d"), ())  # 18
    paid = {r.spot: r.paid for r in done.results}
    assert paid == {
        "first_down": 250,
        "long_pass": 500,
        "field_goal": 700,
        "td": 1100,
        "nine_card_bonus": 900,  # 5 spades: 8 to 1
    }


@pytest.mark.parametrize(
    ("community", "offered"),
    [
        ("2h 3h 4h", True),
        ("Js 2h 3h", True),
        ("Js 2s 3h", True),
        ("Js 6s 3h", False),
        ("6s 7s 8s", False),
        ("2s 3s 4s", True),
    ],
)
def test_the_double_is_offered_only_on_five_footballs_or_fewer(community, offered):
    rules = turbo.load("turbo-football")
    bet = SeatBet({"first_down": 300, "td": 100})
    offer = rules.offer(bet, cards.cards(community))
    if not offered:
        assert offer is None
        return
    assert offer is not None
    assert (offer.kind, offer.choices, offer.default, offer.take, offer.spot) == (
        "raise",
        ("raise", "no_raise"),
        "no_raise",
        "raise",
        "raise",
    )
    assert offer.extra_wager == 300


def test_the_double_is_paid_like_first_down_on_nine_cards():
    rules = turbo.load("turbo-football")
    bet = SeatBet({"first_down": 100})
    community = cards.cards("Js 2s 3h")  # 5 footballs
    win = rules.settle(bet, community, "raise", cards.cards("4s 4h 5h 6h 7h 8h"), ())
    assert [(r.spot, r.stake, r.paid) for r in win.results] == [
        ("first_down", 100, 200),
        ("raise", 100, 200),
    ]
    lose = rules.settle(bet, community, "raise", cards.cards("4h 5h 6h 7h 8h 9h"), ())
    assert [(r.spot, r.paid, r.outcome) for r in lose.results] == [
        ("first_down", 0, "Lose"),
        ("raise", 0, "Lose"),
    ]
    declined = rules.settle(bet, community, "no_raise", cards.cards("4s 4h 5h 6h 7h 8h"), ())
    assert [r.spot for r in declined.results] == ["first_down"]


def test_bet_b_alternate_table_pays_no_extra_for_outcome_z():
    community, seat = cards.cards("As Ks Qs"), cards.cards("2s 3h 4h 5h 6h 7h")  # 13 icons
    for table, paid_13, paid_14 in (("standard", 300, 500), ("flat", 300, 300)):
        rules = turbo.load("icon-v2", {"bet_b": table})
        bet = SeatBet({"bet_a": 100, "bet_b": 100})
        assert rules.settle(bet, community, None, seat, ()).results[1].paid == paid_13
        seat_14 = cards.cards("2s 3s 4h 5h 6h 7h")
        assert rules.settle(bet, community, None, seat_14, ()).results[1].paid == paid_14


@pytest.mark.parametrize(
    ("hand", "table", "outcome", "odds"),
    [
        # ace low: A-2-...-8 of spades is an 8-card straight flush
        (
            "As 2s 3s 4s 5s 6s 7s 8s Kh",
            "3-8-40-150-750-5000-sf-5000-250000",
            "8-card straight flush",
            5000,
        ),
        # 9-card straight flush 5..K
        (
            "5s 6s 7s 8s 9s Ts Js Qs Ks",
            "3-8-40-150-750-5000-sf-5000-250000",
            "9-card straight flush",
            250000,
        ),
        # no wrap-around: J-Q-K-A-2-3-4-5-6 holds no 8 in sequence
        (
            "Js Qs Ks As 2s 3s 4s 5s 6s",
            "3-8-40-150-750-5000-sf-5000-250000",
            "9 suited cards",
            5000,
        ),
        # 8 in sequence among 9 suited: the 8-card award beats the 9-card pay
        (
            "2s 3s 4s 5s 6s 7s 8s 9s Ks",
            "2-10-50-200-1000-5000-sf-10000-500000",
            "8-card straight flush",
            10000,
        ),
        # same hand on a table without straight-flush awards
        ("2s 3s 4s 5s 6s 7s 8s 9s Ks", "3-8-40-150-1000-10000", "9 suited cards", 10000),
        ("2s 3s 4s 5s Kh Qh Jh Th 9h", "3-8-40-150-1000-10000", "4 suited cards", 3),
    ],
)
def test_nine_card_bonus_awards(hand, table, outcome, odds):
    rules = turbo.load("turbo-football", {"nine_card_bonus": table})
    codes = cards.cards(hand)
    done = rules.settle(
        SeatBet({"first_down": 100, "nine_card_bonus": 100}),
        codes[:3],
        _decline(rules, codes[:3]),
        codes[3:],
        (),
    )
    bonus = done.results[-1]
    assert (bonus.outcome, bonus.odds, bonus.paid) == (outcome, odds, 100 + 100 * odds)


def test_three_suited_cards_lose_the_nine_card_bonus():
    rules = turbo.load("turbo-football")
    codes = cards.cards("As Ks Qs 2h 3h 4h 5h 6h 7h")
    done = rules.settle(
        SeatBet({"first_down": 100, "nine_card_bonus": 100}), codes[:3], None, codes[3:], ()
    )
    assert (done.results[-1].paid, done.results[-1].outcome) == (0, "Lose")


def test_a_property_may_drop_the_nine_card_bonus():
    rules = turbo.load("icon-v2", {"nine_card_bonus": "off"})
    assert "nine_card_bonus" not in [s.id for s in rules.spots]
    with pytest.raises(RuleError, match="no wager spot 'nine_card_bonus'"):
        rules.validate_bet(SeatBet({"bet_a": 100, "nine_card_bonus": 100}))
    assert rules.paytable_names()["nine_card_bonus"] == "off"


def test_seats_share_the_community_and_get_their_own_six_cards():
    rules = turbo.load("turbo-football")
    deck = list(range(52))
    community, rest = tuple(deck[:3]), deck[3:]
    bet = full_bet(rules)
    seats = [tuple(rest[6 * i : 6 * i + 6]) for i in range(8)]  # 8 seats: 51 cards
    choice = _decline(rules, community)
    together = [rules.settle(bet, community, choice, s, ()) for s in seats]
    assert len({c for s in seats for c in s} | set(community)) == 51
    for seat_cards, settlement in zip(seats, together, strict=True):
        assert settlement == rules.settle(bet, community, choice, seat_cards, ())


@pytest.mark.parametrize(
    ("wagers", "message"),
    [
        ({"long_pass": 100}, "mandatory"),
        ({"first_down": 100, "raise": 100}, "placed after the community"),
        ({"first_down": 100, "bet_b": 100}, "no wager spot 'bet_b'"),
        ({"first_down": 0}, "positive number of cents"),
        ({"first_down": -5}, "positive number of cents"),
        ({"first_down": True}, "positive number of cents"),
        ({"first_down": 1.5}, "positive number of cents"),
    ],
)
def test_bad_bets_are_refused(wagers, message):
    rules = turbo.load("turbo-football")
    with pytest.raises(RuleError, match=message):
        rules.validate_bet(SeatBet(wagers))


def test_positions_are_refused():
    with pytest.raises(RuleError, match="no positions"):
        turbo.load("icon-v2").validate_bet(SeatBet({"bet_a": 1}, positions=(0, 1, 2)))


@pytest.mark.parametrize(
    ("community", "choice", "seat", "message"),
    [
        ("As Ks 2h", "raise", "3h 4h 5h 6h 7h 8h", "no Double was offered"),
        ("2h 3h 4h", None, "5h 6h 7h 8h 9h Th", "choice must be one of"),
        ("2h 3h 4h", "fold", "5h 6h 7h 8h 9h Th", "choice must be one of"),
        ("2h 3h 4h", "raise", "5h 6h 7h 8h 9h", "needs 6 cards"),
        ("2h 3h 4h", "raise", "2h 6h 7h 8h 9h Th", "repeat a community card"),
        ("2h 3h 4h", "raise", "5h 5h 7h 8h 9h Th", "repeats a card"),
        ("2h 3h", "raise", "5h 6h 7h 8h 9h Th", "needs 3 cards"),
    ],
)
def test_bad_deals_and_choices_are_refused(community, choice, seat, message):
    rules = turbo.load("turbo-football")
    with pytest.raises(RuleError, match=message):
        rules.settle(
            SeatBet({"first_down": 100}), cards.cards(community), choice, cards.cards(seat), ()
        )


def test_card_codes_out_of_range_and_shared_second_deal_are_refused():
    rules = turbo.load("turbo-football")
    bet = SeatBet({"first_down": 100})
    with pytest.raises(RuleError, match="not a card code"):
        rules.offer(bet, (0, 1, 52))
    with pytest.raises(RuleError, match="no shared cards"):
        rules.settle(bet, (0, 1, 2), "no_raise", (3, 5, 6, 7, 9, 10), (11,))


def test_unknown_edition_and_wager_choices_are_refused():
    with pytest.raises(RuleError, match="unknown Turbo edition"):
        turbo.load("turbo-curling")
    with pytest.raises(RuleError, match="no wager 'bet_z'"):
        turbo.load("icon-v2", {"bet_z": "standard"})


def test_optimal_raise_gives_exact_conditional_evs():
    rules = turbo.load("turbo-football")
    advice = turbo.optimal_raise(rules, cards.cards("2h 3h 4h"))  # 0 footballs
    assert not advice.raise_
    assert advice.ev_raise < advice.ev_no_raise < 0
    advice = turbo.optimal_raise(rules, cards.cards("Js 3h 4h"))  # 4 footballs
    assert advice.raise_
    assert advice.ev_raise > advice.ev_no_raise
    # raising adds the raise's own EV: 2p - 1 on top of the First Down's 2p - 1
    assert advice.ev_raise == 2 * advice.ev_no_raise
    with pytest.raises(RuleError, match="no Double is offered"):
        turbo.optimal_raise(rules, cards.cards("As Ks 2h"))


def _decline(rules: turbo.TurboRules, community: tuple[int, ...]) -> str | None:
    return (
        None
        if rules.offer(SeatBet({rules.edition.main.id: 1}), community) is None
        else ("no_raise")
    )


@settings(max_examples=300, deadline=None)
@given(
    edition_id=st.sampled_from(sorted(EDITIONS)),
    deal=st.permutations(range(52)).map(lambda p: tuple(p[:9])),
    raising=st.booleans(),
    stake=st.integers(min_value=1, max_value=10_000),
)
def test_settlement_matches_the_seed_pay_tables(edition_id, deal, raising, stake):
    rules = turbo.load(edition_id)
    rule_set, suit_letter = EDITIONS[edition_id]
    community, seat = deal[:3], deal[3:]
    bet = full_bet(rules, stake)
    offer = rules.offer(bet, community)
    community_icons = seed_icons(community, suit_letter)
    assert (offer is not None) == (community_icons <= 5)
    choice = None if offer is None else ("raise" if raising else "no_raise")
    done = rules.settle(bet, community, choice, seat, ())
    hand_icons = seed_icons(deal, suit_letter)
    suited = sum(1 for c in deal if cards.name(c)[1] == suit_letter)
    expected = {w: seed_net(rule_set, w, hand_icons, community_icons) for w in rule_set}
    if choice == "raise":
        expected["raise"] = Fraction(1) if hand_icons >= 6 else Fraction(-1)
    expected["nine_card_bonus"] = Fraction(STANDARD_BONUS.get(suited, -1))
    got = {r.spot: r for r in done.results}
    assert set(got) == set(expected)
    for spot, net in expected.items():
        result = got[spot]
        assert result.stake == stake
        want_paid = 0 if net < 0 else stake + (stake * net.numerator) // net.denominator
        assert result.paid == want_paid, spot
