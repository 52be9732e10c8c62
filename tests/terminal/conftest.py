"""Fixtures: a terminal runtime on a temporary directory with in-process devices.

Most tests use the production RNG deck.  Tests that need a particular hand use
:class:`ScriptedDeck`, which deals the cards the test names (then the rest of the deck in order):
the RNG has its own tests; these pin what the terminal does with given cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.terminal.core.config import TerminalConfig
from tests.helpers.terminal_rig import Rig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path / "terminal")
    yield r
    r.runtime.close()


@pytest.fixture
def make_rig(tmp_path: Path) -> Iterator[Callable[..., Rig]]:
    made: list[Rig] = []

    def make(config: TerminalConfig | None = None, name: str = "t") -> Rig:
        r = Rig(tmp_path / name, config)
        made.append(r)
        return r

    yield make
    for r in made:
        r.runtime.close()
