"""A tiny campaign that ``tests/test_campaign_progress.py`` runs in a pytest of its own (not
collected by the suite: its name is not ``test_*``)."""

from __future__ import annotations

import time

from tests.helpers.campaign_progress import campaign_progress


def test_a_campaign() -> None:
    with campaign_progress("tiny campaign", 3, "kills", every=0.0) as progress:
        for _ in range(3):
            time.sleep(0.01)
            progress.advance()
    print("captured output stays captured")
