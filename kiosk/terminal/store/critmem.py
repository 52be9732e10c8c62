"""Critical memory at power-up: create, adopt or verify the store against the signer.

:func:`power_up_store` is what :meth:`TerminalRuntime.power_up` runs before anything else:

- no store (missing, empty or truncated to nothing): a store is created only when the signer
  has signed nothing in its epoch (the first start, or a start cut short); otherwise the store
  was lost and the terminal locks (only the operator's RAM clear starts a new one);
- a store written before the signer (no epoch): adopted once, as it is, when the signer has
  never started an epoch: the whole journal is replayed from genesis against every snapshot
  (what ``audit`` does), then its head and snapshots are signed in epoch 1; the adoption is
  named in the ``PoweredUp`` event.  A signer that already holds an epoch refuses it (a store
  from before was put back);
- otherwise :func:`kiosk.terminal.store.verify.verify_store` with the signer's anchor; a last signed
  head that never reached the store (a power cut between signing and committing) is withdrawn
  at the signer and named in the ``PoweredUp`` event.

Any failure is one line in :attr:`StoreCheck.critical` and the store is left untouched.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kiosk.terminal.core import events as ev
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.signer.client import Signer, SignerStatus
from kiosk.terminal.signer.records import Head, RoundSeal
from kiosk.terminal.store.journal import (
    GENESIS,
    IntegrityError,
    Journal,
    StorageFullError,
    StoreError,
    body_hash,
)
from kiosk.terminal.store.verify import UnsignedStoreError, VerificationError, verify_store


class StoreSigner:
    """A signer bound to a store epoch: the journal's :class:`CommitSigner`."""

    def __init__(self, signer: Signer, epoch: int) -> None:
        self.signer = signer
        self.epoch = epoch

    def sign(
        self,
        seq: int,
        chain_hash: bytes,
        snapshot_hash: bytes | None,
        seal: RoundSeal | None = None,
    ) -> tuple[bytes, bytes | None]:
        """Sign the head (the signer's anchor moves to it, with the round's seal) and the
        snapshot."""
        head = Head(self.epoch, seq, chain_hash)
        signed = self.signer.sign_commit(head, snapshot_hash, seal)
        return signed.head, signed.snapshot

    def begin(
        self,
        seq: int,
        chain_hash: bytes,
        snapshot_hash: bytes | None,
        seal: RoundSeal | None = None,
    ) -> Callable[[], tuple[bytes, bytes | None]]:
        """:meth:`sign` with its answer taken later (the journal writes its rows meanwhile)."""
        pending = self.signer.begin_sign_commit(
            Head(self.epoch, seq, chain_hash), snapshot_hash, seal
        )

        def signatures() -> tuple[bytes, bytes | None]:
            signed = pending.result()
            return signed.head, signed.snapshot

        return signatures

    def withdraw(self, seq: int, chain_hash: bytes) -> None:
        """Go back to the store's head ``seq`` after a signed commit that did not land."""
        self.signer.withdraw(Head(self.epoch, seq, chain_hash))


@dataclass
class StoreCheck:
    """What power-up found: the verified state, or the one-line reason to lock."""

    state: TerminalState | None = None
    checked_rows: int = 0
    replayed: int = 0
    actions: list[str] = field(default_factory=list)
    critical: str | None = None
    #: the signer's last head, withdrawn now because the store does not have it (a power cut
    #: between signing and committing, or a cut of the store's last commit); None: none
    withdrawn: Head | None = None
    #: when the signer withdrew heads before (epoch ms): a store put back cannot hide them
    earlier_withdrawals: tuple[int, ...] = ()
    #: the newest round's seal the signer holds (its cards as drawn); None: none
    seal: RoundSeal | None = None


def power_up_store(
    journal: Journal, signer: Signer, genesis: Callable[[], dict[str, Any]], now: int
) -> StoreCheck:
    """Open the store at power-up (see the module docstring); the journal is then signed."""
    check = StoreCheck()
    try:
        status = signer.status()
        if journal.is_new():
            _create(journal, signer, status, genesis, now)
            status = signer.status()
        elif journal.epoch() is None:
            check.actions.append(_adopt(journal, signer, status))
            status = signer.status()
        verified = verify_store(journal, status.public_key, status.anchor)
        if verified.withdraw is not None:
            check.earlier_withdrawals = status.anchor.withdrawn_at
            signer.withdraw(verified.withdraw, at_ms=now)
            check.withdrawn = status.anchor.head
            check.actions.extend(f"{note}: withdrawn at the signer" for note in verified.notes)
    except StorageFullError:
        raise  # its own lockup (decision 0007), not a failed check
    except (StoreError, sqlite3.Error) as exc:
        check.critical = str(exc) if isinstance(exc, StoreError) else f"store unreadable: {exc}"
        return check
    journal.signer = StoreSigner(signer, verified.head.epoch)
    check.state = verified.state
    check.seal = status.seal
    check.checked_rows = verified.checked_rows
    check.replayed = verified.replayed
    return check


def _create(
    journal: Journal,
    signer: Signer,
    status: SignerStatus,
    genesis: Callable[[], dict[str, Any]],
    now: int,
) -> None:
    anchor = status.anchor
    if anchor.epoch and anchor.seq:
        raise VerificationError(
            f"the store is missing or empty but the signer's anchor is at epoch "
            f"{anchor.epoch} row {anchor.seq}: only the operator's RAM clear starts a new store"
        )
    epoch = anchor.epoch or signer.start_epoch(0, "the first store").epoch
    journal.signer = StoreSigner(signer, epoch)
    journal.create(genesis(), now)


def _adopt(journal: Journal, signer: Signer, status: SignerStatus) -> str:
    anchor = status.anchor
    if anchor.epoch:
        raise UnsignedStoreError(
            f"the store is unsigned but the signer holds epoch {anchor.epoch} row {anchor.seq}:"
            " an older store was put back"
        )
    _replay_everything(journal)
    seq, chain = journal.head()
    epoch = signer.start_epoch(0, "adopting an unsigned store").epoch
    head_signature = signer.sign_commit(Head(epoch, seq, chain), None).head
    snapshots: dict[int, bytes] = {}
    for snap_seq, body in journal.db.execute("SELECT seq, body FROM snapshots").fetchall():
        head = Head(epoch, snap_seq, _chain_at(journal, snap_seq))
        snapshots[snap_seq] = signer.sign_snapshot(head, body_hash(snap_seq, body))
    journal.adopt(epoch, head_signature, snapshots)
    return (
        f"unsigned store of a previous release adopted: rows 1-{seq} replayed from genesis "
        f"against every snapshot, head row {seq} signed in epoch {epoch}"
    )


def _chain_at(journal: Journal, seq: int) -> bytes:
    if seq == 0:
        return GENESIS
    row = journal.db.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()
    if row is None:
        raise VerificationError(f"snapshot after row {seq}: the journal has no row {seq}")
    return bytes(row[0])


def _replay_everything(journal: Journal) -> None:
    """What audit does before adoption: tables, chain, and replay against every snapshot."""
    from kiosk.terminal.store.audit import rebuild

    try:
        journal.verify_tables()
        rebuild(journal)
    except (IntegrityError, ev.EventDecodeError, KeyError, ValueError) as exc:
        raise UnsignedStoreError(f"the unsigned store cannot be adopted: {exc}") from None
