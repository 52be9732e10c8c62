"""Player-visible texts of the data files by language: the shipped files are complete in
Spanish, bad translations are refused naming the file and the field, and a text without a
translation stays English."""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from kiosk.kernel.games import turbo, turbo_edition
from kiosk.kernel.games.paytable import LANGUAGES, FieldReader, Glossary, PaytableError
from kiosk.kernel.games.turbo_edition import EDITIONS_DIR, Edition
from kiosk.terminal.presentation import i18n
from tests.helpers.editions import assert_edition_refused, edition_dir, write


def visible_texts(edition: Edition) -> list[str]:
    """Every English text of an edition a player can see: names, labels and every outcome."""
    texts = [edition.title, edition.icon, edition.icons, edition.top_award]
    texts += [edition.raise_rule.label, edition.nine_card_bonus_label]
    tables = [edition.raise_rule.paytable]
    for wager in edition.wagers:
        texts.append(wager.label)
        tables += wager.paytables
    texts += [tier.outcome for table in tables for tier in table.tiers]
    return texts


@pytest.mark.parametrize("edition_id", turbo.edition_ids())
def test_every_shipped_edition_declares_and_has_spanish_for_every_visible_text(edition_id):
    raw = tomllib.loads((EDITIONS_DIR / f"{edition_id}.toml").read_text(encoding="utf-8"))
    assert raw.get("languages") == ["es"], "a shipped edition must declare its Spanish complete"
    edition = turbo_edition.load_edition(edition_id)
    spanish = edition.translations["es"]
    missing = [text for text in visible_texts(edition) if text not in spanish]
    assert missing == []


def test_the_data_files_and_the_screens_offer_the_same_languages():
    assert LANGUAGES == i18n.LANGUAGES == tuple(i18n.CATALOGUES)


def test_outcome_placeholders_take_the_words_of_their_language():
    hockey = turbo_edition.load_edition("turbo-hockey")
    assert hockey.translations["es"]["Hat Trick (14+ pucks)"] == "Triplete (14+ discos)"
    assert hockey.translations["es"]["Face-Off"] == "Saque Neutral"
    football = turbo_edition.load_edition("turbo-football")
    tier = football.main.paytable("standard").tiers[1]
    assert tier.outcome == "6+ footballs in the 3 community cards"
    assert football.translations["es"][tier.outcome] == "6+ balones en las 3 cartas comunes"


TITLE = 'title = { en = "Turbo Football", es = "Turbo Fútbol Americano" }'
LONG_PASS = 'label = { en = "Long Pass", es = "Pase Largo" }'


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        (
            TITLE,
            'title = { en = "Turbo Football", fr = "Football Turbo" }',
            "title.fr",
            "'fr' is not a language of the terminal (offered: en, es)",
        ),
        (
            TITLE,
            'title = "Turbo Football"',
            "title",
            "has no 'es' text, yet the file declares its 'es' texts complete "
            '(languages = ["es"])',
        ),
        (
            LONG_PASS,
            'label = { es = "Pase Largo" }',
            "wagers.long_pass.label",
            "needs its English text 'en'",
        ),
        (
            LONG_PASS,
            'label = { en = "Long Pass", es = "" }',
            "wagers.long_pass.label.es",
            "must be a non-empty string",
        ),
        (
            'languages = ["es"]',
            'languages = ["es", "de"]',
            "languages",
            "'de' is not a language the terminal translates to (offered: es)",
        ),
        (
            'es = "7+ {icons}" }',
            'es = "{goles}" }',
            "wagers.long_pass.paytables.standard.tiers[0].outcome.es",
            "unknown placeholder {goles}",
        ),
        (
            'es = "9+ {icons}" }',
            'es = "9 o más {icons}" }',
            "wagers.td.paytables.standard.tiers[0].outcome.es",
            "",
        ),
        (
            'es = "Gol de Campo" }',
            'es = "Pase Largo" }',
            "",
            "",
        ),
        (
            LONG_PASS,
            'label = { en = "Field Goal", es = "Pase Largo" }',
            "wagers.field_goal.label.es",
            "translates 'Field Goal' as 'Gol de Campo', but the file already translates it as "
            "'Pase Largo'",
        ),
    ],
)
def test_bad_translations_name_the_file_and_the_field(tmp_path, old, new, field, problem):
    directory = edition_dir(tmp_path, {("turbo-football", old): new})
    if not field:  # two texts may share a translation: only one text, two translations is bad
        turbo_edition.load_edition("turbo-football", directory)
        return
    if not problem:  # a different wording is fine as long as it is the only one
        edition = turbo_edition.load_edition("turbo-football", directory)
        assert edition.translations["es"]["9+ footballs"] == "9 o más balones"
        return
    assert_edition_refused(directory, field, problem)


THEME = """\
id = "turbo-curling"
title = "Turbo Curling"
based_on = "icon-v2"
suit = "h"
icon = "stone"
icons = "stones"
{extra}
[labels]
bet_a = {label}
"""


def test_a_theme_without_translations_loads_and_keeps_its_english(tmp_path):
    text = THEME.format(extra="", label='"Hack"')
    directory = edition_dir(tmp_path, extra={"turbo-curling": text})
    curling = turbo_edition.load_edition("turbo-curling", directory)
    spanish = curling.translations["es"]
    assert "Turbo Curling" not in spanish and "Hack" not in spanish and "stones" not in spanish
    # the base's own Spanish stays: its outcomes read in Spanish with the theme's English word
    assert spanish["7-13 stones"] == "7-13 stones"
    assert spanish["7+ Icons"] == "7+ Iconos"


def test_a_theme_that_declares_spanish_must_give_it(tmp_path):
    text = THEME.format(extra='languages = ["es"]', label='{ en = "Hack", es = "Hack" }')
    directory = edition_dir(tmp_path, extra={"turbo-curling": text})
    with pytest.raises(PaytableError, match=r"turbo-curling.toml: field 'icon': has no 'es'"):
        turbo_edition.load_edition("turbo-curling", directory)
    text = THEME.format(extra="", label='{ en = "Hack", es = "Barrido" }')
    directory = edition_dir(tmp_path / "b", extra={"turbo-curling": text})
    curling = turbo_edition.load_edition("turbo-curling", directory)
    assert curling.main.label == "Hack" and curling.translations["es"]["Hack"] == "Barrido"


OPERATOR_TABLE = """\
name = "{name}"
description = "operator table"
{extra}
tiers = [
    {{ min_icons = 7, pays = "2:1", outcome = {seven} }},
    {{ min_icons = 14, pays = "4:1", outcome = "{{top_award}} (14+ {{icons}})" }},
]
"""


def test_an_operator_table_without_translations_loads_and_shows_english(tmp_path):
    seven = '"Seven or more {icons}"'
    path = write(
        tmp_path / "house.toml", OPERATOR_TABLE.format(name="house", extra="", seven=seven)
    )
    rules = turbo.load("turbo-football", {"long_pass": str(path)})
    table = rules.paytables["long_pass"]
    assert table.tiers[0].outcome == "Seven or more footballs"
    assert "Seven or more footballs" not in table.translations.get("es", {})


def test_an_operator_table_may_carry_its_spanish_with_the_edition_words(tmp_path):
    seven = '{ en = "Seven or more {icons}", es = "Siete o más {icons}" }'
    text = OPERATOR_TABLE.format(name="house", extra='languages = ["es"]', seven=seven)
    path = write(tmp_path / "house.toml", text)
    with pytest.raises(PaytableError, match=r"field 'tiers\[1\]\.outcome': has no 'es' text"):
        turbo.load("turbo-hockey", {"long_pass": str(path)})
    path.write_text(text.replace('languages = ["es"]', ""), encoding="utf-8")
    table = turbo.load("turbo-hockey", {"long_pass": str(path)}).paytables["long_pass"]
    assert table.translations["es"] == {"Seven or more pucks": "Siete o más discos"}


def test_the_reader_accepts_plain_english_and_tables_by_language():
    read = FieldReader("f.toml")
    assert read.words("Bet A", "label") == {"en": "Bet A"}
    assert read.words({"en": "Bet A", "es": "Apuesta A"}, "x") == {"en": "Bet A", "es": "Apuesta A"}
    with pytest.raises(PaytableError, match=re.escape("f.toml: field 'x': must be a non-empty")):
        read.words(["Bet A"], "x")
    complete = read.declared({"languages": ["es"]})
    assert complete.complete == ("es",)
    with pytest.raises(PaytableError, match="field 'x': has no 'es' text"):
        complete.words("Bet A", "x")
    with pytest.raises(PaytableError, match="field 'languages': must be an array"):
        read.declared({"languages": "es"})
    glossary = Glossary(read)
    assert glossary.add({"en": "Win", "es": "Gana"}, "a") == "Win"
    glossary.add({"en": "Win"}, "b")  # no translation here: the other one stands
    assert glossary.translations() == {"es": {"Win": "Gana"}}


def test_shipped_editions_load_unchanged_in_rules_and_pays(tmp_path):
    """Translations are words only: the rules a copy without them loads are the same rules."""
    for path in EDITIONS_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r'\{ en = ("[^"]*"), es = "[^"]*" \}', r"\1", text)
        text = text.replace('languages = ["es"]\n', "")
        write(tmp_path / path.name, text)
    for edition_id in turbo.edition_ids():
        plain = turbo_edition.load_edition(edition_id, Path(tmp_path))
        shipped = turbo_edition.load_edition(edition_id)
        assert plain.translations == {}
        assert replace(plain, source=shipped.source) == shipped  # words take no part
        assert plain.wagers == shipped.wagers and plain.raise_rule == shipped.raise_rule
