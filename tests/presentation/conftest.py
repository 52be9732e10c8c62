"""Fixtures: a terminal with a scripted deck and a player session on it (no Kivy)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.presentation_table import Table


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.rt.close()
