"""The chained-journal primitive: rows hash-chained from a genesis hash and verified in order.

Both journals are built on it: the terminal's (:mod:`kiosk.terminal.store.journal`, its service
audit log and the in-memory store) and the table controller's (:mod:`kiosk.table.core.journal`).  A
row is ``(seq, kind, body)``; its hash is a :data:`Link` of the previous row's hash and the row, so
a changed, missing or reordered row breaks the chain.  Each journal keeps the link it was released
with (the hashes on disk never change, decision 0048):

* :data:`TERMINAL` -- SHA-256 over the length-prefixed previous hash, decimal ``seq`` and body
  (the kind is inside the terminal's body);
* :data:`TABLE` -- SHA-256 over the previous hash, ``seq`` as 8 big-endian bytes, and
  ``kind NUL body``.

:meth:`Chain.verify` raises a :class:`ChainError` (:class:`MissingRowError` or
:class:`AlteredRowError`) naming the first bad row; each journal words it as its own store
error (an :class:`~kiosk.terminal.store.journal.IntegrityError`), with the typed break as its cause.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

#: the hash "before" row 1 of every chain
GENESIS = b"\x00" * 32


class ChainHead(NamedTuple):
    """The last row of a chain: its sequence number and hash (a tuple, as heads always were)."""

    seq: int
    hash: bytes


#: the head of an empty chain
ORIGIN = ChainHead(0, GENESIS)


@dataclass(frozen=True, slots=True)
class ChainRow:
    """One stored row of a chain."""

    seq: int
    kind: str
    body: str
    hash: bytes


class ChainError(Exception):
    """A chain does not verify at row ``seq``."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq


class MissingRowError(ChainError):
    """Row ``seq`` is not there: the next row stored is ``found``."""

    def __init__(self, seq: int, found: int) -> None:
        super().__init__(seq, f"row {seq} is missing (next is {found})")
        self.found = found


class AlteredRowError(ChainError):
    """Row ``seq`` does not hash to the hash stored with it."""

    def __init__(self, seq: int) -> None:
        super().__init__(seq, f"row {seq} fails its chain hash")


#: a row's hash from the previous row's hash: ``link(prev, seq, kind, body)``
Link = Callable[[bytes, int, str, str], bytes]


def digest(*parts: bytes) -> bytes:
    """SHA-256 over length-prefixed parts (4 big-endian bytes of length, then the part)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


def terminal_link(prev: bytes, seq: int, kind: str, body: str) -> bytes:
    """The terminal's row hash: the kind is part of the body, so it is not hashed apart."""
    del kind
    return digest(prev, str(seq).encode(), body.encode())


def table_link(prev: bytes, seq: int, kind: str, body: str) -> bytes:
    """The table's row hash."""
    h = hashlib.sha256(prev)
    h.update(seq.to_bytes(8, "big"))
    h.update(kind.encode() + b"\x00" + body.encode())
    return h.digest()


@dataclass(frozen=True)
class Chain:
    """A hash chain of one link: extend a head with rows, verify stored rows."""

    link: Link

    def extend(
        self, head: tuple[int, bytes], rows: Iterable[tuple[str, str]]
    ) -> tuple[ChainHead, list[ChainRow]]:
        """Chain ``(kind, body)`` rows after ``head``: the new head and the rows to store."""
        seq, prev = head
        chained = []
        for kind, body in rows:
            seq += 1
            prev = self.link(prev, seq, kind, body)
            chained.append(ChainRow(seq, kind, body, prev))
        return ChainHead(seq, prev), chained

    def verify(
        self, rows: Iterable[tuple[int, str, str, bytes]], start: tuple[int, bytes] = ORIGIN
    ) -> Iterator[ChainRow]:
        """Each stored row after ``start``, in order, once its hash is checked.

        Raises :class:`MissingRowError` at a gap and :class:`AlteredRowError` at a row that does not
        hash to its stored hash (a generator: the rows before it have been yielded)."""
        expected, prev = start[0] + 1, start[1]
        for seq, kind, body, stored in rows:
            if seq != expected:
                raise MissingRowError(expected, seq)
            prev = self.link(prev, seq, kind, body)
            if prev != bytes(stored):
                raise AlteredRowError(seq)
            yield ChainRow(seq, kind, body, prev)
            expected += 1

    def count(
        self, rows: Iterable[tuple[int, str, str, bytes]], start: tuple[int, bytes] = ORIGIN
    ) -> int:
        """Verify every row after ``start``: how many there are (:class:`ChainError`)."""
        return sum(1 for _ in self.verify(rows, start))


#: the terminal's journal and its service audit log
TERMINAL = Chain(terminal_link)
#: the table controller's journal
TABLE = Chain(table_link)
