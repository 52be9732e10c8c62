"""The SAS host's ticket database: what a casino's ticketing system keeps (SQLite).

The host tool is the validation system of the terminals it polls: it issues the validation
numbers of cash-out tickets (system validation, long polls 57/58), learns that a ticket was
printed (exception 3D, long poll 4D), and decides a ticket inserted anywhere on its line (ticket
in, long polls 70/71).  Several host processes (one per serial port) may share one file.

Ticket states::

    issued ──(printed, 4D)──> printed ──(reserve, 70/71)──> pending@M ──(71: redeemed)──> redeemed
                                  ^                              │
                                  └────(71: rejected/returned)───┘

Exactly once: every transition is one conditional ``UPDATE ... WHERE state = ?`` inside a
``BEGIN IMMEDIATE`` transaction, so of two machines racing for one ticket exactly one changes
the row; a ticket pending at machine ``M`` is offered again to ``M`` only (the same insertion
asked twice, e.g. after a host restart) and redeemed only once.  Every transition is appended
to ``ticket_log``, which is never updated.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

#: Digits of a printed validation number: the 2-digit system id and 16 from the host.
VALIDATION_DIGITS = 18
#: The highest ticket amount the host will issue or redeem (SAS carries 10 BCD digits of cents).
MAX_TICKET_CENTS = 9_999_999_999

SCHEMA = """
CREATE TABLE IF NOT EXISTS tickets (
    validation_number TEXT PRIMARY KEY,
    amount_cents INTEGER NOT NULL,
    state TEXT NOT NULL,
    issued_by TEXT NOT NULL,
    issued_ms INTEGER NOT NULL,
    holder TEXT NOT NULL DEFAULT '',
    changed_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ticket_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    validation_number TEXT NOT NULL,
    machine TEXT NOT NULL,
    action TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    at_ms INTEGER NOT NULL);
"""


class TicketState(StrEnum):
    """Where a ticket is in its life."""

    ISSUED = "issued"
    PRINTED = "printed"
    PENDING = "pending"
    REDEEMED = "redeemed"


class TicketDbError(Exception):
    """The ticket database cannot be used (a corrupt file, a wrong schema)."""


@dataclass(frozen=True)
class Ticket:
    """One row of the ticket database."""

    validation_number: str
    amount_cents: int
    state: TicketState
    issued_by: str
    issued_ms: int
    holder: str
    changed_ms: int


@dataclass(frozen=True)
class Verdict:
    """The host's answer to a ticket inserted at ``machine`` (long poll 71's transfer code)."""

    accepted: bool
    amount_cents: int
    reason: str


def check_validation_number(number: str) -> None:
    """ValueError unless ``number`` is 18 decimal digits."""
    if len(number) != VALIDATION_DIGITS or not number.isdigit():
        raise ValueError(f"a validation number has 18 digits, not {number!r}")


class TicketDb:
    """The tickets of one casino's SAS line, in one SQLite file."""

    def __init__(self, path: Path, clock_ms: Callable[[], int]) -> None:
        self._clock_ms = clock_ms
        try:
            self._db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise TicketDbError(f"{path}: not a ticket database ({exc})") from None

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _log(
        self, db: sqlite3.Connection, number: str, machine: str, action: str, cents: int
    ) -> None:
        db.execute(
            "INSERT INTO ticket_log (validation_number, machine, action, amount_cents, at_ms)"
            " VALUES (?, ?, ?, ?, ?)",
            (number, machine, action, cents, self._clock_ms()),
        )

    # -- cash-out tickets (system validation) ---------------------------------------------
    def issue(self, machine: str, amount_cents: int, system_id: int) -> str:
        """A new validation number for a cash-out of ``amount_cents`` at ``machine``."""
        if not 0 < amount_cents <= MAX_TICKET_CENTS:
            raise ValueError(f"a ticket amount is 1..{MAX_TICKET_CENTS} cents, not {amount_cents}")
        if not 10 <= system_id <= 99:
            raise ValueError(f"a validation system id is 10..99, not {system_id}")
        now = self._clock_ms()
        with self._transaction() as db:
            while True:
                number = f"{system_id:02d}{secrets.randbelow(10**16):016d}"
                exists = db.execute(
                    "SELECT 1 FROM tickets WHERE validation_number = ?", (number,)
                ).fetchone()
                if exists is None:
                    break
            db.execute(
                "INSERT INTO tickets VALUES (?, ?, ?, ?, ?, '', ?)",
                (number, amount_cents, TicketState.ISSUED, machine, now, now),
            )
            self._log(db, number, machine, "issued", amount_cents)
        return number

    def printed(self, number: str, machine: str, amount_cents: int) -> Ticket:
        """The machine reports ``number`` printed for ``amount_cents`` (exception 3D, poll 4D).

        An issued ticket becomes redeemable; a number the host never issued (a machine that
        validates its own tickets) is recorded as printed by that machine.  A report that
        disagrees with the record (another amount, another machine) changes nothing and is
        logged as a conflict.
        """
        check_validation_number(number)
        now = self._clock_ms()
        with self._transaction() as db:
            row = self._row(db, number)
            if row is None:
                db.execute(
                    "INSERT INTO tickets VALUES (?, ?, ?, ?, ?, '', ?)",
                    (number, amount_cents, TicketState.PRINTED, machine, now, now),
                )
                self._log(db, number, machine, "printed", amount_cents)
            elif row.state is TicketState.ISSUED and (
                row.issued_by == machine and row.amount_cents == amount_cents
            ):
                db.execute(
                    "UPDATE tickets SET state = ?, changed_ms = ? WHERE validation_number = ?"
                    " AND state = ?",
                    (TicketState.PRINTED, now, number, TicketState.ISSUED),
                )
                self._log(db, number, machine, "printed", amount_cents)
            elif row.issued_by != machine or row.amount_cents != amount_cents:
                self._log(db, number, machine, "conflicting-print-report", amount_cents)
        found = self.get(number)
        assert found is not None
        return found

    # -- ticket in ---------------------------------------------------------------------------
    def reserve(self, number: str, machine: str) -> Verdict:
        """Ticket ``number`` inserted at ``machine``: accept it for its amount, or refuse."""
        if len(number) != VALIDATION_DIGITS or not number.isdigit():
            return Verdict(False, 0, "not a validation number")
        now = self._clock_ms()
        with self._transaction() as db:
            row = self._row(db, number)
            if row is None:
                self._log(db, number, machine, "refused-unknown", 0)
                return Verdict(False, 0, "unknown ticket")
            if row.state is TicketState.PENDING and row.holder == machine:
                return Verdict(True, row.amount_cents, "")
            if row.state is not TicketState.PRINTED:
                self._log(db, number, machine, f"refused-{row.state}", row.amount_cents)
                reason = {
                    TicketState.ISSUED: "ticket not printed",
                    TicketState.PENDING: "ticket in use at another machine",
                    TicketState.REDEEMED: "ticket already redeemed",
                }[row.state]
                return Verdict(False, row.amount_cents, reason)
            changed = db.execute(
                "UPDATE tickets SET state = ?, holder = ?, changed_ms = ?"
                " WHERE validation_number = ? AND state = ?",
                (TicketState.PENDING, machine, now, number, TicketState.PRINTED),
            ).rowcount
            if changed != 1:  # pragma: no cover - BEGIN IMMEDIATE serialises writers
                return Verdict(False, row.amount_cents, "ticket in use")
            self._log(db, number, machine, "reserved", row.amount_cents)
            return Verdict(True, row.amount_cents, "")

    def redeemed(self, number: str, machine: str, amount_cents: int) -> bool:
        """The machine stacked the ticket it held (71 status: redeemed); True when recorded now."""
        with self._transaction() as db:
            changed = db.execute(
                "UPDATE tickets SET state = ?, changed_ms = ? WHERE validation_number = ?"
                " AND state = ? AND holder = ? AND amount_cents = ?",
                (
                    TicketState.REDEEMED,
                    self._clock_ms(),
                    number,
                    TicketState.PENDING,
                    machine,
                    amount_cents,
                ),
            ).rowcount
            action = "redeemed" if changed else "redeem-report-ignored"
            self._log(db, number, machine, action, amount_cents)
        return changed == 1

    def returned(self, number: str, machine: str) -> bool:
        """The machine gave the ticket back (71 status: rejected): redeemable again."""
        with self._transaction() as db:
            changed = db.execute(
                "UPDATE tickets SET state = ?, holder = '', changed_ms = ?"
                " WHERE validation_number = ? AND state = ? AND holder = ?",
                (TicketState.PRINTED, self._clock_ms(), number, TicketState.PENDING, machine),
            ).rowcount
            if changed:
                self._log(db, number, machine, "returned", 0)
        return changed == 1

    # -- reading ----------------------------------------------------------------------------
    def get(self, number: str) -> Ticket | None:
        """One ticket, or None."""
        return self._row(self._db, number)

    def pending_at(self, machine: str) -> list[Ticket]:
        """Tickets held by ``machine`` whose end the host has not heard yet."""
        rows = self._db.execute(
            "SELECT * FROM tickets WHERE state = ? AND holder = ? ORDER BY changed_ms",
            (TicketState.PENDING, machine),
        ).fetchall()
        return [_ticket(r) for r in rows]

    def all(self) -> list[Ticket]:
        """Every ticket, oldest first."""
        rows = self._db.execute("SELECT * FROM tickets ORDER BY issued_ms, validation_number")
        return [_ticket(r) for r in rows.fetchall()]

    def log(self, number: str) -> list[tuple[str, str, int]]:
        """(machine, action, amount) of every transition of ``number``, in order."""
        rows = self._db.execute(
            "SELECT machine, action, amount_cents FROM ticket_log WHERE validation_number = ?"
            " ORDER BY seq",
            (number,),
        )
        return [(str(m), str(a), int(c)) for m, a, c in rows.fetchall()]

    @staticmethod
    def _row(db: sqlite3.Connection, number: str) -> Ticket | None:
        row = db.execute("SELECT * FROM tickets WHERE validation_number = ?", (number,)).fetchone()
        return None if row is None else _ticket(row)


def _ticket(row: tuple[object, ...]) -> Ticket:
    number, cents, state, issued_by, issued_ms, holder, changed_ms = row
    return Ticket(
        validation_number=str(number),
        amount_cents=int(str(cents)),
        state=TicketState(str(state)),
        issued_by=str(issued_by),
        issued_ms=int(str(issued_ms)),
        holder=str(holder),
        changed_ms=int(str(changed_ms)),
    )
