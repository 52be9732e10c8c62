"""Money to text, written once (decision 0045): vectors as data, and every place that shows an
amount giving the vector's text (the meter reconciliation and `turbokiosk host` printed
-250 cents as ``$-3.50`` before)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from kiosk.host.web.charts import Bar, bar_chart
from kiosk.kernel import money_text
from kiosk.terminal.core.meters import Meters
from kiosk.terminal.core.tilts import TiltCode
from kiosk.terminal.devices.money_record import Figure, FigureBaseline, MoneyRecord, Tally
from kiosk.terminal.presentation import i18n, money
from kiosk.terminal.runtime.reconcile import Disagrees, judge

VECTORS: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).with_name("money_vectors.toml")).read_text(encoding="utf-8")
)["vector"]


def _id(vector: dict[str, Any]) -> str:
    return str(vector["cents"])


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_cents_read_as_the_vector_says(vector: dict[str, Any]) -> None:
    assert money_text.dollars(vector["cents"]) == vector["text"]
    assert money_text.signed_dollars(vector["cents"]) == vector["signed"]


def test_the_vectors_cover_negatives_zero_and_large_amounts() -> None:
    cents = [v["cents"] for v in VECTORS]
    assert 0 in cents and min(cents) < 0 and max(cents) >= 100_000_000


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_screen_shows_the_same_text_in_every_language(language: str) -> None:
    # the screen's money text takes no language: an amount reads alike in English and Spanish
    i18n.check_language(language)
    assert money.dollars is money_text.dollars
    assert money.signed_dollars is money_text.signed_dollars


def test_a_negative_device_movement_reads_minus_dollars_in_the_reconciliation() -> None:
    # the validator's counter went back by a $2.50 note since pairing: the dispute's reason
    record = MoneyRecord(
        source="validator",
        device="bill validator",
        tilt=TiltCode.BILL_VALIDATOR_RECONCILE,
        figures=(Figure("notes", "bills_in", Tally(0, 0)),),
        baseline=(FigureBaseline(Tally(0, 0), Tally(1, 250)),),
    )
    verdict = judge(Meters(), record)
    assert isinstance(verdict, Disagrees)
    assert "-1 notes (-$2.50)" in verdict.reason
    assert "$-" not in verdict.reason


def test_a_negative_bar_reads_minus_dollars_on_the_dashboard() -> None:
    svg = str(bar_chart("net", [Bar("14h", -250), Bar("15h", 1000)], "net"))
    assert "-$2.50" in svg and "$-" not in svg
