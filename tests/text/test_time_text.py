"""Time to text, written once (decision 0045): every reader of a moment uses
kiosk.kernel.time_text."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime

import pytest

from kiosk.kernel import time_text

MOMENT_MS = 1_764_340_245_000  # 2025-11-28 14:30:45 UTC


@pytest.fixture(autouse=True)
def _utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_moment_reads_in_each_form() -> None:
    assert time_text.local_time(MOMENT_MS) == "2025-11-28T14:30:45+00:00"
    assert time_text.clock_time(MOMENT_MS) == "14:30:45"
    assert time_text.local_stamp(MOMENT_MS) == "2025-11-28 14:30:45"


def test_a_moment_that_never_came_reads_as_a_dash() -> None:
    assert time_text.local_stamp(0) == "-"


def test_the_forms_agree_on_the_same_moment() -> None:
    stamp = datetime.fromisoformat(time_text.local_time(MOMENT_MS))
    assert stamp.strftime("%Y-%m-%d %H:%M:%S") == time_text.local_stamp(MOMENT_MS)
    assert stamp.strftime("%H:%M:%S") == time_text.clock_time(MOMENT_MS)
