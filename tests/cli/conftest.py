"""Fixtures: a text-play session on a terminal with scripted cards and a clock the test moves,
and a runner for ``turbokiosk`` as a separate process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.play_session import Player


@pytest.fixture
def player(tmp_path: Path) -> Iterator[Player]:
    p = Player(tmp_path / "terminal")
    p.start()
    yield p
    p.close()
