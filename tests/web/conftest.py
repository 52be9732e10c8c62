"""The PostgreSQL server of the host's tests, for the dashboard's tables on that back end."""

from tests.host.conftest import postgres_server

__all__ = ["postgres_server"]
