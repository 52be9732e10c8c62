"""The reference host's records: terminals, events, meter history, vouchers, commands.

One portable SQL schema on two back ends: SQLite (embedded, the default) and PostgreSQL
(psycopg 3, for a casino floor).  Statements are written once with ``?`` placeholders; the only
dialect differences are the placeholder style and the auto-increment column type.

Guarantees, each held by one statement inside one transaction:

- an event or meter snapshot is recorded at most once: its ``message_id`` is the primary key
  and it is inserted with ``ON CONFLICT DO NOTHING`` (a resend is counted as a duplicate);
- a voucher is redeemed at most once: reserving it for a terminal is a conditional
  ``UPDATE ... WHERE state = 'issued'``, so when two terminals race for the same voucher the
  database lets exactly one update happen and the other sees zero rows changed.

Voucher states: ``pending`` (number given out, not yet printed), ``issued`` (printed,
redeemable), ``voided`` (the printer failed), ``reserved`` (inserted at ``holder``, awaiting
the stacker), ``redeemed`` (stacked at ``holder``).

An operator may release a reservation its terminal will never finish
(:meth:`HostDb.release_voucher`, only after :data:`RELEASE_QUIET_MINUTES` without word from
that terminal).  Releases and every report that contradicts one are written to
``voucher_audit``, which is only ever appended to (docs/host.md, "Releasing a stuck
reservation").
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kiosk.host.accounting import constraints, device_counts, registry, stores
from kiosk.host.accounting.bounds import Limits
from kiosk.host.accounting.device_counts import DEVICE_COUNTS_SCHEMA
from kiosk.host.accounting.floor_alarms import FLOOR_ALARMS_SCHEMA, floor_alarm
from kiosk.host.accounting.group_record import ContendedError, record_setwise
from kiosk.host.accounting.plausibility import REFUSED
from kiosk.host.accounting.progressives import KIND as PROGRESSIVE
from kiosk.host.accounting.progressives import (
    PROGRESSIVES_SCHEMA,
    ProgressiveReading,
    record_reading,
)
from kiosk.host.accounting.progressives import progressives as read_progressives
from kiosk.host.accounting.records import (
    LAST_CONTACT,
    TERMINALS_SQL,
    WITH_ANCHORS,
    CommandRecord,
    EventRecord,
    MeterEpoch,
    MeterSnapshotRecord,
    RegistryEntry,
    TerminalAlarm,
    TerminalRecord,
    VoucherAuditEntry,
    VoucherRecord,
    VoucherState,
)
from kiosk.host.accounting.registry import REGISTRY_SCHEMA
from kiosk.host.accounting.reports import Message as Message
from kiosk.host.accounting.reports import Report as Report
from kiosk.host.accounting.stores import STORES_SCHEMA
from kiosk.terminal.hostlink.anchor import JournalHead

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS terminals (
    terminal_id TEXT PRIMARY KEY,
    software_version TEXT NOT NULL,
    software_signature TEXT NOT NULL,
    first_seen_ms BIGINT NOT NULL,
    last_seen_ms BIGINT NOT NULL,
    hellos BIGINT NOT NULL,
    enabled INTEGER NOT NULL,
    disable_reason TEXT NOT NULL,
    auth_result TEXT NOT NULL,
    auth_ms BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    message_id TEXT PRIMARY KEY,
    terminal_id TEXT NOT NULL,
    journal_seq BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    received_ms BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_terminal ON events (terminal_id, journal_seq);
CREATE TABLE IF NOT EXISTS meter_snapshots (
    message_id TEXT PRIMARY KEY,
    terminal_id TEXT NOT NULL,
    journal_seq BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    reason TEXT NOT NULL,
    meters TEXT NOT NULL,
    received_ms BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS meters_by_terminal ON meter_snapshots (terminal_id, journal_seq);
CREATE TABLE IF NOT EXISTS vouchers (
    validation_number TEXT PRIMARY KEY CHECK (length(validation_number) = 18),
    value_cents BIGINT NOT NULL CHECK (value_cents > 0),
    state TEXT NOT NULL CHECK (state IN
        ('pending', 'issued', 'voided', 'reserved', 'redeemed', 'quarantined')),
    issued_by TEXT NOT NULL,
    issued_ms BIGINT NOT NULL,
    holder TEXT NOT NULL,
    updated_ms BIGINT NOT NULL,
    CHECK (state NOT IN ('reserved', 'redeemed') OR holder <> ''));
CREATE TABLE IF NOT EXISTS commands (
    command_id {serial} PRIMARY KEY,
    terminal_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    done_ms BIGINT NOT NULL,
    result TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS commands_pending ON commands (state, terminal_id);
CREATE TABLE IF NOT EXISTS voucher_audit (
    entry_id {serial} PRIMARY KEY,
    validation_number TEXT NOT NULL,
    kind TEXT NOT NULL,
    severity TEXT NOT NULL,
    terminal_id TEXT NOT NULL,
    operator TEXT NOT NULL,
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    detail TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS voucher_audit_by_number
    ON voucher_audit (validation_number, terminal_id, kind);
"""
    + STORES_SCHEMA
    + DEVICE_COUNTS_SCHEMA
    + REGISTRY_SCHEMA
    + FLOOR_ALARMS_SCHEMA
    + PROGRESSIVES_SCHEMA
)

#: the voucher states as stored (the enum's words)
VOUCHER_STATES = tuple(state.value for state in VoucherState)
#: event kinds that move a voucher (the rest are only recorded)
VOUCHER_KINDS = frozenset({"voucher_printed", "voucher_voided", "voucher_redeemed"})
#: an operator may release a reservation only when it, and the holder's silence, are this old
RELEASE_QUIET_MINUTES = 10
#: voucher_audit kinds -> severity: an operator's act, a contradicted release, money paid twice
AUDIT_KINDS = {
    "released": "operator",
    "late_returned": "exception",
    "late_stacked": "exception",  # "alarm" when another terminal held the voucher meanwhile
    "double_redemption": "alarm",
    "quarantined": "alarm",  # a printed report the host cannot match to a pending voucher
    "refused_void": "alarm",  # a void from a terminal that did not issue the voucher
    "refused_redeem": "alarm",  # a redemption from a terminal that did not hold it
}

log = logging.getLogger(__name__)


class HostDbError(Exception):
    """A request the records refuse (unknown voucher, not reserved here...)."""


def now_ms() -> int:
    """Epoch milliseconds."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class ReportResult:
    """What one report's commit acknowledged."""

    accepted: int
    duplicates: int
    acknowledged: JournalHead | None


@dataclass(frozen=True)
class Validation:
    """The answer to a ticket inserted at a terminal."""

    accepted: bool
    value: int = 0
    reason: str = ""


class _Cursor(Protocol):
    rowcount: int

    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...


class _Tx:
    """A transaction: ``execute`` with ``?`` placeholders on either back end."""

    def __init__(self, conn: Any, paramstyle: str) -> None:
        self._conn = conn
        #: PostgreSQL (a round trip, and a hand-over of the interpreter lock, a statement)
        self.postgres = paramstyle == "format"
        #: PostgreSQL: ``BEGIN`` sent (with the first statement, in one round trip)
        self.begun = False
        self.alarms: list[str] = []  # announced once the transaction has committed

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Cursor:
        if self.postgres:
            sql = sql.replace("?", "%s")
            if not self.begun:  # BEGIN and the first statement in one round trip
                self.begun = True
                with self._conn.pipeline():
                    self._conn.execute("BEGIN")
                    first: _Cursor = self._conn.execute(sql, params)
                return first  # its results arrived at the pipeline's end
        cursor: _Cursor = self._conn.execute(sql, params)
        return cursor

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """One statement for many parameter rows (pipelined on PostgreSQL)."""
        if not rows:
            return
        if self.postgres:
            if not self.begun:
                self.begun = True
                self._conn.execute("BEGIN")
            with self._conn.cursor() as cursor:
                cursor.executemany(sql.replace("?", "%s"), rows)
        else:
            self._conn.executemany(sql, rows)

    def pipeline(self) -> AbstractContextManager[Any]:
        """Statements sent together and answered in one round trip at the block's end (or at
        the first result read inside it): PostgreSQL's pipeline mode; nothing on SQLite."""
        return self._conn.pipeline() if self.postgres else nullcontext()


class HostDb(ABC):
    """The host's records on SQLite (``open_db("path.sqlite3")``) or PostgreSQL."""

    def __init__(self) -> None:
        self.voucher_expiry_ms = 30 * 86_400_000
        self.limits = Limits()
        self.release_quiet_ms = RELEASE_QUIET_MINUTES * 60_000
        #: refuse a note reported without its device count (kiosk/host/accounting/device_counts.py)
        self.require_device_counts = False

    # --- back-end specifics (overridden) ------------------------------------------------------

    @abstractmethod
    def transaction(self) -> AbstractContextManager[_Tx]:
        """One unit of work: committed when the block ends, rolled back when it raises."""

    @abstractmethod
    def close(self) -> None:
        """Release connections."""

    # --- terminals ------------------------------------------------------------------------------

    def hello(self, terminal_id: str, version: str, signature: str, at: int) -> None:
        """A terminal connected: register it or refresh what it runs."""
        with self.transaction() as tx:
            tx.execute(
                "INSERT INTO terminals VALUES (?, ?, ?, ?, ?, 1, 1, '', '', 0) "
                "ON CONFLICT (terminal_id) DO UPDATE SET"
                " software_version = excluded.software_version,"
                " software_signature = excluded.software_signature,"
                " last_seen_ms = excluded.last_seen_ms, hellos = terminals.hellos + 1",
                (terminal_id, version, signature, at, at),
            )

    def enroll(self, terminal_id: str, at: int, note: str = "") -> str | None:
        """Enrol a terminal (the host serves it from now on); its previous state."""
        with self.transaction() as tx:
            return registry.set_state(tx, terminal_id, registry.ENROLLED, at, note)

    def retire(self, terminal_id: str, at: int, note: str = "") -> str | None:
        """Retire a terminal (refused from now on); its previous state (None: never enrolled,
        and then nothing is written)."""
        with self.transaction() as tx:
            if terminal_id not in registry.states(tx):
                return None
            return registry.set_state(tx, terminal_id, registry.RETIRED, at, note)

    def registry_states(self) -> dict[str, str]:
        """Every registered terminal's state (``enrolled`` or ``retired``)."""
        with self.transaction() as tx:
            return registry.states(tx)

    def registry(self) -> list[RegistryEntry]:
        """The registry, by terminal id."""
        rows = self._query("SELECT * FROM terminal_registry ORDER BY terminal_id")
        return [RegistryEntry.from_row(row) for row in rows]

    def refuse_identity(self, name: str, reason: str, at: int) -> None:
        """An ``identity_refused`` floor alarm (once per name and reason)."""
        with self.transaction() as tx:
            stores.terminal_alarm(tx, name, "identity_refused", at, {"reason": reason})
        _announce(tx)

    def seen(self, terminal_id: str, at: int) -> None:
        """Note contact from a terminal."""
        with self.transaction() as tx:
            self._seen(tx, terminal_id, at)

    def _seen(self, tx: _Tx, terminal_id: str, at: int) -> None:
        tx.execute(
            "UPDATE terminals SET last_seen_ms = ? WHERE terminal_id = ? AND last_seen_ms < ?",
            (at, terminal_id, at),
        )

    def set_auth_result(self, terminal_id: str, result: str, at: int) -> None:
        """Record the outcome of a software authentication."""
        with self.transaction() as tx:
            tx.execute(
                "UPDATE terminals SET auth_result = ?, auth_ms = ? WHERE terminal_id = ?",
                (result, at, terminal_id),
            )

    # --- store-and-forward ------------------------------------------------------------------------

    def record(
        self,
        terminal_id: str,
        messages: Sequence[Message],
        at: int,
        head: JournalHead | None = None,
    ) -> tuple[int, int]:
        """Record a batch in one transaction; (accepted, duplicates) (see :meth:`record_report`)."""
        accepted, duplicates, _ = self.record_report(terminal_id, messages, at, head)
        return accepted, duplicates

    def record_report(
        self,
        terminal_id: str,
        messages: Sequence[Message],
        at: int,
        head: JournalHead | None = None,
    ) -> tuple[int, int, JournalHead | None]:
        """Record a batch in one transaction; (accepted, duplicates, the acknowledged head).

        ``head`` is the terminal's journal head the batch came with: its epoch is the batch's
        meter epoch (0 without a head) and it becomes the acknowledged head
        (:mod:`kiosk.host.accounting.stores`) when the transaction commits.
        """
        with self.transaction() as tx:
            result = self._record_in(tx, terminal_id, messages, at, head)
        _announce(tx)
        return result

    def record_reports(self, reports: Sequence[Report]) -> list[ReportResult]:
        """Record many terminals' reports in **one** transaction (group commit).

        Each report is recorded exactly as :meth:`record_report` would record it; the results
        (in the order given) hold only once the one commit returned, so none is acknowledged
        before it is durable.  Reports are taken in terminal order, so that two hosts'
        groups on one PostgreSQL lock the terminals' rows in the same order.  The ordinary
        ones are recorded set-wise (:mod:`kiosk.host.accounting.group_record`), the rest one
        statement at a time.  If anything raises, nothing of the group is recorded (the caller
        records them one by one).
        """
        order = sorted(range(len(reports)), key=lambda i: reports[i].terminal_id)
        slow: set[str] = set()
        while True:
            try:
                with self.transaction() as tx:
                    results = self._record_group(tx, reports, order, slow)
            except ContendedError as exc:  # rolled back; those terminals again one by one
                slow |= exc.terminals
                continue
            _announce(tx)
            return results

    def _record_group(
        self, tx: _Tx, reports: Sequence[Report], order: Sequence[int], slow: set[str]
    ) -> list[ReportResult]:
        results: list[ReportResult | None] = [None] * len(reports)
        counted = {  # a device count is checked one statement at a time (rare: notes)
            r.terminal_id
            for r in reports
            if device_counts.counted(r.messages, self.require_device_counts)
        }
        setwise = record_setwise(tx, [(i, reports[i]) for i in order], slow | counted)
        for i, result in setwise.items():
            results[i] = ReportResult(*result)
        for i in order:
            if i not in setwise:
                r = reports[i]
                results[i] = ReportResult(
                    *self._record_in(tx, r.terminal_id, r.messages, r.at, r.head)
                )
        return [r for r in results if r is not None]

    def _record_in(
        self,
        tx: _Tx,
        terminal_id: str,
        messages: Sequence[Message],
        at: int,
        head: JournalHead | None,
    ) -> tuple[int, int, JournalHead | None]:
        accepted = duplicates = 0
        acknowledged = None
        epoch = head.epoch if head is not None else 0
        self._seen(tx, terminal_id, at)
        current = stores.enter_epoch(tx, terminal_id, epoch, messages, at)
        for m in messages:
            if m.kind in device_counts.COUNTED_KINDS:
                m = device_counts.admit(tx, terminal_id, m, at, self.require_device_counts)
            if m.kind == PROGRESSIVE:  # display data: the newest reading kept, not an event
                if record_reading(tx, terminal_id, m, at):
                    accepted += 1
                else:
                    duplicates += 1
                continue
            if m.kind == "meters":
                cur = tx.execute(
                    "INSERT INTO meter_snapshots VALUES (?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (message_id) DO NOTHING",
                    (
                        m.message_id,
                        terminal_id,
                        m.journal_seq,
                        m.at_ms,
                        m.body.get("reason", ""),
                        json.dumps(m.body.get("meters", {}), sort_keys=True),
                        at,
                    ),
                )
            else:
                cur = tx.execute(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (message_id) DO NOTHING",
                    (
                        m.message_id,
                        terminal_id,
                        m.journal_seq,
                        m.at_ms,
                        m.kind,
                        json.dumps(m.body, sort_keys=True),
                        at,
                    ),
                )
            if cur.rowcount == 0:
                duplicates += 1
                continue
            accepted += 1
            if m.kind == "meters" and current:
                stores.compare_meters(tx, terminal_id, epoch, m, at)
            elif m.kind in VOUCHER_KINDS:
                self._voucher_event(tx, terminal_id, m, at)
            elif m.kind == REFUSED:  # kept out of every figure: an alarm names it
                detail = {"message_id": m.message_id, "kind": m.body["kind"], "why": m.body["why"]}
                stores.terminal_alarm(tx, terminal_id, m.body["alarm"], at, detail)
            elif m.kind == "head_withdrawn":
                stores.terminal_alarm(tx, terminal_id, m.kind, at, dict(m.body))
            elif (raised := floor_alarm(tx, terminal_id, m)) is not None:
                stores.terminal_alarm(tx, terminal_id, raised[0], m.at_ms, raised[1])
            elif m.kind == "enable":
                tx.execute(
                    "UPDATE terminals SET enabled = ?, disable_reason = ? WHERE terminal_id = ?",
                    (int(bool(m.body.get("enabled"))), m.body.get("reason", ""), terminal_id),
                )
        if head is not None:
            stores.acknowledge(tx, terminal_id, head, current, at)
            acknowledged = stores.anchor(tx, terminal_id)
        return accepted, duplicates, acknowledged

    def raise_alarm(self, terminal_id: str, kind: str, at: int, detail: dict[str, Any]) -> None:
        """Write a terminal alarm outside any report (a throttled report stores nothing else)."""
        with self.transaction() as tx:
            stores.terminal_alarm(tx, terminal_id, kind, at, detail)
        _announce(tx)

    def acknowledged_head(self, terminal_id: str) -> JournalHead | None:
        """The terminal's last journal head the host committed (its anchor)."""
        with self.transaction() as tx:
            return stores.anchor(tx, terminal_id)

    def _voucher_event(self, tx: _Tx, terminal_id: str, m: Message, at: int) -> None:
        number = str(m.body.get("validation_number", ""))
        value = int(m.body.get("value_cents", 0))
        if m.kind == "voucher_printed":
            cur = tx.execute(  # only the pending number issued to this terminal, for this value
                "UPDATE vouchers SET state = 'issued', updated_ms = ? WHERE validation_number = ?"
                " AND state = 'pending' AND issued_by = ? AND value_cents = ?",
                (at, number, terminal_id, value),
            )
            if cur.rowcount == 0:
                self._printed_unmatched(tx, terminal_id, number, value, m.at_ms, at)
        elif m.kind == "voucher_voided":
            cur = tx.execute(  # only the issuing terminal voids, only a pending voucher
                "UPDATE vouchers SET state = 'voided', updated_ms = ? "
                "WHERE validation_number = ? AND state = 'pending' AND issued_by = ?",
                (at, number, terminal_id),
            )
            if cur.rowcount == 0:
                self._voided_unmatched(tx, terminal_id, number, value, at)
        else:  # voucher_redeemed: the terminal's journal says it was credited
            cur = tx.execute(
                "UPDATE vouchers SET state = 'redeemed', updated_ms = ? "
                "WHERE validation_number = ? AND state = 'reserved' AND holder = ?",
                (at, number, terminal_id),
            )
            if cur.rowcount == 0:  # an event cannot be refused: anything odd goes to the audit
                self._stacked_unreserved(tx, terminal_id, number, at, journaled=m.at_ms)

    def _printed_unmatched(
        self, tx: _Tx, terminal_id: str, number: str, value: int, journaled: int, at: int
    ) -> None:
        """A printed report that moves no pending voucher: a repeat, or quarantined."""
        row = self._locked_voucher(tx, number)
        detail: dict[str, Any] = {"reported_value_cents": value, "journaled_ms": journaled}
        if row is None:  # a number the host never issued: recorded so that it is never redeemed
            tx.execute(
                "INSERT INTO vouchers VALUES (?, ?, 'quarantined', ?, ?, '', ?) "
                "ON CONFLICT (validation_number) DO NOTHING",
                (number, value, terminal_id, journaled, at),
            )
            detail["why"] = "the host never issued this number"
            self._audit(tx, number, "quarantined", terminal_id, at, detail=detail)
            return
        state, holder, known_value, issued_by = row[0], row[1], int(row[2]), row[3]
        if issued_by == terminal_id and known_value == value and state != "voided":
            return  # a repeated report of a voucher already moved on
        detail.update(state=state, holder=holder, value_cents=known_value, issued_to=issued_by)
        if issued_by != terminal_id:
            detail["why"] = f"issued to {issued_by}, not to {terminal_id}"
        elif known_value != value:
            detail["why"] = f"issued for {known_value} cents, reported printed for {value}"
            tx.execute(  # its own number with another value: never redeemable
                "UPDATE vouchers SET state = 'quarantined', updated_ms = ? "
                "WHERE validation_number = ? AND state = 'pending' AND issued_by = ?",
                (at, number, terminal_id),
            )
        else:
            detail["why"] = f"reported printed after it was {state}"
        self._audit(tx, number, "quarantined", terminal_id, at, detail=detail)

    def _voided_unmatched(
        self, tx: _Tx, terminal_id: str, number: str, value: int, at: int
    ) -> None:
        """A voided report that moves no pending voucher: a repeat, or refused and audited."""
        row = self._locked_voucher(tx, number)
        detail: dict[str, Any] = {"reported_value_cents": value}
        if row is not None:
            state, holder, known_value, issued_by = row[0], row[1], int(row[2]), row[3]
            if issued_by == terminal_id and state == "voided":
                return  # a repeated report
            detail.update(state=state, holder=holder, value_cents=known_value, issued_to=issued_by)
            if issued_by == terminal_id:
                detail["why"] = f"only a pending voucher is voided; this one is {state}"
                self._audit(
                    tx, number, "refused_void", terminal_id, at, detail=detail, severity="exception"
                )
                return
            detail["why"] = f"issued to {issued_by}, not to {terminal_id}"
        else:
            detail["why"] = "the host never issued this number"
        self._audit(tx, number, "refused_void", terminal_id, at, detail=detail)

    # --- vouchers -----------------------------------------------------------------------------

    def issue_validation_number(self, terminal_id: str, value: int, at: int) -> str:
        """A fresh 18-digit validation number, recorded as a pending voucher of ``value``."""
        if value <= 0:
            raise HostDbError("a voucher must be worth more than zero")
        if value > self.limits.ticket_out_limit:
            raise HostDbError(
                f"a voucher of {value} cents is over the host's ticket-out limit of"
                f" {self.limits.ticket_out_limit} cents"
            )
        while True:
            number = str(10**17 + secrets.randbelow(9 * 10**17))
            with self.transaction() as tx:
                cur = tx.execute(
                    "INSERT INTO vouchers VALUES (?, ?, 'pending', ?, ?, '', ?) "
                    "ON CONFLICT (validation_number) DO NOTHING",
                    (number, value, terminal_id, at, at),
                )
                if cur.rowcount == 1:
                    return number

    def validate_ticket(self, terminal_id: str, number: str, at: int) -> Validation:
        """Reserve an issued voucher for this terminal (atomic), or say why not."""
        with self.transaction() as tx:
            self._seen(tx, terminal_id, at)
            cur = tx.execute(
                "UPDATE vouchers SET state = 'reserved', holder = ?, updated_ms = ? "
                "WHERE validation_number = ? AND issued_ms > ? AND value_cents <= ? AND "
                "(state = 'issued' OR (state = 'reserved' AND holder = ?))",
                (
                    terminal_id,
                    at,
                    number,
                    at - self.voucher_expiry_ms,
                    self.limits.ticket_in_limit,
                    terminal_id,
                ),
            )
            row = tx.execute(
                "SELECT value_cents, state, holder, issued_ms FROM vouchers "
                "WHERE validation_number = ?",
                (number,),
            ).fetchone()
        if cur.rowcount == 1:
            return Validation(True, int(row[0]))
        if row is None:
            return Validation(False, reason="unknown voucher")
        value, state, holder, issued = int(row[0]), row[1], row[2], int(row[3])
        if state == "issued" and issued <= at - self.voucher_expiry_ms:
            return Validation(False, reason="expired")
        if state in ("issued", "reserved") and value > self.limits.ticket_in_limit:
            return Validation(False, value, "over the host's ticket-in limit")
        reasons = {
            "quarantined": "quarantined (not issued to the terminal that printed it)",
            "pending": "not yet confirmed printed",
            "voided": "voided",
            "reserved": "in use at another terminal",
            "redeemed": "already redeemed",
        }
        reason = reasons.get(state, state)
        if state == "redeemed" and holder == terminal_id:
            reason = "already redeemed at this terminal"
        return Validation(False, value, reason)

    def finish_ticket(self, terminal_id: str, number: str, stacked: bool, at: int) -> None:
        """The reserved voucher was stacked (redeemed) or handed back (issued again).

        A report that contradicts an operator's release is accepted and written to the audit
        (``late_stacked``, ``late_returned``); one for a voucher already redeemed at another
        terminal is written as a ``double_redemption`` and refused.
        """
        with self.transaction() as tx:
            self._seen(tx, terminal_id, at)
            if stacked:
                cur = tx.execute(
                    "UPDATE vouchers SET state = 'redeemed', updated_ms = ? "
                    "WHERE validation_number = ? AND state = 'reserved' AND holder = ?",
                    (at, number, terminal_id),
                )
            else:
                cur = tx.execute(
                    "UPDATE vouchers SET state = 'issued', holder = '', updated_ms = ? "
                    "WHERE validation_number = ? AND state = 'reserved' AND holder = ?",
                    (at, number, terminal_id),
                )
            if cur.rowcount == 1:
                return
            if stacked:
                refusal = self._stacked_unreserved(tx, terminal_id, number, at)
            else:
                refusal = self._returned_unreserved(tx, terminal_id, number, at)
        _announce(tx)
        if refusal is not None:
            raise HostDbError(refusal)

    # --- releases and the reports that contradict them ----------------------------------------

    def release_voucher(self, number: str, operator: str, reason: str, at: int) -> str:
        """Release a reservation its terminal will never finish: the voucher is ``issued`` again.

        Refused (:class:`HostDbError`, nothing changed) unless the voucher is ``reserved``, was
        reserved at least :attr:`release_quiet_ms` ago and its terminal has not been in contact
        for as long.  Written to the audit as ``released``; returns the terminal that held it.
        """
        operator, reason = operator.strip(), reason.strip()
        if not operator:
            raise HostDbError("a release needs the operator's name")
        if not reason:
            raise HostDbError("a release needs a reason")
        cutoff = at - self.release_quiet_ms
        need = _duration(self.release_quiet_ms)
        with self.transaction() as tx:
            row = tx.execute(
                f"SELECT v.state, v.holder, v.updated_ms, v.value_cents, {LAST_CONTACT} "
                "FROM vouchers v LEFT JOIN terminals t ON t.terminal_id = v.holder "
                "LEFT JOIN journal_anchors a ON a.terminal_id = v.holder "
                "WHERE v.validation_number = ?",
                (number,),
            ).fetchone()
            if row is None:
                raise HostDbError(f"no voucher {number}")
            state, holder, reserved_ms = row[0], row[1], int(row[2])
            value, last_seen = int(row[3]), int(row[4] or 0)
            if state != "reserved":
                raise HostDbError(
                    f"voucher {number} is {state}, not reserved: only a reservation can be released"
                )
            if reserved_ms > cutoff:
                raise HostDbError(
                    f"voucher {number} was reserved at {holder} {_duration(at - reserved_ms)}"
                    f" ago; a release needs {need}"
                )
            if last_seen > cutoff:
                raise HostDbError(
                    f"terminal {holder} was in contact {_duration(at - last_seen)} ago; a release"
                    f" needs {need} without contact (is it still running?)"
                )
            cur = tx.execute(  # the same conditions, atomically against a late report
                "UPDATE vouchers SET state = 'issued', holder = '', updated_ms = ? "
                "WHERE validation_number = ? AND state = 'reserved' AND holder = ? "
                f"AND updated_ms <= ? AND NOT EXISTS (SELECT 1 FROM {WITH_ANCHORS} "
                f"WHERE t.terminal_id = ? AND {LAST_CONTACT} > ?)",
                (at, number, holder, cutoff, holder, cutoff),
            )
            if cur.rowcount != 1:
                raise HostDbError(f"voucher {number} changed while being released; try again")
            detail = {"value_cents": value, "reserved_ms": reserved_ms, "last_seen_ms": last_seen}
            self._audit(tx, number, "released", holder, at, operator, reason, detail)
        return str(holder)

    def _stacked_unreserved(
        self, tx: _Tx, terminal_id: str, number: str, at: int, journaled: int | None = None
    ) -> str | None:
        """A stacked report for a voucher not reserved at ``terminal_id``; a refusal or None."""
        row = self._locked_voucher(tx, number)
        if row is None:
            if journaled is not None and not self._audited(
                tx, number, terminal_id, "refused_redeem"
            ):
                detail = {"journaled_ms": journaled, "why": "the host never issued this number"}
                self._audit(tx, number, "refused_redeem", terminal_id, at, detail=detail)
            return f"voucher {number} is not reserved at {terminal_id} (unknown)"
        state, holder, value = row[0], row[1], int(row[2])
        if state == "redeemed" and holder == terminal_id:
            return None  # a repeated report
        detail = {"value_cents": value, "state": state, "holder": holder}
        if journaled is not None:
            detail["journaled_ms"] = journaled
        if state == "redeemed":
            detail["release"] = self._last_release(tx, number)
            if not self._audited(tx, number, terminal_id, "double_redemption"):
                self._audit(tx, number, "double_redemption", terminal_id, at, detail=detail)
            return (
                f"voucher {number} is not reserved at {terminal_id}: already redeemed at"
                f" {holder}; recorded as a double redemption"
            )
        release = self._open_release(tx, number, terminal_id)
        if release is not None and state in ("issued", "reserved"):
            # credited here after an operator's release: the voucher is in this cash box
            tx.execute(
                "UPDATE vouchers SET state = 'redeemed', holder = ?, updated_ms = ? "
                "WHERE validation_number = ?",
                (terminal_id, at, number),
            )
            detail["release"] = release
            severity = "alarm" if state == "reserved" else "exception"
            self._audit(
                tx, number, "late_stacked", terminal_id, at, detail=detail, severity=severity
            )
            return None
        where = f"{state} at {holder}" if holder else state
        if journaled is not None:  # only the holder redeems: audited, the voucher unchanged
            detail["why"] = f"not reserved at {terminal_id} ({where})"
            if not self._audited(tx, number, terminal_id, "refused_redeem"):
                self._audit(tx, number, "refused_redeem", terminal_id, at, detail=detail)
        return f"voucher {number} is not reserved at {terminal_id} ({where})"

    def _returned_unreserved(self, tx: _Tx, terminal_id: str, number: str, at: int) -> str | None:
        """A returned report for a voucher not reserved at ``terminal_id``; a refusal or None."""
        row = self._locked_voucher(tx, number)
        if row is None:
            return f"voucher {number} is not reserved at {terminal_id} (unknown)"
        state, holder, value = row[0], row[1], int(row[2])
        release = self._open_release(tx, number, terminal_id)
        if release is not None:
            detail = {"value_cents": value, "state": state, "holder": holder, "release": release}
            self._audit(tx, number, "late_returned", terminal_id, at, detail=detail)
            return None
        if state == "issued":
            return None  # a repeated report
        where = f"{state} at {holder}" if holder else state
        return f"voucher {number} is not reserved at {terminal_id} ({where})"

    @staticmethod
    def _locked_voucher(tx: _Tx, number: str) -> Any:
        """(state, holder, value, issued_by) with the row locked: concurrent reports are taken in
        turn."""
        tx.execute(  # a no-op update takes the row lock on PostgreSQL (SQLite locks it all)
            "UPDATE vouchers SET updated_ms = updated_ms WHERE validation_number = ?", (number,)
        )
        return tx.execute(
            "SELECT state, holder, value_cents, issued_by FROM vouchers "
            "WHERE validation_number = ?",
            (number,),
        ).fetchone()

    def _open_release(self, tx: _Tx, number: str, terminal_id: str) -> dict[str, Any] | None:
        """The newest release of ``number`` from ``terminal_id`` it has not reported on since."""
        row = tx.execute(
            "SELECT r.entry_id, r.operator, r.reason, r.at_ms FROM voucher_audit r "
            "WHERE r.validation_number = ? AND r.terminal_id = ? AND r.kind = 'released' "
            "AND NOT EXISTS (SELECT 1 FROM voucher_audit l WHERE l.validation_number = "
            "r.validation_number AND l.terminal_id = r.terminal_id AND l.entry_id > r.entry_id "
            "AND l.kind IN ('late_stacked', 'late_returned', 'double_redemption')) "
            "ORDER BY r.entry_id DESC LIMIT 1",
            (number, terminal_id),
        ).fetchone()
        return None if row is None else _release(row)

    def _last_release(self, tx: _Tx, number: str) -> dict[str, Any] | None:
        row = tx.execute(
            "SELECT entry_id, operator, reason, at_ms, terminal_id FROM voucher_audit "
            "WHERE validation_number = ? AND kind = 'released' ORDER BY entry_id DESC LIMIT 1",
            (number,),
        ).fetchone()
        return None if row is None else {**_release(row), "terminal_id": row[4]}

    @staticmethod
    def _audited(tx: _Tx, number: str, terminal_id: str, kind: str) -> bool:
        row = tx.execute(
            "SELECT 1 FROM voucher_audit WHERE validation_number = ? AND terminal_id = ? "
            "AND kind = ?",
            (number, terminal_id, kind),
        ).fetchone()
        return row is not None

    @staticmethod
    def _audit(
        tx: _Tx,
        number: str,
        kind: str,
        terminal_id: str,
        at: int,
        operator: str = "",
        reason: str = "",
        detail: dict[str, Any] | None = None,
        severity: str | None = None,
    ) -> None:
        severity = severity or AUDIT_KINDS[kind]
        tx.execute(
            "INSERT INTO voucher_audit (validation_number, kind, severity, terminal_id, "
            "operator, reason, at_ms, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                number,
                kind,
                severity,
                terminal_id,
                operator,
                reason,
                at,
                json.dumps(detail or {}, sort_keys=True),
            ),
        )
        if severity == "alarm":
            text = json.dumps(detail or {}, sort_keys=True)
            tx.alarms.append(f"ALARM voucher {number}: {kind} reported by {terminal_id}: {text}")

    # --- commands -----------------------------------------------------------------------------

    def queue_command(self, terminal_id: str, kind: str, body: dict[str, Any], at: int) -> int:
        """Queue a command for a terminal; its id."""
        with self.transaction() as tx:
            row = tx.execute(
                "INSERT INTO commands (terminal_id, kind, body, state, created_ms, done_ms, result)"
                " VALUES (?, ?, ?, 'pending', ?, 0, '') RETURNING command_id",
                (terminal_id, kind, json.dumps(body, sort_keys=True), at),
            ).fetchone()
        return int(row[0])

    def pending_commands(self) -> list[tuple[int, str, str, dict[str, Any]]]:
        """Commands not yet sent: (id, terminal, kind, body), oldest first."""
        with self.transaction() as tx:
            rows = tx.execute(
                "SELECT command_id, terminal_id, kind, body FROM commands "
                "WHERE state = 'pending' ORDER BY command_id"
            ).fetchall()
        return [(int(i), t, k, json.loads(b)) for i, t, k, b in rows]

    def command_state(self, command_id: int, state: str, result: str, at: int) -> None:
        """Move a command on: 'sent', 'done' or 'failed' with its result."""
        with self.transaction() as tx:
            tx.execute(
                "UPDATE commands SET state = ?, result = ?, done_ms = ? WHERE command_id = ?",
                (state, result, at, command_id),
            )

    def claim_command(self, command_id: int, at: int) -> bool:
        """Move a command ``pending`` -> ``sent`` for this host; False when another host (or an
        earlier round) already did: the conditional update lets exactly one sender have it."""
        with self.transaction() as tx:
            cur = tx.execute(
                "UPDATE commands SET state = 'sent', done_ms = ? "
                "WHERE command_id = ? AND state = 'pending'",
                (at, command_id),
            )
            return cur.rowcount == 1

    def ping(self) -> None:
        """A round trip to the records (the health check); raises when they are away."""
        with self.transaction() as tx:
            tx.execute("SELECT 1").fetchone()

    def command(self, command_id: int) -> CommandRecord | None:
        """One command's record."""
        rows = self._query("SELECT * FROM commands WHERE command_id = ?", (command_id,))
        return CommandRecord.from_row(rows[0]) if rows else None

    # --- queries (the CLI) ----------------------------------------------------------------------

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.transaction() as tx:
            cur = tx.execute(sql, params)
            rows = cur.fetchall()
            names = [d[0] for d in cur.description]  # type: ignore[attr-defined]
        return [dict(zip(names, row, strict=True)) for row in rows]

    def terminals(self) -> list[TerminalRecord]:
        """Every terminal, with its event count, acknowledged head, RAM clears and alarms."""
        rows = self._query(TERMINALS_SQL)
        return [TerminalRecord.from_row(row) for row in rows]

    def terminal_alarms(
        self,
        terminal_id: str | None = None,
        severity: str | None = None,
        kind: str | None = None,
        last: int = 100,
    ) -> list[TerminalAlarm]:
        """RAM clears, meters that went backwards, epochs and heads out of line; newest first."""
        where, params = self._filters(terminal_id=terminal_id, severity=severity, kind=kind)
        rows = self._query(
            f"SELECT * FROM terminal_alarms{where} ORDER BY entry_id DESC LIMIT ?",
            (*params, last),
        )
        return [TerminalAlarm.from_row(row) for row in rows]

    def meter_epochs(self, terminal_id: str) -> list[MeterEpoch]:
        """A terminal's stores as the host saw them, newest first (RAM clear record or '')."""
        rows = self._query(
            "SELECT epoch, started_ms, ram_clear, snapshot_seq FROM meter_epochs "
            "WHERE terminal_id = ? ORDER BY started_ms DESC, epoch DESC",
            (terminal_id,),
        )
        return [MeterEpoch.from_row(row) for row in rows]

    def events(
        self, terminal_id: str | None = None, kind: str | None = None, last: int = 100
    ) -> list[EventRecord]:
        """Recorded events, newest first (by terminal journal order)."""
        where, params = self._filters(terminal_id=terminal_id, kind=kind)
        rows = self._query(
            f"SELECT * FROM events{where} ORDER BY terminal_id, journal_seq DESC, message_id DESC"
            " LIMIT ?",
            (*params, last),
        )
        return [EventRecord.from_row(row) for row in rows]

    def meter_history(self, terminal_id: str, last: int = 10) -> list[MeterSnapshotRecord]:
        """A terminal's meter snapshots, newest first."""
        rows = self._query(
            "SELECT * FROM meter_snapshots WHERE terminal_id = ? "
            "ORDER BY journal_seq DESC, at_ms DESC, received_ms DESC LIMIT ?",
            (terminal_id, last),
        )
        return [MeterSnapshotRecord.from_row(row) for row in rows]

    def progressives(self) -> list[ProgressiveReading]:
        """Each progressive meter's newest reading (docs/host.md "Progressives")."""
        with self.transaction() as tx:
            return read_progressives(tx)

    def latest_meters(self, terminal_id: str) -> dict[str, int]:
        """The terminal's newest meter snapshot (empty when none)."""
        rows = self.meter_history(terminal_id, 1)
        return dict(rows[0].meters) if rows else {}

    def vouchers(
        self, state: str | None = None, terminal_id: str | None = None, last: int = 100
    ) -> list[VoucherRecord]:
        """Vouchers, newest first."""
        where, params = self._filters(state=state, issued_by=terminal_id)
        rows = self._query(
            f"SELECT * FROM vouchers{where} ORDER BY issued_ms DESC, validation_number LIMIT ?",
            (*params, last),
        )
        return [VoucherRecord.from_row(row) for row in rows]

    def voucher(self, number: str) -> VoucherRecord | None:
        """One voucher's record."""
        rows = self._query("SELECT * FROM vouchers WHERE validation_number = ?", (number,))
        return VoucherRecord.from_row(rows[0]) if rows else None

    def voucher_audit(
        self, number: str | None = None, severity: str | None = None, last: int = 100
    ) -> list[VoucherAuditEntry]:
        """Releases and the reports that contradicted them, newest first."""
        where, params = self._filters(validation_number=number, severity=severity)
        rows = self._query(
            f"SELECT * FROM voucher_audit{where} ORDER BY entry_id DESC LIMIT ?", (*params, last)
        )
        return [VoucherAuditEntry.from_row(row) for row in rows]

    @staticmethod
    def _filters(**columns: str | None) -> tuple[str, tuple[str, ...]]:
        used = {k: v for k, v in columns.items() if v is not None}
        if not used:
            return "", ()
        return " WHERE " + " AND ".join(f"{k} = ?" for k in used), tuple(used.values())


def _announce(tx: _Tx) -> None:
    """Log a committed transaction's alarms (``turbokiosk host serve`` prints them)."""
    for text in tx.alarms:
        log.error("%s", text)


def _release(row: Sequence[Any]) -> dict[str, Any]:
    return {"entry_id": int(row[0]), "operator": row[1], "reason": row[2], "at_ms": int(row[3])}


def _duration(ms: int) -> str:
    """``12 min 5 s`` from milliseconds."""
    seconds = max(0, ms) // 1000
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


class SqliteHostDb(HostDb):
    """SQLite: one connection, WAL, ``synchronous=FULL``; transactions take a process lock."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=30
        )
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._lock = threading.Lock()
        self._conn.executescript(SCHEMA.format(serial="INTEGER") + constraints.sqlite_schema())
        with self.transaction() as tx:
            registry.migrate(tx, now_ms())

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield _Tx(self._conn, "qmark")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class PostgresHostDb(HostDb):
    """PostgreSQL through psycopg 3: one connection per thread, READ COMMITTED transactions."""

    def __init__(self, dsn: str) -> None:
        super().__init__()
        import psycopg

        self._psycopg = psycopg
        self.dsn = dsn
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()
        with self.transaction() as tx:
            tx.execute("SELECT pg_advisory_xact_lock(7166)")  # one schema creator at a time
            for statement in SCHEMA.format(serial="BIGSERIAL").split(";"):
                if statement.strip():
                    tx.execute(statement)
            known = tx.execute(
                "SELECT COUNT(*) FROM pg_trigger WHERE tgname = ANY(?)",
                (list(constraints.POSTGRES_TRIGGERS),),
            ).fetchone()[0]
            if known < len(constraints.POSTGRES_TRIGGERS):  # a running host's tables not locked
                for statement in constraints.postgres_statements():
                    tx.execute(statement)
            registry.migrate(tx, now_ms())

    def _conn(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = self._psycopg.connect(self.dsn, autocommit=True)
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """A transaction on the thread's connection: ``BEGIN`` goes with its first statement
        (one round trip less than psycopg's ``transaction()``, which waits for its answer),
        ``COMMIT`` at the end, ``ROLLBACK`` if anything raised."""
        if getattr(self._local, "in_transaction", False):
            raise HostDbError("a transaction inside another on one connection")
        conn = self._conn()
        if conn.info.transaction_status != self._psycopg.pq.TransactionStatus.IDLE:
            conn.rollback()  # left open by a failed rollback: nothing of it was committed
        tx = _Tx(conn, "format")
        self._local.in_transaction = True
        try:
            yield tx
        except BaseException:
            if tx.begun and not conn.closed:
                with suppress(self._psycopg.Error):  # the first error is the one to tell
                    conn.rollback()
            raise
        else:
            if tx.begun:
                conn.commit()
        finally:
            self._local.in_transaction = False

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()


def open_db(target: str | Path) -> HostDb:
    """A ``postgresql://`` URL (or ``host=...`` DSN) opens PostgreSQL; else a SQLite file."""
    text = str(target)
    if text.startswith(("postgresql://", "postgres://", "host=")):
        return PostgresHostDb(text)
    return SqliteHostDb(Path(text))
