"""Stadium pay tables: the shipped files, choosing tables, and refusing bad files."""

from fractions import Fraction
from pathlib import Path

import pytest

from kiosk.kernel.games import poker3, stadium
from kiosk.kernel.games.paytable import PACKAGED_DIR, PaytableError
from kiosk.kernel.games.stadium_paytables import CATEGORIES, DEFAULTS, WAGERS, load_table

SHIPPED = sorted((p.parent.name, p.stem) for p in (PACKAGED_DIR / "stadium").glob("*/*.toml"))

GOOD = """\
wager = "pairs_plus"
name = "1-2-3-4-5"
house_edge = "1/7"

[pays]
pair = 1
flush = 2
straight = 3
three_of_a_kind = 4
straight_flush = 5
"""


def test_the_shipped_tables():
    assert SHIPPED == [
        ("ante_play", "1-3-4"),
        ("ante_play", "1-3-5"),
        ("ante_play", "1-4-5"),
        ("pairs_plus", "1-3-6-30-40"),
        ("pairs_plus", "1-4-5-30-40"),
        ("pairs_plus", "1-4-6-25-40"),
        ("pairs_plus", "1-4-6-30-40"),
        ("six_card_bonus", "1000-200-100-20-15-10-7"),
        ("six_card_bonus", "1000-200-50-25-15-10-5"),
        ("six_card_bonus", "1000-200-50-25-20-10-5"),
    ]


@pytest.mark.parametrize(("wager", "name"), SHIPPED)
def test_every_shipped_table_is_named_by_its_pays_and_states_its_edge(wager, name):
    table = load_table(wager, name)
    keys = list(CATEGORIES[wager])
    in_name_order = keys if wager == "six_card_bonus" else keys[::-1]
    pays = [table.pays[CATEGORIES[wager][k]] for k in in_name_order]
    assert "-".join(str(p) for p in pays) == name
    assert table.stated_house_edge is not None
    assert table.source == f"stadium/{wager}/{name}.toml"


def test_defaults_and_choices():
    rules = stadium.load({})
    assert (
        (rules.ante_bonus.name, rules.pairs_plus.name, rules.six_card_bonus.name)
        == (
            DEFAULTS["ante_play"],
            DEFAULTS["pairs_plus"],
            DEFAULTS["six_card_bonus"],
        )
        == ("1-4-5", "1-4-6-30-40", "1000-200-100-20-15-10-7")
    )
    chosen = stadium.load({"pairs_plus": "1-3-6-30-40", "ante_play": "1-3-5"})
    assert chosen.pairs_plus.odds(poker3.FLUSH) == 3
    assert chosen.ante_bonus.odds(poker3.THREE_OF_A_KIND) == 3
    assert chosen.ante_bonus.odds(poker3.PAIR) == 0
    assert chosen.six_card_bonus.odds(poker3.ROYAL_FLUSH_5) == 1000


def test_unknown_wagers_and_names_are_refused():
    with pytest.raises(PaytableError, match="no wager 'ante'"):
        stadium.load({"ante": "1-4-5"})
    with pytest.raises(PaytableError, match=r"no pay table named '9-9-9' \(known: 1-3-4, 1-3-5"):
        stadium.load({"ante_play": "9-9-9"})


def test_a_table_from_a_file_path(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    rules = stadium.load({"pairs_plus": str(path)})
    assert rules.pairs_plus.name == "1-2-3-4-5"
    assert rules.pairs_plus.source == str(path)
    assert rules.pairs_plus.stated_house_edge == Fraction(1, 7)
    assert rules.pairs_plus.odds(poker3.STRAIGHT_FLUSH) == 5


def test_a_table_from_an_operator_directory(tmp_path):
    (tmp_path / "stadium" / "pairs_plus").mkdir(parents=True)
    (tmp_path / "stadium" / "pairs_plus" / "1-2-3-4-5.toml").write_text(GOOD)
    environ = {"TURBOKIOSK_PAYTABLES": str(tmp_path)}
    rules = stadium.load({"pairs_plus": "1-2-3-4-5"}, environ)
    assert rules.pairs_plus.odds(poker3.PAIR) == 1


def test_an_operator_table_may_not_shadow_a_shipped_one(tmp_path):
    (tmp_path / "stadium" / "pairs_plus").mkdir(parents=True)
    text = GOOD.replace("1-2-3-4-5", "1-4-6-30-40")
    (tmp_path / "stadium" / "pairs_plus" / "1-4-6-30-40.toml").write_text(text)
    with pytest.raises(PaytableError, match="ambiguous"):
        stadium.load({"pairs_plus": "1-4-6-30-40"}, {"TURBOKIOSK_PAYTABLES": str(tmp_path)})


def test_the_name_inside_must_match_the_file_name(tmp_path):
    (tmp_path / "stadium" / "pairs_plus").mkdir(parents=True)
    (tmp_path / "stadium" / "pairs_plus" / "other.toml").write_text(GOOD)
    with pytest.raises(PaytableError, match=r"other.toml: field 'name': is '1-2-3-4-5'"):
        stadium.load({"pairs_plus": "other"}, {"TURBOKIOSK_PAYTABLES": str(tmp_path)})


@pytest.mark.parametrize(
    ("edit", "field", "problem"),
    [
        (("[pays]", "[pays]\nhigh_card = 1"), "pays.high_card", "is not a known field"),
        (("flush = 2\n", ""), "pays.flush", "is missing"),
        (("flush = 2", "flush = 0"), "pays.flush", "must be positive odds"),
        (("flush = 2", "flush = -2"), "pays.flush", "must be positive odds"),
        (("flush = 2", "flush = 2.5"), "pays.flush", "must be odds like"),
        (("flush = 2", 'flush = "3:0"'), "pays.flush", "must be odds like"),
        (("flush = 2", "flush = true"), "pays.flush", "must be odds like"),
        (('wager = "pairs_plus"', 'wager = "six_card_bonus"'), "wager", "is 'six_card_bonus'"),
        (('wager = "pairs_plus"\n', ""), "wager", "is missing"),
        (('name = "1-2-3-4-5"', "name = 5"), "name", "must be a non-empty string"),
        (('name = "1-2-3-4-5"', 'name = "../x"'), "name", "must use only"),
        (('house_edge = "1/7"', 'house_edge = "1/0"'), "house_edge", "exact fraction"),
        (('house_edge = "1/7"', 'house_edge = "2.3%"'), "house_edge", "exact fraction"),
        (('house_edge = "1/7"', "house_edge = 0.023"), "house_edge", "exact fraction"),
        (('house_edge = "1/7"', 'colour = "red"'), "colour", "is not a known field"),
        ((GOOD[GOOD.index("[pays]") :], "pays = 3\n"), "pays", "must be a table, got 3"),
    ],
)
def test_bad_files_are_refused_naming_the_file_and_the_field(tmp_path, edit, field, problem):
    old, new = edit
    assert old in GOOD
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(PaytableError) as caught:
        stadium.load({"pairs_plus": str(path)})
    assert str(caught.value).startswith(f"{path}: field '{field}': ")
    assert problem in caught.value.problem
    assert (caught.value.source, caught.value.field) == (str(path), field)


def test_unreadable_and_malformed_files_are_refused(tmp_path):
    missing = tmp_path / "missing.toml"
    with pytest.raises(PaytableError, match=r"missing\.toml: cannot be read"):
        stadium.load({"six_card_bonus": str(missing)})
    broken = tmp_path / "broken.toml"
    broken.write_text("wager = \n")
    with pytest.raises(PaytableError, match=r"broken\.toml: is not valid TOML"):
        stadium.load({"six_card_bonus": str(broken)})


def test_fractional_odds_are_allowed(tmp_path):
    path = tmp_path / "frac.toml"
    path.write_text(GOOD.replace("flush = 2", 'flush = "5:2"'))
    assert stadium.load({"pairs_plus": str(path)}).pairs_plus.odds(poker3.FLUSH) == Fraction(5, 2)


@pytest.mark.parametrize("wager", WAGERS)
def test_every_wager_has_its_categories(wager):
    assert Path(PACKAGED_DIR / "stadium" / wager).is_dir()
    assert len(set(CATEGORIES[wager].values())) == len(CATEGORIES[wager])
