"""docs/math.md states the exact figures the code computes for every Turbo edition and table."""

from pathlib import Path

import pytest

from kiosk.kernel.analysis import turbo_par
from kiosk.kernel.games import nine_card_bonus, turbo

MATH = Path(__file__).resolve().parents[2] / "docs" / "math.md"


@pytest.fixture(scope="module")
def text() -> str:
    return MATH.read_text(encoding="utf-8")


def test_every_turbo_edition_has_a_section(text):
    for edition_id in turbo.edition_ids():
        assert f"(`{edition_id}`)\n" in text, edition_id


@pytest.mark.parametrize("choices", [{}, {"bet_b": "flat"}])
@pytest.mark.parametrize("edition_id", ["turbo-football", "icon-v2"])
def test_every_wager_edge_is_in_the_document(text, edition_id, choices):
    sheet = turbo_par.par_sheet(edition_id, choices if edition_id == "icon-v2" else {})
    for wager in sheet.wagers.values():
        for figure in (wager.house_edge, wager.element_of_risk, wager.hit_frequency):
            assert f"`{figure}`" in text, (edition_id, wager.wager_id, figure)


def test_every_bonus_table_and_its_edge_is_in_the_document(text):
    for name in nine_card_bonus.available():
        edge = nine_card_bonus.load_table(name).house_edge()
        assert f"| `{name}` |" in text
        assert f"`{edge}`" in text, name
