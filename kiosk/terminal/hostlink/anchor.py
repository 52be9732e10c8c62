"""Journal heads and the host's acknowledged head: an anchor for the terminal's store outside it.

A terminal's reports carry its journal head (:class:`JournalHead`: the store's epoch -- its
``created_at`` meta value -- the last sequence number and that row's chain hash).  The host
commits the head with the batch and returns the last one it committed in every Hello.  At
connect the terminal compares its own head with it (:func:`anchor_problem`): a store that is
behind what the host already saw was cut short, lost its WAL or is an older copy of the SD
card, and one with the same sequence number but another hash has a forged history.  Either is
the critical memory lockup.  The link disables play from its start until that first check
(:data:`ANCHOR_WAIT_REASON`), so no game is played after power-up before it.  This module is
sans-IO except :func:`read_head`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kiosk.terminal.core import commands as c
from kiosk.terminal.store.journal import GENESIS, Journal
from proto.turbokiosk.v1 import host_pb2

#: why play is disabled from the host link's start until its first hello has checked this
#: store against the host's anchor (kiosk/terminal/hostlink/link.py; decision 0038)
ANCHOR_WAIT_REASON = c.ANCHOR_WAIT


@dataclass(frozen=True)
class JournalHead:
    """Which store (``epoch``), how far it goes (``seq``) and the hash of its last row."""

    epoch: int
    seq: int
    hash: bytes

    def __str__(self) -> str:
        return f"epoch {self.epoch} seq {self.seq} hash {self.hash.hex()[:16]}"

    def to_proto(self) -> host_pb2.JournalHead:
        """The wire form."""
        return host_pb2.JournalHead(epoch=self.epoch, seq=self.seq, hash=self.hash)

    @classmethod
    def from_proto(cls, message: host_pb2.JournalHead) -> JournalHead | None:
        """The head a message carries, or None when it carries none (epoch 0)."""
        if message.epoch == 0:
            return None
        return cls(int(message.epoch), int(message.seq), bytes(message.hash))


def anchor_problem(
    epoch: int, seq: int, hash_at: Callable[[int], bytes | None], acknowledged: JournalHead
) -> str | None:
    """Why this store (``epoch``, last ``seq``, ``hash_at(n)`` its row ``n``'s hash) cannot be
    trusted against the host's anchor, or None.

    The acknowledged head must be in this store's history: the same epoch, a last sequence
    number at least the anchor's and, at the anchor's sequence number, the anchor's hash (a
    store cut short and written on again has the number but not the hash).  Another epoch newer
    than the anchor's is a new store (a RAM clear: the host records it, and raises an alarm when
    no RAM clear record comes with it); an older one is an old copy.
    """
    last = hash_at(seq)
    own = f"epoch {epoch} seq {seq} hash {last.hex()[:16] if last is not None else '?'}"
    if epoch != acknowledged.epoch:
        if epoch < acknowledged.epoch:
            return (
                f"store older than the host's anchor: this store is {own}, the host acknowledged"
                f" {acknowledged}"
            )
        return None
    if seq < acknowledged.seq:
        return (
            f"store behind the host's anchor (cut short, lost WAL or an old copy): this store is"
            f" at {own}, the host acknowledged {acknowledged}"
        )
    mine = hash_at(acknowledged.seq)
    if mine != acknowledged.hash:
        found = mine.hex()[:16] if mine is not None else "no row"
        return (
            f"store differs from the host's anchor (forged or rewritten history): this store"
            f" ({own}) has {found} at seq {acknowledged.seq}, the host acknowledged {acknowledged}"
        )
    return None


def hash_at(journal: Journal, seq: int) -> bytes | None:
    """The chain hash of the journal's row ``seq`` (the genesis hash for 0), None if absent."""
    if seq == 0:
        return GENESIS
    row = journal.db.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()
    return None if row is None else bytes(row[0])


def read_head(journal: Journal) -> JournalHead:
    """The journal's head as committed now (read afresh: ``journal`` may be a reader
    connection, whose cached head would be stale)."""
    row = journal.db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
    seq, digest = (0, GENESIS) if row is None else (int(row[0]), bytes(row[1]))
    return JournalHead(journal.created_at(), seq, digest)
