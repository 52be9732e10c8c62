"""Fixtures shared by several test directories: the PostgreSQL server (host and dashboard)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[object]:
    from tests.helpers.postgres import PostgresServer, binaries

    if binaries() is None:
        pytest.skip("PostgreSQL server binaries not installed (Debian package postgresql)")
    server = PostgresServer()
    yield server
    server.stop()
