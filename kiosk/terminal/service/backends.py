"""The terminal as the service menu sees it: in this process, or read-only from another.

- :class:`InProcessTerminal`: this process is the terminal (the touchscreen app, or ``turbokiosk
  service`` on a stopped terminal's data directory, holding its lock).  Commands go through
  :meth:`TerminalRuntime.execute` with the audit record, in one transaction.
- :class:`ReadOnlyTerminal`: another process is the terminal (it holds the data directory's
  lock), or a read-only look was asked for.  The state is read as recovery would rebuild it;
  no command can be sent (:class:`ReadOnlyError`).  Audit records are still appended, in their
  own short SQLite transactions, which SQLite serialises with the terminal's own writes; the
  journal itself is never touched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any, Protocol

from kiosk.kernel.clock import wall_clock_ms
from kiosk.terminal.core import commands as c
from kiosk.terminal.core import events as e
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.runtime.terminal import TerminalRuntime
from kiosk.terminal.signer.client import signer_for
from kiosk.terminal.store.critmem import StoreSigner
from kiosk.terminal.store.journal import DB_NAME, Journal, Projections, StoreError
from kiosk.terminal.store.lock import TerminalBusyError, TerminalLock
from kiosk.terminal.store.reader import current_state, open_readonly
from rng import Csprng

#: makes the audit record once the command's events are applied (see TerminalRuntime.execute)
AuditMaker = Callable[[], dict[str, Any]]


class ReadOnlyError(Exception):
    """The service session cannot change this terminal (another process runs it)."""


class ServiceTerminal(Protocol):
    """What the service functions need of a terminal."""

    data_dir: Path
    read_only: str | None  # why the terminal cannot be changed from here, or None
    validator: object | None  # the terminal's bill validator, when this process drives it
    printer: object | None
    rng: Csprng | None

    def state(self) -> TerminalState:
        """The terminal's state now."""
        ...

    def reading(self) -> AbstractContextManager[Journal]:
        """The store, for reading records (recall, event log, outbox, audit log)."""
        ...

    def execute(self, command: c.Command, audit: AuditMaker) -> list[e.Event]:
        """Carry out a command with its audit record (ReadOnlyError when read-only)."""
        ...

    def append_audit(self, record: dict[str, Any]) -> None:
        """Append an audit record of an action that sent no command."""
        ...

    def execute_pin(self, command: c.Command, audit: AuditMaker | None) -> list[e.Event]:
        """Journal a PIN command (ReadOnlyError when another process is the terminal)."""
        ...

    def host_status(self) -> Mapping[str, Any] | None:
        """The accounting-host link's status and counters, when known here."""
        ...

    def ram_clear(self, by: str, reason: str) -> e.RamCleared:
        """The operator's RAM clear (ReadOnlyError when read-only)."""
        ...


class InProcessTerminal:
    """The terminal this process runs."""

    read_only: str | None = None

    def __init__(
        self,
        runtime: TerminalRuntime,
        *,
        validator: object | None = None,
        printer: object | None = None,
        rng: Csprng | None = None,
        host_status: Callable[[], Mapping[str, Any]] | None = None,
    ) -> None:
        self.runtime = runtime
        self.data_dir = runtime.data_dir
        self.validator = validator
        self.printer = printer
        self.rng = rng
        self._host_status = host_status
        #: audit records held in memory while the store takes no writes (it failed its
        #: verification): they go into the new store with the RAM clear
        self.held_audit: list[dict[str, Any]] = []

    def state(self) -> TerminalState:
        """The runtime's state."""
        return self.runtime.state

    def _sealed(self) -> bool:
        return self.runtime.journal.sealed is not None

    def reading(self) -> AbstractContextManager[Journal]:
        """The runtime's own journal (same thread, nothing in flight between steps)."""
        return nullcontext(self.runtime.journal)

    def execute(self, command: c.Command, audit: AuditMaker) -> list[e.Event]:
        """Through the runtime: journal (with the audit record), then effects.

        While the store takes no writes (critical memory: it failed its verification) only
        the service key works: service mode is entered and left in memory and the records
        are held for the new store of the RAM clear.
        """
        if self._sealed() and isinstance(command, c.SetService):
            core = self.runtime.core
            events = core.handle(command, self.runtime.clock())
            core.apply(events)
            self.held_audit.append(audit())
            return events
        return self.runtime.execute(command, audit=audit)

    def append_audit(self, record: dict[str, Any]) -> None:
        """A commit of no events with the record (held while the store takes no writes)."""
        if self._sealed():
            self.held_audit.append(record)
            return
        self.runtime.journal.commit([], Projections(audit=(record,)))

    def execute_pin(self, command: c.Command, audit: AuditMaker | None) -> list[e.Event]:
        """Like any command: through the runtime."""
        return self.runtime.execute(command, audit=audit)

    def ram_clear(self, by: str, reason: str) -> e.RamCleared:
        """A new store, the held audit records in its first commit; service mode kept."""
        role = self.runtime.state.service_role
        held, self.held_audit = tuple(self.held_audit), []
        event = self.runtime.ram_clear(by=by, reason=reason, audit=held)
        if role is not None:
            self.runtime.execute(c.SetService(active=True, role=role))
        return event

    def host_status(self) -> Mapping[str, Any] | None:
        """From the host link, when one was given."""
        return None if self._host_status is None else self._host_status()


class ReadOnlyTerminal:
    """A terminal's data directory read from outside the terminal's process."""

    validator: object | None = None
    printer: object | None = None
    rng: Csprng | None = None

    def __init__(
        self, data_dir: Path, reason: str, *, clock: Callable[[], int] = wall_clock_ms
    ) -> None:
        self.data_dir = Path(data_dir)
        self._clock = clock
        if not (self.data_dir / DB_NAME).exists():
            raise StoreError(f"no terminal data in {data_dir} (missing {DB_NAME})")
        self.read_only: str | None = reason
        self._after: TerminalState | None = None  # the state a PIN command's audit sees

    def state(self) -> TerminalState:
        """As recovery would rebuild it from the store now."""
        if self._after is not None:
            return self._after
        with open_readonly(self.data_dir) as journal:
            return current_state(journal).state

    def execute_pin(self, command: c.Command, audit: AuditMaker | None) -> list[e.Event]:
        """Journal a PIN command on a stopped terminal, holding its lock meanwhile.

        Only PIN commands (a PIN check's outcome, a new PIN) are written this way: the terminal
        is not powered up.  ReadOnlyError when another process is the terminal.
        """
        if not isinstance(command, c.RecordPinEntry | c.SetPin):
            raise ReadOnlyError(self.read_only or "read-only")
        if TerminalLock.held_here(self.data_dir):  # this process runs it: never a second writer
            raise ReadOnlyError(self.read_only or "read-only")
        try:
            lock = TerminalLock.acquire(self.data_dir)
        except TerminalBusyError as exc:
            raise ReadOnlyError(str(exc)) from None
        try:
            with self._writer() as journal:
                _sign_with_the_terminals_signer(journal, self.data_dir)
                core = TerminalCore(current_state(journal).state)
                events = core.handle(command, self._clock())
                core.apply(events)
                self._after = core.state
                try:
                    record = None if audit is None else audit()
                finally:
                    self._after = None
                if events or record is not None:
                    journal.commit(events, Projections(audit=() if record is None else (record,)))
                return events
        finally:
            lock.release()

    def reading(self) -> AbstractContextManager[Journal]:
        """A read-only connection inside one read transaction."""
        return open_readonly(self.data_dir)

    def execute(self, command: c.Command, audit: AuditMaker) -> list[e.Event]:
        """Refused: another process is the terminal."""
        raise ReadOnlyError(self.read_only or "read-only")

    def append_audit(self, record: dict[str, Any]) -> None:
        """In a short transaction of its own (SQLite serialises it with the terminal's)."""
        with self._writer() as journal:
            journal.commit([], Projections(audit=(record,)))

    def host_status(self) -> Mapping[str, Any] | None:
        """Unknown here: the link lives in the terminal's process."""
        return None

    def ram_clear(self, by: str, reason: str) -> e.RamCleared:
        """Refused: another process is the terminal."""
        raise ReadOnlyError(self.read_only or "read-only")

    @contextmanager
    def _writer(self) -> Iterator[Journal]:
        journal = Journal(self.data_dir)
        try:
            yield journal
        finally:
            journal.close()


def _sign_with_the_terminals_signer(journal: Journal, data_dir: Path) -> None:
    """A stopped terminal's PIN events are signed like every commit
    (kiosk/terminal/store/critmem.py): by the terminal's signer, in the store's epoch; a store of
    the previous release (no epoch yet) is written as it is and adopted, signed, at the next
    power-up."""
    epoch = journal.epoch()
    if epoch is not None:
        journal.signer = StoreSigner(signer_for(data_dir, create=False), epoch)
