"""docs/math.md states the exact figures the code computes for Stadium Three Card Poker."""

from pathlib import Path

import pytest

from kiosk.kernel.analysis import stadium_par
from kiosk.kernel.analysis.stadium_counts import best_five_counts
from kiosk.kernel.games.paytable import PACKAGED_DIR
from kiosk.kernel.games.stadium_paytables import load_table

MATH = Path(__file__).resolve().parents[2] / "docs" / "math.md"
SHIPPED = sorted((p.parent.name, p.stem) for p in (PACKAGED_DIR / "stadium").glob("*/*.toml"))


@pytest.fixture(scope="module")
def text() -> str:
    return MATH.read_text(encoding="utf-8")


def test_the_stadium_sections_exist(text):
    assert "### Stadium Three Card Poker\n" in text
    assert "## Stadium Three Card Poker (`stadium-3cp`)\n" in text
    for wager in ("ante_play", "pairs_plus", "six_card_bonus"):
        assert f"(`{wager}`)\n" in text


@pytest.mark.parametrize(("wager", "name"), SHIPPED)
def test_every_shipped_table_and_its_exact_figures_are_in_the_document(text, wager, name):
    table = load_table(wager, name)
    if wager == "ante_play":
        par = stadium_par.ante_play_par(table)
    else:
        par = stadium_par.side_wager_par(table)
    rows = [line for line in text.splitlines() if line.startswith(f"| `{name}` |")]
    expected = (
        f"| {float(par.house_edge):.4%} | `{par.house_edge}` |",
        f"| {float(par.hit_frequency):.4%} | {par.std_dev:.6f} |",
    )
    assert any(all(part in row for part in expected) for row in rows), (name, expected)


def test_the_default_tables_figures_are_in_the_document(text):
    sheet = stadium_par.par_sheet({}, full_information_deals=10)
    for wager in sheet.wagers.values():
        for figure in (wager.house_edge, wager.element_of_risk, wager.hit_frequency):
            assert f"`{figure}`" in text, (wager.wager_id, figure)
        assert f"variance `{wager.variance}`" in text
        for line in wager.outcomes:
            assert f"| {line.outcome} |" in text
            assert f"| {line.combinations:,} |" in text


def test_the_six_card_counts_are_in_the_document(text):
    for n in best_five_counts(6).values():
        assert f"| {n:,} |" in text
