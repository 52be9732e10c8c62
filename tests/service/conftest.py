"""Fixtures: a terminal (fake clock, scripted cards) with a service session over it.

PIN hashing uses cheap scrypt parameters here (the lock-out and gate tests check many PINs);
tests/service/test_access.py runs the production parameters too.  House edges are computed once
per test run into a cache that every terminal's service directory starts from.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.service.functions.house_edge import HouseEdges, wager_tables
from tests.helpers.service_rig import ServiceRig


@pytest.fixture(scope="session")
def edge_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """House edges of the default configuration's pay tables, computed once."""
    path = tmp_path_factory.mktemp("edges") / "house-edges.json"
    edges = HouseEdges(path)
    for ed in TerminalConfig().editions:
        for spec in wager_tables(ed.edition):
            edges.edge(ed.edition, spec.wager, spec.default)
    return path


@pytest.fixture
def make_srig(tmp_path: Path, edge_cache: Path) -> Iterator[Callable[..., ServiceRig]]:
    made: list[ServiceRig] = []

    def make(config: TerminalConfig | None = None, name: str = "t") -> ServiceRig:
        service_dir = tmp_path / name / "service"
        service_dir.mkdir(parents=True)
        shutil.copy(edge_cache, service_dir / "house-edges.json")
        r = ServiceRig(tmp_path / name, config)
        r.set_up_pins()
        made.append(r)
        return r

    yield make
    for r in made:
        r.runtime.close()


@pytest.fixture
def srig(make_srig: Callable[..., ServiceRig]) -> ServiceRig:
    return make_srig()
