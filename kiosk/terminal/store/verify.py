"""Verification of the non-volatile store: one module for power-up and ``turbokiosk audit``.

:func:`verify_store` checks, in order, and raises :class:`VerificationError` with a one-line
reason at the first failure:

1. SQLite's ``quick_check``, every row checksum and the journal's SHA-256 chain;
2. the head: the journal's last row carries the signer's Ed25519 signature of
   (epoch, seq, chain hash), written in the same commit;
3. every stored snapshot carries a valid signature of (epoch, seq, chain hash at that row,
   body checksum): a snapshot whose signature fails is a finding, never skipped;
4. the state: the newest snapshot (verified above) with the journal rows after it replayed;
5. the anchor: the store's (epoch, head) against the signer's.  The head must be the last one
   the signer signed, or the one before it when the last signed commit never reached the store
   (a power cut between signing and committing: ``withdraw`` says so).  A head behind the
   anchor is a cut tail, a lost WAL or a replaced store; ahead of it, a signer rolled back.
   For a terminal that is running (audit from another process) the anchor may be ahead.

A store written before the signer existed has no epoch: :class:`UnsignedStoreError`.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field

from kiosk.terminal.core import events as ev
from kiosk.terminal.core.core import TerminalCore
from kiosk.terminal.core.state import TerminalState
from kiosk.terminal.signer.records import Anchor, Head, head_message, snapshot_message, verifies
from kiosk.terminal.store.journal import GENESIS, IntegrityError, Journal, body_hash


class VerificationError(IntegrityError):
    """The store failed a check; the message is the one-line reason."""


class UnsignedStoreError(VerificationError):
    """The store has no epoch: it was written by a release before the signer."""


@dataclass(frozen=True)
class Verified:
    """What a verified store holds."""

    state: TerminalState
    head: Head
    snapshot_seq: int  # the snapshot the state was loaded from
    replayed: int  # journal rows applied on top of it
    checked_rows: int  # journal rows whose chain hash was checked
    snapshots: int  # snapshots whose signature was checked
    counts: dict[str, int] = field(default_factory=dict)  # rows checked per table
    withdraw: Head | None = None  # the signer's last head never reached the store: back to this
    notes: tuple[str, ...] = field(default_factory=tuple)


def _tables(journal: Journal) -> set[str]:
    return {
        name for (name,) in journal.db.execute("SELECT name FROM sqlite_master WHERE type='table'")
    }


def verify_store(
    journal: Journal, public_key: bytes | None, anchor: Anchor | None, *, running: bool = False
) -> Verified:
    """Verify a store (see the module docstring).

    ``public_key`` None (the signer cannot be asked: an audit of a copied data directory) checks
    that every signature is there but not that it verifies; ``anchor`` None skips step 5.
    """
    try:
        return _verify(journal, public_key, anchor, running)
    except VerificationError:
        raise
    except IntegrityError as exc:
        raise VerificationError(str(exc)) from None
    except sqlite3.Error as exc:
        raise VerificationError(f"the store is unreadable: {exc}") from None
    except (ev.EventDecodeError, KeyError, ValueError) as exc:
        raise VerificationError(f"a stored record cannot be read: {exc}") from None


def _verify(
    journal: Journal, public_key: bytes | None, anchor: Anchor | None, running: bool
) -> Verified:
    tables = _tables(journal)
    if "snapshots" not in tables or "journal" not in tables or journal.is_new():
        raise VerificationError("the store is empty (deleted, truncated or never created)")
    counts = journal.verify_tables()
    epoch = journal.epoch() if "heads" in tables else None
    if epoch is None:
        raise UnsignedStoreError("the store is unsigned (written before the signer)")
    seq, chain = journal.head()
    head = Head(epoch, seq, chain)
    row = journal.db.execute("SELECT epoch, hash, signature FROM heads WHERE seq = ?", (seq,))
    signed = row.fetchone()
    if signed is None:
        raise VerificationError(f"journal head row {seq} carries no signature")
    if int(signed[0]) != epoch or bytes(signed[1]) != chain:
        raise VerificationError(f"journal head row {seq}: its signature is for another head")
    if public_key is not None and not verifies(public_key, bytes(signed[2]), head_message(head)):
        raise VerificationError(f"journal head row {seq}: the signature does not verify")
    checked = _verify_snapshots(journal, public_key, epoch)
    snapshot_seq, body = journal.db.execute(
        "SELECT seq, body FROM snapshots ORDER BY seq DESC LIMIT 1"
    ).fetchone()
    core = TerminalCore(TerminalState.from_snapshot(json.loads(body)))
    replayed = 0
    for journal_row in journal.rows(after=snapshot_seq):
        core.apply([journal_row.event])
        replayed += 1
    withdraw, notes = against_anchor(head, anchor, running)
    return Verified(
        core.state,
        head,
        snapshot_seq,
        replayed,
        counts["journal"],
        checked,
        counts,
        withdraw,
        notes,
    )


def _verify_snapshots(journal: Journal, public_key: bytes | None, epoch: int) -> int:
    signatures = {
        s: (e, bytes(sig))
        for s, e, sig in journal.db.execute("SELECT seq, epoch, signature FROM snapshot_signatures")
    }
    chains = {0: GENESIS}
    n = 0
    for seq, body, _ in journal.db.execute("SELECT seq, body, hash FROM snapshots ORDER BY seq"):
        if seq not in chains:
            row = journal.db.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()
            if row is None:
                raise VerificationError(f"snapshot after row {seq}: the journal has no row {seq}")
            chains[seq] = bytes(row[0])
        signed = signatures.get(seq)
        if signed is None:
            raise VerificationError(f"snapshot after row {seq} carries no signature")
        message = snapshot_message(Head(epoch, seq, chains[seq]), body_hash(seq, body))
        if signed[0] != epoch or (
            public_key is not None and not verifies(public_key, signed[1], message)
        ):
            raise VerificationError(f"snapshot after row {seq}: the signature does not verify")
        n += 1
    return n


def against_anchor(
    head: Head,
    anchor: Anchor | None,
    running: bool,
    *,
    what: str = "store",
    new_epoch: str = "a RAM clear not carried out here",
) -> tuple[Head | None, tuple[str, ...]]:
    """Step 5: ``head`` (of the ``what``: the store, the table journal) against the signer's
    anchor; (the head to withdraw to, or None; notes).  Raises :class:`VerificationError`."""
    if anchor is None:
        return None, ()
    if anchor.epoch != head.epoch:
        raise VerificationError(
            f"the {what} is of epoch {head.epoch} but the signer is at epoch {anchor.epoch} "
            f"(a replaced {what}, or {new_epoch})"
        )
    if head == anchor.head:
        return None, ()
    if anchor.previous is not None and head == anchor.previous:
        note = (
            f"the last signed head (row {anchor.seq}) never reached the {what}: "
            "a power cut between signing and committing"
        )
        return (None if running else head), (note,)
    if running and head.seq < anchor.seq:
        return None, (f"the {what} is in use: the signer's anchor is ahead of this view",)
    if head.seq < anchor.seq:
        raise VerificationError(
            f"the {what}'s head (row {head.seq}) is behind the signer's anchor (row {anchor.seq}):"
            f" rows were cut, the WAL was lost or the {what} was replaced"
        )
    if head.seq > anchor.seq:
        raise VerificationError(
            f"the {what}'s head (row {head.seq}) is ahead of the signer's anchor "
            f"(row {anchor.seq}): the signer's state was rolled back"
        )
    raise VerificationError(
        f"the {what}'s head row {head.seq} is not the head the signer signed at that row"
    )
