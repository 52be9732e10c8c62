"""Pay-table and edition files: the shipped ones load, bad ones are refused with the file, the
field and the problem named, and operators can add tables without code changes."""

import re
from fractions import Fraction
from pathlib import Path

import pytest

from kiosk.kernel.games import nine_card_bonus, turbo, turbo_edition
from kiosk.kernel.games.paytable import PACKAGED_DIR, PATH_VARIABLE, FieldReader, PaytableError
from tests.helpers.editions import assert_edition_refused, edition_dir, write

GOOD_BONUS = """\
name = "{name}"
description = "test table"

[pays]
4 = 3
5 = 8
6 = 40
7 = 150
8 = 1000
9 = 10000
"""


def bonus_file(directory: Path, name: str = "house-test") -> Path:
    return write(directory / f"{name}.toml", GOOD_BONUS.format(name=name))


def test_every_shipped_bonus_table_loads_with_a_house_edge_between_2_and_12_percent():
    names = nine_card_bonus.available()
    assert 6 <= len(names) <= 10
    for name in names:
        table = nine_card_bonus.load_table(name)
        assert table.name == name
        assert Fraction(2, 100) <= table.house_edge() <= Fraction(12, 100), name
    assert any(nine_card_bonus.load_table(n).straight_flush_9 for n in names)


def test_a_valid_operator_file_loads_by_path(tmp_path):
    path = bonus_file(tmp_path)
    table = nine_card_bonus.load_table(str(path))
    assert table.pays == (3, 8, 40, 150, 1000, 10000)
    assert table.source == str(path)
    assert table.house_edge() == nine_card_bonus.load_table("3-8-40-150-1000-10000").house_edge()


BAD_BONUS = [
    # (edits to the good file, field named, problem text)
    ({"7 = 150": "7 = -3"}, "pays.7", "must be a positive integer, got -3"),
    ({"7 = 150": "7 = 0"}, "pays.7", "must be a positive integer, got 0"),
    ({"7 = 150": '7 = "150"'}, "pays.7", "must be a positive integer, got '150'"),
    ({"7 = 150": "7 = true"}, "pays.7", "must be a positive integer, got True"),
    ({"7 = 150": "7 = 1.5"}, "pays.7", "must be a positive integer, got 1.5"),
    ({"9 = 10000\n": ""}, "pays.9", "is missing"),
    ({"9 = 10000\n": "9 = 10000\n10 = 99999\n"}, "pays.10", "is not a known field"),
    ({"5 = 8": "5 = 2"}, "pays.5", "must not be less than pays.4 (3), got 2"),
    ({'description = "test table"': 'description = ""'}, "description", "non-empty string"),
    ({'description = "test table"\n': ""}, "description", "is missing"),
    ({"[pays]": "straight_flush8 = 5000\n[pays]"}, "straight_flush8", "is not a known field"),
    (
        {"[pays]": "straight_flush_8 = 1000\n[pays]"},
        "straight_flush_8",
        "must exceed pays.8 (1000)",
    ),
    (
        {"[pays]": "straight_flush_8 = 50000\nstraight_flush_9 = 40000\n[pays]"},
        "straight_flush_9",
        "must exceed straight_flush_8 (50000)",
    ),
    (
        {"[pays]": "straight_flush_9 = 9000\n[pays]"},
        "straight_flush_9",
        "must exceed pays.9 (10000)",
    ),
    ({"4 = 3": "4 = 4"}, "pays", "gives the player an advantage"),
    (
        {"[pays]\n4 = 3\n5 = 8\n6 = 40\n7 = 150\n8 = 1000\n9 = 10000\n": "pays = 3\n"},
        "pays",
        "must be a table, got 3",
    ),
]


@pytest.mark.parametrize(("edits", "field", "problem"), BAD_BONUS)
def test_bad_bonus_tables_name_file_field_and_problem(tmp_path, edits, field, problem):
    body = GOOD_BONUS.format(name="bad")
    for old, new in edits.items():
        assert old in body
        body = body.replace(old, new)
    path = write(tmp_path / "bad.toml", body)
    with pytest.raises(PaytableError) as caught:
        nine_card_bonus.load_table(str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}: field '{field}': ")
    assert problem in message
    assert (caught.value.source, caught.value.field) == (str(path), field)


def test_the_name_must_match_the_file(tmp_path):
    path = write(tmp_path / "other.toml", GOOD_BONUS.format(name="house-test"))
    with pytest.raises(PaytableError, match=r"field 'name': must equal the file name 'other'"):
        nine_card_bonus.load_table(str(path))


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (b"name = \n", "is not valid TOML"),
        (b'name = "\xff"\n', "is not UTF-8 text"),
    ],
)
def test_unparsable_files_are_refused(tmp_path, raw, problem):
    path = tmp_path / "broken.toml"
    path.write_bytes(raw)
    with pytest.raises(PaytableError, match=re.escape(f"{path}: {problem}")):
        nine_card_bonus.load_table(str(path))


def test_missing_files_and_names_are_refused(tmp_path):
    with pytest.raises(PaytableError, match="cannot be read"):
        nine_card_bonus.load_table(str(tmp_path / "absent.toml"))
    with pytest.raises(PaytableError, match=r"no pay table named 'absent'.*3-8-40-150-1000-10000"):
        nine_card_bonus.load_table("absent")


def test_packaged_errors_name_the_file_relative_to_the_library():
    table = nine_card_bonus.load_table("3-8-40-150-1000-10000")
    assert table.source == "nine_card_bonus/3-8-40-150-1000-10000.toml"


def test_operator_directories_extend_the_library(tmp_path, monkeypatch):
    extra = tmp_path / "operator"
    bonus_file(extra / "nine_card_bonus", name="house-test")
    monkeypatch.setenv(PATH_VARIABLE, str(extra))
    assert "house-test" in nine_card_bonus.available()
    rules = turbo.load("turbo-football", {"nine_card_bonus": "house-test"})
    assert rules.nine_card_bonus is not None
    assert rules.nine_card_bonus.source == str(extra / "nine_card_bonus" / "house-test.toml")


def test_a_name_in_two_directories_is_ambiguous(tmp_path, monkeypatch):
    name = "3-8-40-150-1000-10000"
    extra = tmp_path / "operator"
    bonus_file(extra / "nine_card_bonus", name=name)
    monkeypatch.setenv(PATH_VARIABLE, str(extra))
    with pytest.raises(PaytableError, match="is ambiguous"):
        nine_card_bonus.load_table(name)
    assert (PACKAGED_DIR / "nine_card_bonus" / f"{name}.toml").is_file()


@pytest.mark.parametrize(
    ("value", "odds"),
    [(2, Fraction(2)), ("3:2", Fraction(3, 2)), ("3 to 2", Fraction(3, 2)), ("10:1", 10)],
)
def test_odds_are_read_as_integers_or_ratios(value, odds):
    assert FieldReader("f").odds(value, "x") == odds


@pytest.mark.parametrize("value", [0, -1, "0:1", "1:0", "3/2", "", True, 1.5, [1]])
def test_bad_odds_are_refused(value):
    with pytest.raises(PaytableError, match=r"^f: field 'x': must be"):
        FieldReader("f").odds(value, "x")


# --- editions -----------------------------------------------------------------------------


def test_every_shipped_edition_loads_and_its_default_bonus_table_exists():
    for edition_id in turbo.edition_ids():
        edition = turbo_edition.load_edition(edition_id)
        assert edition.id == edition_id
        assert nine_card_bonus.load_table(edition.nine_card_bonus_default)
        assert sum(w.mandatory for w in edition.wagers) == 1


def test_themes_name_their_rule_set_and_differ_in_suit():
    themes = [turbo_edition.load_edition(e) for e in turbo.edition_ids()]
    themes = [e for e in themes if e.based_on]
    assert len(themes) >= 2
    for theme in themes:
        base = turbo_edition.load_edition(theme.based_on)
        assert theme.suit != base.suit
        assert theme.icon != base.icon
        assert [w.id for w in theme.wagers] == [w.id for w in base.wagers]
        assert [w.label for w in theme.wagers] != [w.label for w in base.wagers]


FOOTBALL_TITLE = 'title = { en = "Turbo Football", es = "Turbo Fútbol Americano" }'
FOOTBALL_TIER = (
    '{ min_icons = 6, pays = "1:1", outcome = { en = "6+ {icons} in 9 cards", '
    'es = "6+ {icons} en 9 cartas" } },'
)
BAD_EDITIONS = [
    ({"suit": ('suit = "s"', 'suit = "x"')}, "suit", "must be one of 's', 'h', 'd', 'c'"),
    ({"id": ('id = "turbo-football"', 'id = "football"')}, "id", "must equal the file name"),
    (
        {"pays": (FOOTBALL_TIER, FOOTBALL_TIER.replace('"1:1"', '"0:1"'))},
        "wagers.first_down.paytables.standard.tiers[0].pays",
        "must be odds",
    ),
    (
        {"min": (FOOTBALL_TIER, FOOTBALL_TIER.replace("min_icons = 6", "min_icons = 27"))},
        "wagers.first_down.paytables.standard.tiers[0].min_icons",
        "between 1 and 26, got 27",
    ),
    (
        {"scope": ('scope = "community", pays', 'scope = "table", pays')},
        "wagers.first_down.paytables.standard.tiers[1].scope",
        "must be 'hand' or 'community'",
    ),
    (
        {"cmin": ('min_icons = 6, scope = "community"', 'min_icons = 13, scope = "community"')},
        "wagers.first_down.paytables.standard.tiers[1].min_icons",
        "between 1 and 12, got 13",
    ),
    (
        {"dominated": ('{ min_icons = 14, pays = "4:1"', '{ min_icons = 14, pays = "2:1"')},
        "wagers.long_pass.paytables.standard.tiers[1]",
        "is never paid: wagers.long_pass.paytables.standard.tiers[0] holds whenever it does",
    ),
    (
        {"mandatory": ('es = "Pase Largo" }', 'es = "Pase Largo" }\nmandatory = true')},
        "wagers",
        "exactly one wager must be mandatory",
    ),
    (
        {"placeholder": ('outcome = { en = "7+ {icons}"', 'outcome = { en = "7+ {balls}"')},
        "wagers.long_pass.paytables.standard.tiers[0].outcome.en",
        "unknown placeholder {balls}",
    ),
    (
        {"default": ('es = "TD" }\ndefault = "standard"', 'es = "TD" }\ndefault = "gold"')},
        "wagers.td.default",
        "names no pay table of td",
    ),
    (
        {"generous": ('{ min_icons = 9, pays = "5:1"', '{ min_icons = 9, pays = "6:1"')},
        "wagers.td.paytables.standard",
        "gives the player an advantage",
    ),
    (
        {
            "generous_main": (
                'scope = "community", pays = "3:2"',
                'scope = "community", pays = "9:1"',
            )
        },
        "wagers.first_down.paytables.standard",
        "gives the player an advantage",
    ),
    (
        {"raise": ("max_community_icons = 5", "max_community_icons = 13")},
        "raise.max_community_icons",
        "between 0 and 12, got 13",
    ),
    (
        {"unknown": ('suit = "s"', 'suit = "s"\ncolour = "green"')},
        "colour",
        "is not a known field",
    ),
    (
        {"title": (FOOTBALL_TITLE, "title = 7")},
        "title",
        "non-empty string, got 7",
    ),
    (
        {"mandatory_type": ("mandatory = true", 'mandatory = "yes"')},
        "wagers.first_down.mandatory",
        "must be true or false",
    ),
]


@pytest.mark.parametrize(("edit", "field", "problem"), BAD_EDITIONS, ids=lambda v: str(v)[:30])
def test_bad_editions_name_file_field_and_problem(tmp_path, edit, field, problem):
    ((old, new),) = edit.values()
    directory = edition_dir(tmp_path, {("turbo-football", old): new})
    assert_edition_refused(directory, field, problem)


THEME = """\
id = "turbo-curling"
title = "Turbo Curling"
based_on = "{base}"
suit = "h"
icon = "stone"
icons = "stones"
{extra}
"""


@pytest.mark.parametrize(
    ("base", "extra", "field", "problem"),
    [
        ("turbo-football", '[labels]\nbet_a = "Hack"', "labels.bet_a", "is not a wager of"),
        ("turbo-golf", "", "based_on", "no edition named 'turbo-golf'"),
        ("turbo-hockey", "", "based_on", "is itself a theme"),
        ("icon-v2", "[raise]\nlabel = 'Sweep'", "raise", "is not a known field"),
        ("icon-v2", '[labels]\nraise = ""', "labels.raise", "non-empty string"),
    ],
)
def test_bad_themes_are_refused(tmp_path, base, extra, field, problem):
    directory = edition_dir(tmp_path, extra={"turbo-curling": THEME.format(base=base, extra=extra)})
    with pytest.raises(PaytableError) as caught:
        turbo_edition.load_edition("turbo-curling", directory)
    assert str(caught.value).startswith(f"{directory / 'turbo-curling.toml'}: field '{field}': ")
    assert problem in str(caught.value)


def test_a_theme_file_alone_makes_a_new_edition(tmp_path):
    text = THEME.format(base="icon-v2", extra='top_award = "Button"\n[labels]\nbet_a = "Hack"')
    directory = edition_dir(tmp_path, extra={"turbo-curling": text})
    assert "turbo-curling" in turbo_edition.edition_ids(directory)
    curling = turbo_edition.load_edition("turbo-curling", directory)
    assert (curling.suit_name, curling.icons, curling.based_on) == ("hearts", "stones", "icon-v2")
    assert curling.main.label == "Hack"
    bet_b = curling.wager("bet_b")
    assert bet_b is not None
    assert bet_b.paytable("standard").tiers[1].outcome == "Button (14+ stones)"


ICON_TABLE = """\
name = "{name}"
description = "operator table"
tiers = [
    {{ min_icons = 7, pays = "2:1", outcome = "7-13 {{icons}}" }},
    {{ min_icons = 14, pays = "{top}", outcome = "{{top_award}}" }},
]
"""


def test_an_operator_icon_table_file_is_checked_and_used(tmp_path):
    path = write(tmp_path / "rich-z.toml", ICON_TABLE.format(name="rich-z", top="5:1"))
    rules = turbo.load("turbo-basketball", {"bet_b": str(path)})
    table = rules.paytables["bet_b"]
    assert (table.name, table.tiers[1].odds, table.tiers[1].outcome) == (
        "rich-z",
        Fraction(5),
        "Buzzer Beater",
    )
    generous = write(tmp_path / "gift.toml", ICON_TABLE.format(name="gift", top="99:1"))
    with pytest.raises(PaytableError, match=rf"^{re.escape(str(generous))}: field 'tiers': gives"):
        turbo.load("icon-v2", {"bet_b": str(generous)})
    misnamed = write(tmp_path / "other.toml", ICON_TABLE.format(name="rich-z", top="5:1"))
    with pytest.raises(PaytableError, match="field 'name': must equal the file name 'other'"):
        turbo.load("icon-v2", {"bet_b": str(misnamed)})
