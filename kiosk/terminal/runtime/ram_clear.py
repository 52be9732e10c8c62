"""The operator's RAM clear: the only way a terminal starts a new store.

:func:`ram_clear` (called through :meth:`TerminalRuntime.ram_clear` by the service function
``ram_clear``):

1. refuses while money is owed on a healthy terminal (credits, a note in escrow, a cash-out, a
   handpay or a game in progress); a terminal in critical memory error, or in a device records
   dispute (a device's money record disagrees with the journal: what the journal says is owed
   is itself in doubt, decision 0038), may always be cleared;
2. closes the store and moves it aside, whole (``terminal.sqlite3`` with its ``-wal`` and
   ``-shm``), to ``DATA_DIR/cleared/epoch-E-AT/``: it is kept for the investigation, never
   deleted;
3. starts the next epoch at the signer (the only request that does);
4. creates the new store (genesis: the same configuration, meters at zero) and commits
   ``RamCleared`` as its first event, with the service audit records given (those of the
   session that did it) and the host's copy in the outbox, all in one transaction.

A power cut after 2 leaves no store and the old one kept: power-up locks (the signer's anchor
is ahead) and the RAM clear is done again; after 3, power-up finds a new epoch at row 0 and
creates the new store (without the ``RamCleared`` row: the signer and the kept store still
show what happened).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from kiosk.kernel.durable import fsync_directory
from kiosk.terminal.core import events as e
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.state import Phase, TerminalState
from kiosk.terminal.core.tilts import DISPUTE_TILTS
from kiosk.terminal.signer.client import Signer
from kiosk.terminal.store.critmem import StoreSigner
from kiosk.terminal.store.journal import DB_NAME, Journal, Projections, StoreError
from kiosk.terminal.store.port import RuntimeJournal


class ClearedRuntime(Protocol):
    """What the RAM clear needs of the terminal
    (:class:`kiosk.terminal.runtime.terminal.TerminalRuntime` satisfies it; passed in, so this
    module does not import the runtime: decision 0050)."""

    @property
    def state(self) -> TerminalState: ...
    @property
    def journal(self) -> Journal: ...
    @property
    def signer(self) -> Signer: ...
    @property
    def data_dir(self) -> Path: ...
    @property
    def clock(self) -> Callable[[], int]: ...
    @property
    def host_messages(
        self,
    ) -> Callable[[list[e.Event], TerminalState], list[tuple[str, dict[str, Any]]]] | None: ...
    def adopt_store(self, journal: RuntimeJournal, core: TerminalCore) -> None: ...


#: where cleared stores are kept, inside the data directory
CLEARED_DIR = "cleared"


class RamClearRefusedError(ValueError):
    """The RAM clear would lose money owed on a healthy terminal (nothing was changed)."""


def owed(state: TerminalState) -> str | None:
    """What a healthy terminal still owes (a RAM clear would lose it), or None."""
    if any(state.credits):
        return f"{sum(state.credits)} cents of credits on the meter: cash out first"
    if any(state.escrow.values()) or state.ticket_escrow:
        return "a note or a ticket is in escrow"
    if state.cashout is not None:
        return "a cash-out is printing"
    if state.handpay is not None:
        return "a handpay is waiting"
    if state.phase not in (Phase.IDLE, Phase.RESULT, Phase.WAGERING):
        return "a game is in progress"
    if any(state.pending_wagers.values()):
        return "wagers are placed"
    return None


def _move_aside(data_dir: Path, epoch: int, at: int) -> str:
    kept = data_dir / CLEARED_DIR / f"epoch-{epoch}-{at}"
    kept.mkdir(parents=True, exist_ok=False)
    for suffix in ("", "-wal", "-shm"):
        source = data_dir / f"{DB_NAME}{suffix}"
        if source.exists():
            os.replace(source, kept / source.name)
    for directory in (kept, data_dir):
        fsync_directory(directory)
    return str(kept.relative_to(data_dir))


def ram_clear(
    runtime: ClearedRuntime, *, by: str, reason: str, audit: tuple[dict[str, Any], ...] = ()
) -> e.RamCleared:
    """Start a new store (see the module docstring); the journaled ``RamCleared``."""
    state = runtime.state
    if state.critical is None and DISPUTE_TILTS.isdisjoint(state.tilts):
        problem = owed(state)
        if problem is not None:
            raise RamClearRefusedError(f"RAM clear refused: {problem}")
    signer = runtime.signer
    anchor = signer.status().anchor  # the authoritative last head of the old store
    now = runtime.clock()
    try:
        previous_store = runtime.journal.created_at()
    except (sqlite3.Error, StoreError):  # a wiped or unreadable store
        previous_store = 0
    runtime.journal.close()
    kept = _move_aside(runtime.data_dir, anchor.epoch, now)
    fresh = signer.start_epoch(anchor.epoch, f"RAM clear by {by}: {reason}")
    journal = Journal(runtime.data_dir)
    journal.signer = StoreSigner(signer, fresh.epoch)
    # the PIN records in force are kept (a store whose records cannot be read starts with the
    # factory PINs, each to be changed at its first entry, as a new terminal does)
    fresh_state = TerminalState.genesis(replace(state.config))
    genesis = replace(fresh_state, pins=state.pins) if state.pins is not None else fresh_state
    journal.create(genesis.to_snapshot(), now)
    event = e.RamCleared(
        at=now,
        previous_epoch=anchor.epoch,
        previous_seq=anchor.seq,
        previous_hash=anchor.chain_hash.hex(),
        epoch=fresh.epoch,
        by=by,
        reason=reason,
        kept_as=kept,
        previous_store=previous_store,
    )
    core = TerminalCore(genesis)
    core.apply([event])
    outbox = tuple(runtime.host_messages([event], core.state)) if runtime.host_messages else ()
    journal.commit([event], Projections(outbox=outbox, audit=audit))
    runtime.adopt_store(journal, core)
    return event
