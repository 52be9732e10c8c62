"""Benchmark of a Turbo par sheet from cold caches (the goal: under 2 s per edition on the
2-core target), beside the independent brute-force derivation of the mandatory wager as the
baseline measured in the same run.  Run with ``tox -e bench`` or
``pytest -m bench --benchmark-enable --benchmark-only tests/analysis/test_turbo_bench.py``;
pytest-benchmark prints the ratio of each to the fastest in the group.
"""

from typing import Any

import pytest

from kiosk.kernel.analysis import turbo_par
from kiosk.kernel.games import icon_odds, nine_card_bonus, turbo_edition
from tests.helpers.brute_force import brute_mandatory

pytestmark = pytest.mark.bench

CACHED = (
    icon_odds.hand_icon_counts,
    icon_odds.seat_icon_counts,
    icon_odds.community_classes,
    nine_card_bonus.hand_classes,
    turbo_edition.load_edition,
    turbo_edition.raise_ev,
    turbo_edition._raw,
    brute_mandatory,
)


def cold() -> None:
    for function in CACHED:
        function.cache_clear()


@pytest.mark.parametrize("edition_id", ["turbo-football", "icon-v2", "turbo-hockey"])
def test_par_sheet_from_cold_caches(benchmark: Any, edition_id: str) -> None:
    benchmark.group = "turbo par sheet (cold caches)"
    sheet = benchmark.pedantic(turbo_par.par_sheet, args=(edition_id,), setup=cold, rounds=5)
    assert sheet.edition == edition_id


def test_baseline_brute_force_mandatory_wager(benchmark: Any) -> None:
    benchmark.group = "turbo par sheet (cold caches)"
    benchmark.pedantic(brute_mandatory, args=(True,), setup=cold, rounds=3)
