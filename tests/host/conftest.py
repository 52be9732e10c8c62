"""Fixtures: a PKI, a reference host on loopback and terminals wired to it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.host.accounting.db import HostDb, SqliteHostDb
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.hostlink.wiring import HostEndpoint
from tests.helpers.host_rig import HostRig, Pki, TerminalRig, records_factory


@pytest.fixture(scope="session")
def pki_set(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture
def host(tmp_path: Path, pki_set: Pki) -> Iterator[HostRig]:
    rig = HostRig(pki_set, lambda: SqliteHostDb(tmp_path / "host.sqlite3"))
    yield rig
    rig.stop()


@pytest.fixture
def make_terminal(tmp_path: Path) -> Iterator[Callable[..., TerminalRig]]:
    made: list[TerminalRig] = []

    def make(
        endpoint: HostEndpoint, name: str | None = None, config: TerminalConfig | None = None
    ) -> TerminalRig:
        rig = TerminalRig(tmp_path / (name or endpoint.terminal_id), endpoint, config)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def host_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[HostDb]:
    """The host's records on each back end."""
    from kiosk.host.accounting.db import PostgresHostDb

    if request.param == "sqlite":
        db: HostDb = SqliteHostDb(tmp_path / "host.sqlite3")
    else:
        server = request.getfixturevalue("postgres_server")
        db = PostgresHostDb(server.new_database())
    yield db
    db.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def host_on(request: pytest.FixtureRequest, tmp_path: Path, pki_set: Pki) -> Iterator[HostRig]:
    """A host server over mutual TLS with its records on each back end."""
    rig = HostRig(pki_set, records_factory(request, tmp_path))
    yield rig
    rig.stop()
