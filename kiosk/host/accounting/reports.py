"""What the host writes, shared by the database and the modules it writes with (the registry, the
stores, the device counts, the plausibility checks, the group commit): a leaf, so that those
modules name them without importing :mod:`kiosk.host.accounting.db` (decision 0050).

:class:`Tx` is what they need of a transaction; :class:`kiosk.host.accounting.db.HostDb` hands them
its own (``_Tx``), which satisfies it on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from kiosk.terminal.hostlink.anchor import JournalHead


@dataclass(frozen=True)
class Message:
    """One store-and-forward message as the host records it."""

    message_id: str
    journal_seq: int
    at_ms: int
    kind: str  # an event kind, or "meters"
    body: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Report:
    """One terminal's batch, as a group commit records it (:meth:`HostDb.record_reports`)."""

    terminal_id: str
    messages: Sequence[Message]
    at: int
    head: JournalHead | None = None


class Cursor(Protocol):
    """What a statement returns."""

    rowcount: int

    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...


class Tx(Protocol):
    """A transaction: ``execute`` with ``?`` placeholders on either back end."""

    #: alarms announced once the transaction has committed
    alarms: list[str]
    #: on PostgreSQL (else SQLite): a round trip per statement
    postgres: bool

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    def pipeline(self) -> AbstractContextManager[Any]: ...
