"""The table tamper campaign (:mod:`tests.table.campaign`): the full one under ``tox -e
table-campaign`` (``TABLE_CAMPAIGN_ROUNDS`` rounds, default 100, with 4 seat processes), a
small one (a few rounds, 2 seats) in the default run so that it cannot rot."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.table.campaign import RUNTIME, run_campaign
from tests.table.tamper import TAMPERS


def _check(report_rounds: int, rounds: int, detected: dict[str, int]) -> None:
    assert report_rounds >= rounds
    assert {t.name for t in TAMPERS} <= set(detected), detected
    assert set(RUNTIME) <= set(detected), detected
    assert "replaced by an older copy" in detected, detected


def test_a_few_rounds_every_tamper_refused_and_the_seats_reconcile(tmp_path: Path) -> None:
    report = run_campaign(tmp_path, rounds=3, seats=2, pause=(0.4, 1.0), serve_process=False)
    _check(report.rounds, 3, report.detected)
    assert report.books is not None and report.books.settled_seat_rounds > 0
    assert "audit passed" in report.audit


@pytest.mark.table_campaign
@pytest.mark.timeout(4 * 3600)  # the campaign, not the default run's 300 s per test
def test_table_tamper_campaign(tmp_path: Path) -> None:
    rounds = int(os.environ.get("TABLE_CAMPAIGN_ROUNDS", "100"))
    report = run_campaign(tmp_path, rounds=rounds, seats=4)
    _check(report.rounds, rounds, report.detected)
    assert report.books is not None
    print(f"\ntable tamper campaign: {report.rounds} rounds, tampers {dict(report.detected)}")
    print(f"books {report.books}\n{report.audit}")
