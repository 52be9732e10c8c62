"""Turbo par sheets: exact figures pinned, re-derived here by independent brute-force paths
(actual cards, not card classes), checked for symmetry across themes and against the
settlement code."""

from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.kernel import cards
from kiosk.kernel.analysis import turbo_par
from kiosk.kernel.analysis.model import OutcomeLine, ParSheet, WagerPar
from kiosk.kernel.games import icon_odds, nine_card_bonus, turbo
from kiosk.kernel.games.base import SeatBet
from tests.helpers.brute_force import SEED_ICONS, brute_mandatory

ALL_HANDS = comb(52, 9)

# --- pinned exact figures (each re-derived below by a brute-force path) -----------------

PINNED_EDGES = {
    ("turbo-football", "first_down"): Fraction(11132171, 919768850),
    ("turbo-football", "long_pass"): Fraction(4524341, 141502900),
    ("turbo-football", "field_goal"): Fraction(7949023, 283005800),
    ("turbo-football", "td"): Fraction(7398943, 283005800),
    ("icon-v2", "bet_a"): Fraction(73288623, 1839537700),
    ("icon-v2", "bet_b"): Fraction(4524341, 141502900),
    ("icon-v2", "bet_c"): Fraction(7949023, 283005800),
}
PINNED_BONUS_EDGES = {
    "1-14-50-200-1000-10000": Fraction(154947, 3675400),
    "2-10-40-150-1000-10000": Fraction(9672, 91885),
    "2-10-50-200-1000-10000": Fraction(1716, 37835),
    "2-10-50-200-1000-5000-sf-10000-500000": Fraction(4122421, 91976885),
    "3-8-30-100-500-5000": Fraction(3051673, 25727800),
    "3-8-35-100-500-5000-sf-2500-100000": Fraction(356860619, 3679075400),
    "3-8-40-150-1000-10000": Fraction(1309893, 25727800),
    "3-8-40-150-750-5000-sf-5000-250000": Fraction(200807699, 3679075400),
    "3-9-35-100-500-5000": Fraction(881537, 12863900),
    "4-6-25-75-500-5000": Fraction(1212023, 12863900),
}
PINNED_BET_B_FLAT = Fraction(1899382, 35375725)
PINNED_RAISE_FREQUENCY = Fraction(1208, 5525)  # communities with 3, 4 or 5 icons


# --- brute-force reference paths ---------------------------------------------------------


@cache
def brute_hand_icons() -> dict[int, int]:
    """Icons in 9 cards -> hands, over every set of suit-S ranks and every filler."""
    counts: dict[int, int] = {}
    for k in range(10):
        fillers = comb(39, 9 - k)
        for ranks in combinations(range(13), k):
            icons = sum(SEED_ICONS[r] for r in ranks)
            counts[icons] = counts.get(icons, 0) + fillers
    return counts


def run_length(ranks: tuple[int, ...]) -> int:
    """Longest straight in a set of ranks 0..12, ace (12) also below the 2, no wrap."""
    present = {r + 1 for r in ranks} | ({0} if 12 in ranks else set())
    best = 0
    for start in range(14):
        length = 0
        while start + length in present:
            length += 1
        best = max(best, length)
    return best


def brute_bonus_edge(table: nine_card_bonus.NineCardBonusTable) -> Fraction:
    """Exact edge of a 9 Card Bonus table from every suit-S rank set of the 9 cards."""
    net = 0
    for k in range(10):
        fillers = comb(39, 9 - k)
        for ranks in combinations(range(13), k):
            pays = [table.pays[k - 4]] if k >= 4 else []
            run = run_length(ranks)
            if run >= 8 and table.straight_flush_8:
                pays.append(table.straight_flush_8)
            if run >= 9 and table.straight_flush_9:
                pays.append(table.straight_flush_9)
            net += (max(pays) if pays else -1) * fillers
    return Fraction(-net, ALL_HANDS)


def icon_wager_edge(tiers: list[tuple[int, int]]) -> Fraction:
    """Edge of a hand-only icon wager from the brute-force 9-card icon distribution."""
    net = 0
    for icons, n in brute_hand_icons().items():
        pays = [odds for minimum, odds in tiers if icons >= minimum]
        net += (max(pays) if pays else -1) * n
    return Fraction(-net, ALL_HANDS)


# --- the tests ---------------------------------------------------------------------------


def test_pinned_house_edges():
    for (edition_id, wager_id), edge in PINNED_EDGES.items():
        assert turbo_par.par_sheet(edition_id).wagers[wager_id].house_edge == edge
    flat = turbo_par.par_sheet("icon-v2", {"bet_b": "flat"}).wagers["bet_b"]
    assert flat.house_edge == PINNED_BET_B_FLAT
    for name, edge in PINNED_BONUS_EDGES.items():
        sheet = turbo_par.par_sheet("icon-v2", {"nine_card_bonus": name})
        assert sheet.wagers["nine_card_bonus"].house_edge == edge
    assert set(PINNED_BONUS_EDGES) == set(nine_card_bonus.available())


def test_nine_card_icon_distribution_matches_brute_force():
    assert icon_odds.hand_icon_counts() == brute_hand_icons()
    assert sum(brute_hand_icons().values()) == ALL_HANDS


def test_community_and_seat_compositions_cover_every_deal_once():
    assert sum(n for _, n in icon_odds.community_classes()) == comb(52, 3)
    joint: dict[int, int] = {}
    for community, n in icon_odds.community_classes():
        for seat_icons, m in icon_odds.seat_icon_counts(community).items():
            hand = icon_odds.icons_of(community) + seat_icons
            joint[hand] = joint.get(hand, 0) + n * m
    # each 9-card hand splits C(9,3) = 84 ways into community and seat cards
    assert joint == {icons: 84 * n for icons, n in brute_hand_icons().items()}


def test_every_community_composition_is_a_real_community():
    seen: dict[icon_odds.Composition, int] = {}
    for community in combinations(range(52), 3):
        key = icon_odds.composition_of(community, cards.SPADES)
        seen[key] = seen.get(key, 0) + 1
    assert seen == dict(icon_odds.community_classes())


@pytest.mark.parametrize(
    ("wager_id", "tiers"),
    [
        ("long_pass", [(7, 2), (14, 4)]),
        ("field_goal", [(8, 3), (14, 6)]),
        ("td", [(9, 5), (14, 10)]),
    ],
)
def test_icon_wagers_match_brute_force(wager_id, tiers):
    assert PINNED_EDGES[("turbo-football", wager_id)] == icon_wager_edge(tiers)


def test_bet_b_tables_match_brute_force():
    assert PINNED_EDGES[("icon-v2", "bet_b")] == icon_wager_edge([(7, 2), (14, 4)])
    assert icon_wager_edge([(7, 2)]) == PINNED_BET_B_FLAT
    assert PINNED_EDGES[("icon-v2", "bet_c")] == icon_wager_edge([(8, 3), (14, 6)])


@pytest.mark.parametrize(
    ("edition_id", "wager_id", "pays_3_to_2"),
    [("turbo-football", "first_down", True), ("icon-v2", "bet_a", False)],
)
def test_mandatory_wager_with_optimal_raise_matches_brute_force(edition_id, wager_id, pays_3_to_2):
    edge, raise_frequency, hit_frequency = brute_mandatory(pays_3_to_2)
    par = turbo_par.par_sheet(edition_id).wagers[wager_id]
    assert par.house_edge == edge == PINNED_EDGES[(edition_id, wager_id)]
    assert par.extra["raise_frequency"] == raise_frequency == PINNED_RAISE_FREQUENCY
    assert par.hit_frequency == hit_frequency
    assert par.element_of_risk == edge / (1 + raise_frequency)
    assert "3-5" in par.strategy


def test_optimal_raise_agrees_with_the_threshold_on_every_community():
    rules = turbo.load("turbo-football")
    for community in combinations(range(52), 3):
        icons = sum(SEED_ICONS[c >> 2] for c in community if c & 3 == 0)
        if icons <= 5:
            assert turbo.optimal_raise(rules, community).raise_ == (icons >= 3)


@pytest.mark.parametrize("name", sorted(PINNED_BONUS_EDGES))
def test_bonus_tables_match_brute_force(name):
    table = nine_card_bonus.load_table(name)
    assert table.house_edge() == brute_bonus_edge(table) == PINNED_BONUS_EDGES[name]


def test_straight_flush_counts():
    classes = {(s, r): n for s, r, n in nine_card_bonus.hand_classes()}
    assert classes[(9, 9)] == 6  # A-9 .. 5-A
    assert classes[(8, 8)] == 7 * 39  # A-8 .. 7-A, with one card of another suit
    assert classes[(9, 8)] + classes[(9, 9)] + classes[(9, 0)] == comb(13, 9)
    assert sum(classes.values()) == ALL_HANDS


def test_outcome_lines_are_a_probability_distribution():
    for edition_id in turbo.edition_ids():
        for wager in turbo_par.par_sheet(edition_id).wagers.values():
            assert sum(line.probability for line in wager.outcomes) == 1
            assert wager.variance > 0
            assert 0 < wager.house_edge < Fraction(12, 100)
            mean = sum(line.pays * line.probability for line in wager.outcomes)
            assert wager.house_edge == -mean


def test_nine_card_straight_flush_is_flagged_for_gli_11():
    sheet = turbo_par.par_sheet(
        "turbo-football", {"nine_card_bonus": "3-8-40-150-750-5000-sf-5000-250000"}
    )
    long_odds = sheet.wagers["nine_card_bonus"].long_odds_awards()
    assert [line.outcome for line in long_odds] == ["9-card straight flush"]
    assert long_odds[0].probability == Fraction(6, ALL_HANDS)
    assert "GLI-11" in sheet.to_text()
    plain = turbo_par.par_sheet("turbo-football")
    assert not any(w.long_odds_awards() for w in plain.wagers.values())


def test_the_par_sheet_lists_every_library_table():
    extra = turbo_par.par_sheet("icon-v2").wagers["nine_card_bonus"].extra
    assert extra["house_edge_by_paytable"] == PINNED_BONUS_EDGES


@pytest.mark.parametrize("theme_id", ["turbo-hockey", "turbo-basketball", "turbo-baseball"])
def test_a_theme_has_the_par_sheet_of_its_rule_set(theme_id):
    theme = turbo_par.par_sheet(theme_id)
    base_id = turbo.load(theme_id).edition.based_on
    assert base_id is not None
    base = turbo_par.par_sheet(base_id)
    assert list(theme.wagers) == list(base.wagers)
    for wager_id, mine in theme.wagers.items():
        theirs = base.wagers[wager_id]
        assert mine.label != theirs.label or wager_id == "nine_card_bonus"
        for figure in ("house_edge", "element_of_risk", "hit_frequency", "variance"):
            assert getattr(mine, figure) == getattr(theirs, figure)
        assert [(x.pays, x.probability) for x in mine.outcomes] == [
            (x.pays, x.probability) for x in theirs.outcomes
        ]


def test_json_shape():
    data = turbo_par.par_sheet("turbo-football").to_json_dict()
    assert data["edition"] == "turbo-football"
    assert list(data["wagers"]) == [
        "first_down",
        "long_pass",
        "field_goal",
        "td",
        "nine_card_bonus",
    ]
    first_down = data["wagers"]["first_down"]
    assert first_down["house_edge"] == "11132171/919768850"
    assert first_down["house_edge_float"] == pytest.approx(0.0121032268)
    assert first_down["raise_frequency"] == {"exact": "1208/5525", "float": 1208 / 5525}
    for key in ("element_of_risk", "hit_frequency", "variance", "std_dev", "strategy"):
        assert key in first_down


# --- the settlement code against the par sheet ---------------------------------------------


@cache
def _sheet(edition_id: str, bonus: str) -> ParSheet:
    return turbo_par.par_sheet(edition_id, {"nine_card_bonus": bonus})


def _line(par: WagerPar, outcome: str) -> OutcomeLine:
    (line,) = [x for x in par.outcomes if x.outcome == outcome]
    return line


@settings(max_examples=200, deadline=None)
@given(
    edition_id=st.sampled_from(["turbo-football", "icon-v2", "turbo-hockey", "turbo-basketball"]),
    deal=st.permutations(range(52)).map(lambda p: tuple(p[:9])),
    bonus=st.sampled_from(sorted(PINNED_BONUS_EDGES)),
)
def test_settlement_lands_on_par_sheet_lines(edition_id, deal, bonus):
    rules = turbo.load(edition_id, {"nine_card_bonus": bonus})
    sheet = _sheet(edition_id, bonus)
    community, seat = deal[:3], deal[3:]
    bet = SeatBet({spot.id: 100 for spot in rules.spots})
    offer = rules.offer(bet, community)
    choice = None
    if offer is not None:
        choice = "raise" if turbo.optimal_raise(rules, community).raise_ else "no_raise"
    results = {r.spot: r for r in rules.settle(bet, community, choice, seat, ()).results}
    main = rules.edition.main.id
    label = rules.raise_label
    suffix = {
        None: f"({label} not offered)",
        "no_raise": f"(no {label})",
        "raise": f"(with {label})",
    }[choice]
    net = results[main].win + (results["raise"].win if choice == "raise" else 0)
    line = _line(sheet.wagers[main], f"{results[main].outcome} {suffix}")
    assert line.pays == Fraction(net, 100)
    for wager in rules.edition.wagers:
        if not wager.mandatory:
            result = results[wager.id]
            assert _line(sheet.wagers[wager.id], result.outcome).pays == Fraction(result.win, 100)
    result = results["nine_card_bonus"]
    outcome = result.outcome.replace("suited cards", rules.edition.suit_name)
    assert _line(sheet.wagers["nine_card_bonus"], outcome).pays == Fraction(result.win, 100)


@pytest.mark.slow
def test_one_community_by_enumerating_all_seat_hands():
    """Full enumeration of the 13,983,816 six-card completions of one community."""
    rules = turbo.load("turbo-football")
    community = cards.cards("Js 3s 4h")  # 5 footballs
    rest = [c for c in range(52) if c not in community]
    icons = [SEED_ICONS[c >> 2] if c & 3 == 0 else 0 for c in rest]
    wins = sum(1 for six in combinations(icons, 6) if 5 + sum(six) >= 6)
    p_win = Fraction(wins, comb(49, 6))
    advice = turbo.optimal_raise(rules, community)
    assert advice.ev_no_raise == 2 * p_win - 1
    assert advice.ev_raise == 2 * (2 * p_win - 1)
