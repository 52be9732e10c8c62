"""The signed table record: the table journal's heads signed by the table's own signer.

The table controller's journal (:mod:`kiosk.table.core.journal`) is hash-chained; since decision
0036 each commit's head is also signed, *before* the commit, by a signer of the table's own
(the terminal's mechanism, :mod:`kiosk.terminal.signer`, decisions 0006 and 0012: an Ed25519 key and
a monotonic anchor outside the controller), so the chain cannot be recomputed by whoever can
write the journal.

:func:`verify_table` (start-up, ``table audit``, ``table meters``, ``table recall``) checks,
and raises :class:`TableRecordError` with a one-line reason at the first failure:

1. SQLite's ``quick_check``; every row's sequence number and chain hash; every body an event;
2. the head: the last row carries the signer's signature of (epoch, seq, chain hash);
3. the recall: each finished round's recall row is exactly the record the journal's events
   make (replayed through the core), and no row names a round that did not finish;
4. the anchor: the head is the signer's last signed head (or the one before it: a kill between
   signing and committing, withdrawn at start-up); behind it is a cut or replaced journal,
   ahead of it a rolled-back signer (:func:`kiosk.terminal.store.verify.against_anchor`).

:func:`power_up_table` opens the journal at start-up: a new journal is signed from row 0 only
when its signer has signed nothing (a deleted journal is never started silently again); an
unsigned journal of a previous release is adopted once, when the signer has no epoch yet.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.table.core import events as e
from kiosk.table.core.core import TableCore
from kiosk.table.core.journal import GENESIS, JournalChainError, TableJournal, recall_body
from kiosk.terminal.signer.client import LocalSigner, Signer, SocketSigner, development_dir
from kiosk.terminal.signer.records import Anchor, Head, head_message, verifies
from kiosk.terminal.store.critmem import StoreSigner
from kiosk.terminal.store.faults import StoreError
from kiosk.terminal.store.verify import VerificationError, against_anchor

#: the table signer's socket when ``table serve --signer`` is not given (never the terminal's
#: ``$TURBOKIOSK_SIGNER``: a table has its own key and anchor)
TABLE_SIGNER_ENV = "TURBOKIOSK_TABLE_SIGNER"
WHAT = "table journal"


class TableRecordError(JournalChainError):
    """The table journal fails its verification: the controller must not serve it."""


class UnsignedTableError(TableRecordError):
    """The journal has no signer epoch: written before the table signer."""


@dataclass(frozen=True)
class TableVerified:
    """What a verified table journal holds."""

    head: Head | None  # None: an unsigned journal (no signer asked)
    rows: int
    rounds: int  # recall rows checked against the replay
    withdraw: Head | None = None
    notes: tuple[str, ...] = ()


@dataclass
class TableCheck:
    """What start-up did (the actions are the controller's recovery notes)."""

    verified: TableVerified | None = None
    actions: list[str] = field(default_factory=list)


def table_signer(
    data_dir: Path, table_id: str, socket: Path | None = None, *, create: bool = True
) -> Signer:
    """The table's signer: the program at ``socket`` (or ``$TURBOKIOSK_TABLE_SIGNER``), else
    the development signer in ``DATA_DIR.signer/table-<id>`` (``create``: make its key)."""
    if socket is None:
        value = os.environ.get(TABLE_SIGNER_ENV, "").strip()
        socket = Path(value) if value else None
    if socket is not None:
        return SocketSigner(socket)
    return LocalSigner(development_dir(data_dir) / f"table-{table_id}", create=create)


def verify_table(
    journal: TableJournal,
    public_key: bytes | None,
    anchor: Anchor | None,
    *,
    core: TableCore | None = None,
    running: bool = False,
    signed: bool = True,
) -> TableVerified:
    """Verify a table journal (the module docstring); ``core`` (fresh) is folded with every
    event and the recall checked against it; ``signed`` False checks an unsigned journal's
    chain and recall only."""
    try:
        return _verify(journal, public_key, anchor, core, running, signed)
    except TableRecordError:
        raise
    except (StoreError, VerificationError) as exc:
        raise TableRecordError(str(exc)) from None
    except sqlite3.Error as exc:
        raise TableRecordError(f"the table journal is unreadable: {exc}") from None
    except (ValueError, KeyError) as exc:
        raise TableRecordError(f"the table journal does not replay: {exc}") from None


def _verify(
    journal: TableJournal,
    public_key: bytes | None,
    anchor: Anchor | None,
    core: TableCore | None,
    running: bool,
    signed: bool,
) -> TableVerified:
    check = journal.db.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise TableRecordError(f"SQLite quick_check of the table journal: {check}")
    epoch = journal.epoch()
    if signed and epoch is None:
        raise UnsignedTableError("the table journal is unsigned (written before its signer)")
    rows, rounds = _replay(journal, core)
    seq, chain_hash = journal.head
    if not signed or epoch is None:
        return TableVerified(None, rows, rounds)
    head = Head(epoch, seq, chain_hash)
    found = journal.signed_head(seq)
    if found is None:
        raise TableRecordError(f"table journal head row {seq} carries no signature")
    if found[0] != epoch or found[1] != chain_hash:
        raise TableRecordError(f"table journal head row {seq}: its signature is for another head")
    if public_key is not None and not verifies(public_key, found[2], head_message(head)):
        raise TableRecordError(f"table journal head row {seq}: the signature does not verify")
    withdraw, notes = against_anchor(
        head, anchor, running, what=WHAT, new_epoch="the signer of another table"
    )
    return TableVerified(head, rows, rounds, withdraw, notes)


def _replay(journal: TableJournal, core: TableCore | None) -> tuple[int, int]:
    """Every row checked (chain, body); with a core, every finished round's recall row
    against the record the events make.  (rows, recall rows checked)."""
    stored = dict(journal.recall_rows())
    rows = checked = 0
    for event in journal.events():
        rows += 1
        if core is None:
            continue
        before = core.state.recall[-1] if core.state.recall else None
        core.apply([event])
        if isinstance(event, e.RoundClosed | e.RoundVoided):
            record = core.state.recall[-1] if core.state.recall else None
            if record is not None and record is not before:  # a round with bets finished
                _check_recall(recall_body(record), event.game_number, stored)
                checked += 1
    if core is not None and stored:
        game = min(stored)
        raise TableRecordError(f"the recall of game {game} names a round that never finished")
    return rows, checked


def _check_recall(made: str, game: int, stored: dict[int, str]) -> None:
    body = stored.pop(game, None)
    if body is None:
        raise TableRecordError(f"the recall of finished game {game} is missing")
    if made != body:
        raise TableRecordError(
            f"the recall of game {game} is not what the journal's rows make it (a forged row)"
        )


def power_up_table(journal: TableJournal, signer: Signer, core: TableCore) -> TableCheck:
    """Open the journal at start-up against its signer; then the journal is signed.

    Raises :class:`TableRecordError` (one line) when the journal must not be served; the
    journal is left as it was."""
    check = TableCheck()
    try:
        status = signer.status()
        anchor = status.anchor
        epoch = journal.epoch()
        if epoch is None and journal.head[0] == 0:
            if anchor.epoch and anchor.seq:
                raise TableRecordError(
                    f"the table journal is missing or empty but its signer's anchor is at epoch "
                    f"{anchor.epoch} row {anchor.seq}: the journal was deleted or replaced"
                )
            epoch = anchor.epoch or signer.start_epoch(0, "the first table journal").epoch
            journal.sign_as_is(epoch, signer.sign_commit(Head(epoch, 0, GENESIS), None).head)
            status = signer.status()
        elif epoch is None:
            check.actions.append(_adopt(journal, signer, status.anchor))
            status = signer.status()
        verified = verify_table(journal, status.public_key, status.anchor, core=core)
        if verified.withdraw is not None:
            signer.withdraw(verified.withdraw)
            check.actions.extend(f"{note}: withdrawn at the signer" for note in verified.notes)
    except TableRecordError:
        raise
    except StoreError as exc:
        raise TableRecordError(str(exc)) from None
    assert verified.head is not None
    journal.signer = StoreSigner(signer, verified.head.epoch)
    check.verified = verified
    return check


def _adopt(journal: TableJournal, signer: Signer, anchor: Anchor) -> str:
    """Sign an unsigned journal of a previous release as it is (its chain checked first)."""
    if anchor.epoch:
        raise UnsignedTableError(
            f"the table journal is unsigned but its signer holds epoch {anchor.epoch} row "
            f"{anchor.seq}: an older journal was put back"
        )
    rows = sum(1 for _ in journal.events())  # the chain and every body, before signing
    seq, chain_hash = journal.head
    epoch = signer.start_epoch(0, "adopting an unsigned table journal").epoch
    journal.sign_as_is(epoch, signer.sign_commit(Head(epoch, seq, chain_hash), None).head)
    return (
        f"unsigned table journal of a previous release adopted: {rows} rows checked, "
        f"head row {seq} signed in epoch {epoch}"
    )
