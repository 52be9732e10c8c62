"""The Stadium par sheet: pinned exact figures, the shipped tables' stated edges, the
full-information estimate and the simulation check."""

import json
import random
from fractions import Fraction
from math import comb

import pytest

from kiosk import cli
from kiosk.kernel.analysis import stadium_par, stadium_sim
from kiosk.kernel.games import stadium
from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.paytable import PACKAGED_DIR, PaytableError
from kiosk.kernel.games.stadium_paytables import load_table

SHIPPED = sorted((p.parent.name, p.stem) for p in (PACKAGED_DIR / "stadium").glob("*/*.toml"))


@pytest.fixture(scope="module")
def sheet():
    return stadium_par.par_sheet({}, full_information_deals=2_000)


def edge_from_counts(counts, pays):
    """Expected loss per unit from category counts and 'n to 1' pays (losers: -1)."""
    total = sum(counts.values())
    return -Fraction(sum(n * pays.get(c, -1) for c, n in counts.items()), total)


def test_the_wagers(sheet):
    assert sheet.edition == "stadium-3cp"
    assert list(sheet.wagers) == ["ante_play", "pairs_plus", "six_card_bonus"]
    assert [w.paytable for w in sheet.wagers.values()] == [
        "1-4-5",
        "1-4-6-30-40",
        "1000-200-100-20-15-10-7",
    ]


def test_ante_play_exact_figures(sheet):
    ante = sheet.wagers["ante_play"]
    assert ante.house_edge == Fraction(686_689, 20_358_520)  # 3.3730%
    assert ante.extra["play_frequency"] == Fraction(14_900, 22_100)
    assert ante.element_of_risk == ante.house_edge / (1 + Fraction(14_900, 22_100))
    assert ante.extra["q64_threshold"] == "Q-6-4"
    assert ante.strategy.startswith("Q-6-4")
    assert sum(line.combinations for line in ante.outcomes) == comb(52, 3) * comb(49, 3)
    assert sum(line.probability for line in ante.outcomes) == 1
    assert ante.outcomes[0].outcome == "Fold"
    assert ante.outcomes[0].probability == Fraction(22_100 - 14_900, 22_100)


def test_ante_play_figures_from_the_brute_force_counts(sheet):
    """House edge, hit frequency and variance recomputed from the brute-force pair counts."""
    from tests.helpers.brute_force import brute_force_ante_play

    played, folded = brute_force_ante_play()
    bonus = {3: 1, 4: 4, 5: 5}  # straight, trips, straight flush: 1-4-5
    results = [(-1, folded)]
    for category, (nq, win, tie, lose) in played.items():
        b = bonus.get(category, 0)
        results += [(1 + b, nq), (2 + b, win), (b, tie), (-2 + b, lose)]
    total = sum(n for _, n in results)
    mean = Fraction(sum(x * n for x, n in results), total)
    square = Fraction(sum(x * x * n for x, n in results), total)
    ante = sheet.wagers["ante_play"]
    assert ante.house_edge == -mean
    assert ante.variance == square - mean * mean
    assert ante.hit_frequency == Fraction(sum(n for x, n in results if x > 0), total)


def test_pairs_plus_exact_figures(sheet):
    pp = sheet.wagers["pairs_plus"]
    counts = {"sf": 48, "trips": 52, "straight": 720, "flush": 1_096, "pair": 3_744, "hc": 16_440}
    pays = {"sf": 40, "trips": 30, "straight": 6, "flush": 4, "pair": 1}
    assert pp.house_edge == edge_from_counts(counts, pays) == Fraction(128, 5525)  # 2.3167%
    assert pp.hit_frequency == Fraction(5_660, 22_100)
    mean = -pp.house_edge
    square = Fraction(sum(n * pays.get(c, -1) ** 2 for c, n in counts.items()), 22_100)
    assert pp.variance == square - mean * mean
    assert pp.element_of_risk == pp.house_edge


def test_six_card_bonus_exact_figures(sheet):
    six = sheet.wagers["six_card_bonus"]
    assert six.house_edge == Fraction(12_816, 149_695)  # 8.5614%
    assert sum(line.combinations for line in six.outcomes) == 20_358_520
    royal = six.outcomes[0]
    assert (royal.outcome, royal.pays, royal.combinations) == ("Royal flush", 1000, 188)
    assert six.long_odds_awards() == ()  # the royal is 1 in 108,290


@pytest.mark.parametrize(("wager", "name"), SHIPPED)
def test_every_shipped_table_states_its_exact_edge(wager, name):
    table = load_table(wager, name)
    if wager == "ante_play":
        par = stadium_par.ante_play_par(table)
    else:
        par = stadium_par.side_wager_par(table)
    assert par.house_edge == table.stated_house_edge
    assert par.paytable == name


@pytest.mark.parametrize(
    ("wager", "name", "edge"),
    [
        ("pairs_plus", "1-3-6-30-40", Fraction(402, 5525)),  # 7.2760%
        ("pairs_plus", "1-4-5-30-40", Fraction(308, 5525)),  # 5.5747%
        ("six_card_bonus", "1000-200-50-25-20-10-5", Fraction(15_306, 149_695)),  # 10.2248%
    ],
)
def test_other_tables_edges_from_their_counts(wager, name, edge):
    table = load_table(wager, name)
    assert stadium_par.side_wager_par(table).house_edge == edge


def test_a_wrong_stated_edge_is_refused(tmp_path):
    text = (PACKAGED_DIR / "stadium/pairs_plus/1-4-6-30-40.toml").read_text()
    path = tmp_path / "claim.toml"
    path.write_text(text.replace('"128/5525"', '"1/100"'))
    with pytest.raises(PaytableError) as caught:
        stadium_par.par_sheet({"pairs_plus": str(path)}, full_information_deals=10)
    assert caught.value.field == "house_edge"
    assert "exact house edge is 128/5525" in str(caught.value)


def test_the_full_information_estimate(sheet):
    estimate = sheet.wagers["ante_play"].extra["house_edge_full_information"]
    assert estimate["deals"] == 2_000
    assert 0 < estimate["std_error"] < 0.001
    q64 = float(sheet.wagers["ante_play"].house_edge)
    assert estimate["estimate"] == pytest.approx(q64 - estimate["gain_over_q64"])
    assert 0 < estimate["gain_over_q64"] < 0.01
    again = stadium_sim.full_information_edge(
        2_000, stadium.load({}), sheet.wagers["ante_play"].house_edge, seed=3
    )
    assert again.as_dict() == estimate


def test_the_json_shape(sheet):
    data = json.loads(sheet.to_json())
    ante = data["wagers"]["ante_play"]
    assert ante["house_edge"] == "686689/20358520"
    assert ante["house_edge_float"] == pytest.approx(0.0337298)
    assert set(ante["house_edge_full_information"]) >= {"estimate", "std_error"}
    assert ante["play_frequency"] == {"exact": "149/221", "float": 149 / 221}
    assert data["wagers"]["six_card_bonus"]["long_odds_awards"] == []


def test_simulation_confirms_the_exact_edges():
    rows = stadium_par.simulate(4_000, {}, seed=11)
    assert [r.wager_id for r in rows] == [
        "ante_play",
        "pairs_plus",
        "six_card_bonus",
        "pairs_plus_blind",
        "six_card_bonus_blind",
    ]
    assert rows[0].exact_edge == Fraction(686_689, 20_358_520)
    assert rows[3].exact_edge == rows[1].exact_edge
    for row in rows:
        assert row.games == 4_000
        assert row.std_error > 0
        assert row.agrees(3.0), row


def test_simulation_of_a_wrong_exact_edge_disagrees():
    rules = stadium.load({})
    wrong = {
        "ante_play": Fraction(1, 2),
        "pairs_plus": Fraction(1, 2),
        "six_card_bonus": Fraction(0),
    }
    rows = stadium_sim.simulate_rounds(4_000, rules, wrong, random.Random(2))
    assert not rows[0].agrees()
    assert not rows[1].agrees()


def test_the_commands(capsys, monkeypatch):
    monkeypatch.setattr(stadium_sim, "FULL_INFORMATION_DEALS", 100)
    assert (
        cli.main(
            ["par-sheet", "stadium-3cp", "--paytable", "pairs_plus=1-3-6-30-40", "--format", "json"]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["wagers"]["pairs_plus"]["house_edge"] == "402/5525"
    assert cli.main(["par-sheet", "stadium-3cp", "--paytable", "six_card_bonus=nope"]) == 2
    assert "no pay table named 'nope'" in capsys.readouterr().err
    assert cli.main(["simulate", "stadium-3cp", "--games", "2000", "--seed", "4"]) == 0
    assert "all wagers agree" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_a_long_simulation_confirms_the_exact_edges():
    for row in stadium_par.simulate(200_000, {}, seed=2024):
        assert row.agrees(3.0), row


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_full_information_estimate_agrees_with_rounds_played_out():
    """Rounds played to the end with the full-information decision land within 3 standard
    errors of the control-variate estimate."""
    rules = stadium.load({})
    exact_q64 = stadium_par.ante_play_par(rules.ante_bonus).house_edge
    estimate = stadium_sim.full_information_edge(20_000, rules, exact_q64, seed=9)
    deals = random.Random(10)
    games, total, squares = 200_000, 0, 0
    bet = SeatBet({"ante": 1}, (0, 1, 2))
    for _ in range(games):
        deal = deals.sample(range(52), 12)
        array, dealer = tuple(deal[:9]), tuple(deal[9:])
        choice = "play" if rules.optimal_play(array, (0, 1, 2)).play else "fold"
        net = sum(r.win for r in rules.settle(bet, array, choice, (), dealer).results)
        total += net
        squares += net * net
    mean = total / games
    error = ((squares / games - mean * mean) / games) ** 0.5
    assert abs(-mean - estimate.estimate) <= 3 * (error**2 + estimate.std_error**2) ** 0.5
