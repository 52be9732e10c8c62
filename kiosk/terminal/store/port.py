"""What the terminal runtime needs of its store: the :class:`RuntimeJournal` protocol.

The runtime does not build its store: the builder (:func:`kiosk.terminal.app.wiring.build_terminal`)
gives it a :data:`JournalOpener`, which the runtime calls once (an opening failure is a lockup
shown at power-up, not a crash).  Two stores keep the protocol:

- :class:`kiosk.terminal.store.journal.Journal`, the product's SQLite file (WAL, fsync, the signer);
- :class:`kiosk.terminal.store.memory.MemoryJournal`, the same hash chain in memory, for pure tests.

Only what a running terminal does goes through it (power-up by :func:`power_up`, commits,
the escrow memory, the host's anchor head).  What works on the SQLite file itself (the RAM
clear, the service audit log, the host link's reader) asks for
:attr:`TerminalRuntime.journal`, the SQLite store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from kiosk.terminal.core import events as ev
from kiosk.terminal.signer.client import Signer
from kiosk.terminal.store.critmem import StoreCheck, power_up_store
from kiosk.terminal.store.faults import StoreError
from kiosk.terminal.store.journal import Journal, JournalRow, Projections
from kiosk.terminal.store.memory import MemoryJournal


class RuntimeJournal(Protocol):
    """The store a :class:`~kiosk.terminal.runtime.terminal.TerminalRuntime` runs on."""

    def commit(self, events: Iterable[ev.Event], projections: Projections = ...) -> int:
        """Write a step's events and projections at once (StoreError: nothing written)."""
        ...

    def head(self) -> tuple[int, bytes]:
        """Sequence number and chain hash of the last row."""
        ...

    def rows(self, after: int = 0) -> Iterator[JournalRow]:
        """Journaled events after a sequence number, oldest first."""
        ...

    def event_log(self, kinds: Iterable[str] | None = None, last: int = 100) -> list[JournalRow]:
        """Logged events, newest first."""
        ...

    def recall(self, last: int = 10) -> list[dict[str, Any]]:
        """The last games, newest first."""
        ...

    def seal(self, reason: str) -> None:
        """Refuse every further write."""
        ...

    @property
    def sealed(self) -> str | None:
        """Why the store takes no writes, or None."""
        ...

    def epoch(self) -> int | None:
        """The signer's epoch of the store (None: unsigned)."""
        ...

    def created_at(self) -> int:
        """When the store was created (epoch ms)."""
        ...

    def close(self) -> None:
        """Release the store."""
        ...


#: opens the runtime's store (called once by the runtime; StoreError when it cannot)
JournalOpener = Callable[[], RuntimeJournal]


def power_up(
    store: RuntimeJournal, signer: Signer, genesis: Callable[[], dict[str, Any]], now: int
) -> StoreCheck:
    """Create the store when new, else check it; the verified state or why to lock up.

    The SQLite journal is created, adopted or verified against the signer
    (:func:`kiosk.terminal.store.critmem.power_up_store`: a function, not a method of the journal,
    so that the journal does not import what verifies it, decision 0050); the memory journal is
    unsigned and checks its own chain.
    """
    if isinstance(store, MemoryJournal):
        return store.power_up(signer, genesis, now)
    if isinstance(store, Journal):
        return power_up_store(store, signer, genesis, now)
    raise StoreError(f"no power-up for a store of type {type(store).__name__}")


def sqlite_journal(data_dir: Path) -> JournalOpener:
    """The product's store: the SQLite journal of ``data_dir``."""
    return lambda: Journal(Path(data_dir))
