"""The host's records, typed: one read model for ``turbokiosk host`` and the floor dashboard.

Each frozen dataclass is one row of a host table (columns as in docs/host.md), built by
``from_row`` from a row read on SQLite or PostgreSQL (a mapping of column names to values,
JSON columns as text or already decoded); ``as_json`` gives the row back as plain values, the
shape ``turbokiosk host ... --json`` prints.  States and severities are enums whose values are
the words stored in the tables (decision 0045).  Money is in cents, times in epoch milliseconds.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "TERMINALS_SQL",
    "CommandRecord",
    "CommandState",
    "EventRecord",
    "MeterEpoch",
    "MeterSnapshotRecord",
    "RegistryEntry",
    "RegistryState",
    "Severity",
    "TerminalAlarm",
    "TerminalRecord",
    "VoucherAuditEntry",
    "VoucherRecord",
    "VoucherState",
]


class VoucherState(StrEnum):
    """Where a voucher is in its life (``vouchers.state``; docs/host.md, the voucher states)."""

    PENDING = "pending"
    ISSUED = "issued"
    VOIDED = "voided"
    RESERVED = "reserved"
    REDEEMED = "redeemed"
    QUARANTINED = "quarantined"


class CommandState(StrEnum):
    """A queued host command (``commands.state``): pending -> sent -> done or failed."""

    PENDING = "pending"
    SENT = "sent"
    DONE = "done"
    FAILED = "failed"

    @property
    def finished(self) -> bool:
        """True once the terminal answered (done or failed)."""
        return self in (CommandState.DONE, CommandState.FAILED)


class Severity(StrEnum):
    """How much a terminal alarm or a voucher audit entry asks of the floor."""

    ALARM = "alarm"
    EXCEPTION = "exception"
    OPERATOR = "operator"


class RegistryState(StrEnum):
    """A terminal in the registry: served (enrolled) or refused (retired)."""

    ENROLLED = "enrolled"
    RETIRED = "retired"


def _decoded(value: Any) -> Any:
    """A JSON column: decoded from text (as stored), or as the driver already decoded it."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def _plain(record: object) -> dict[str, Any]:
    """A record's fields as plain values (enums as their stored words)."""
    out: dict[str, Any] = {}
    for field in dataclasses.fields(record):  # type: ignore[arg-type]
        value = getattr(record, field.name)
        out[field.name] = str(value) if isinstance(value, StrEnum) else value
    return out


#: a terminal's last contact, as SQL over ``terminals t`` joined (LEFT) with
#: ``journal_anchors a``: the later of ``t.last_seen_ms`` (the hello, and the reports recorded
#: one statement at a time) and ``a.acked_ms`` (the report that last moved its anchor, which a
#: group's ordinary reports write instead of the contact: decision 0076)
LAST_CONTACT = (
    "CASE WHEN COALESCE(a.acked_ms, 0) > t.last_seen_ms THEN a.acked_ms ELSE t.last_seen_ms END"
)
#: ``FROM`` terminals with their anchors, for :data:`LAST_CONTACT`
WITH_ANCHORS = "terminals t LEFT JOIN journal_anchors a ON a.terminal_id = t.terminal_id"

#: every terminal with its counts and acknowledged head, in :class:`TerminalRecord`'s order
#: (the host's ``terminals`` query and the dashboard's floor read it alike)
TERMINALS_SQL = (
    "SELECT t.terminal_id, t.software_version, t.software_signature, t.first_seen_ms,"
    f" {LAST_CONTACT} AS last_seen_ms, t.hellos, t.enabled, t.disable_reason, t.auth_result,"
    " t.auth_ms,"
    " (SELECT COUNT(*) FROM events e WHERE e.terminal_id = t.terminal_id) AS events,"
    " COALESCE(a.epoch, 0) AS epoch, COALESCE(a.seq, 0) AS acked_seq,"
    " COALESCE(a.hash, '') AS acked_hash, (SELECT COUNT(*) FROM terminal_alarms r"
    " WHERE r.terminal_id = t.terminal_id AND r.kind = 'ram_cleared') AS ram_clears,"
    " (SELECT COUNT(*) FROM terminal_alarms r WHERE r.terminal_id = t.terminal_id"
    " AND r.severity = 'alarm') AS alarms"
    f" FROM {WITH_ANCHORS} ORDER BY t.terminal_id"
)


@dataclass(frozen=True)
class TerminalRecord:
    """A terminal as the host knows it, with its event count, acknowledged head, RAM clears
    and alarms (``terminals`` joined with ``journal_anchors`` and counts)."""

    terminal_id: str
    software_version: str
    software_signature: str
    first_seen_ms: int
    last_seen_ms: int
    hellos: int
    enabled: bool
    disable_reason: str
    auth_result: str  # '', 'match' or 'mismatch'
    auth_ms: int
    events: int
    epoch: int  # the acknowledged head's store epoch (0: none yet)
    acked_seq: int
    acked_hash: str
    ram_clears: int
    alarms: int

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TerminalRecord:
        """The record of one row."""
        return cls(
            terminal_id=row["terminal_id"],
            software_version=row["software_version"],
            software_signature=row["software_signature"],
            first_seen_ms=int(row["first_seen_ms"]),
            last_seen_ms=int(row["last_seen_ms"]),
            hellos=int(row["hellos"]),
            enabled=bool(row["enabled"]),
            disable_reason=row["disable_reason"],
            auth_result=row["auth_result"],
            auth_ms=int(row["auth_ms"]),
            events=int(row["events"]),
            epoch=int(row["epoch"]),
            acked_seq=int(row["acked_seq"]),
            acked_hash=row["acked_hash"],
            ram_clears=int(row["ram_clears"]),
            alarms=int(row["alarms"]),
        )

    def as_json(self) -> dict[str, Any]:
        """The row as plain values (``enabled`` as stored: 1 or 0)."""
        return _plain(self) | {"enabled": int(self.enabled)}


@dataclass(frozen=True)
class RegistryEntry:
    """A terminal in the registry (``terminal_registry``)."""

    terminal_id: str
    state: RegistryState
    changed_ms: int
    note: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> RegistryEntry:
        """The record of one row."""
        return cls(
            row["terminal_id"], RegistryState(row["state"]), int(row["changed_ms"]), row["note"]
        )

    def as_json(self) -> dict[str, Any]:
        """The row as plain values."""
        return _plain(self)


@dataclass(frozen=True)
class TerminalAlarm:
    """A RAM clear, meters that went backwards, an epoch or head out of line...
    (``terminal_alarms``)."""

    entry_id: int
    terminal_id: str
    kind: str
    severity: Severity
    at_ms: int
    detail: Mapping[str, Any]

    @property
    def detail_text(self) -> str:
        """The detail as stored (JSON, keys sorted)."""
        return json.dumps(self.detail, sort_keys=True)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TerminalAlarm:
        """The record of one row."""
        return cls(
            entry_id=int(row["entry_id"]),
            terminal_id=row["terminal_id"],
            kind=row["kind"],
            severity=Severity(row["severity"]),
            at_ms=int(row["at_ms"]),
            detail=_decoded(row["detail"]),
        )

    def as_json(self) -> dict[str, Any]:
        """The row as plain values (``detail`` decoded)."""
        return _plain(self)


@dataclass(frozen=True)
class MeterEpoch:
    """One of a terminal's stores as the host saw it (``meter_epochs``)."""

    epoch: int
    started_ms: int
    ram_clear: Mapping[str, Any] | None  # the RAM clear that began it (None: none)
    snapshot_seq: int

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> MeterEpoch:
        """The record of one row."""
        clear = row["ram_clear"]
        return cls(
            epoch=int(row["epoch"]),
            started_ms=int(row["started_ms"]),
            ram_clear=_decoded(clear) if clear else None,
            snapshot_seq=int(row["snapshot_seq"]),
        )

    def as_json(self) -> dict[str, Any]:
        """The row as plain values."""
        return _plain(self)


@dataclass(frozen=True)
class EventRecord:
    """A journaled event a terminal reported (``events``)."""

    message_id: str
    terminal_id: str
    journal_seq: int
    at_ms: int
    kind: str
    body: Mapping[str, Any]
    received_ms: int

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> EventRecord:
        """The record of one row."""
        return cls(
            message_id=row["message_id"],
            terminal_id=row["terminal_id"],
            journal_seq=int(row["journal_seq"]),
            at_ms=int(row["at_ms"]),
            kind=row["kind"],
            body=_decoded(row["body"]),
            received_ms=int(row["received_ms"]),
        )

    def as_json(self) -> dict[str, Any]:
        """The row as plain values (``body`` decoded)."""
        return _plain(self)


@dataclass(frozen=True)
class MeterSnapshotRecord:
    """A terminal's lifetime meters at one journal row (``meter_snapshots``)."""

    message_id: str
    terminal_id: str
    journal_seq: int
    at_ms: int
    reason: str
    meters: Mapping[str, int]
    received_ms: int

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> MeterSnapshotRecord:
        """The record of one row."""
        return cls(
            message_id=row["message_id"],
            terminal_id=row["terminal_id"],
            journal_seq=int(row["journal_seq"]),
            at_ms=int(row["at_ms"]),
            reason=row["reason"],
            meters=_decoded(row["meters"]),
            received_ms=int(row["received_ms"]),
        )

    def value(self, name: str) -> int:
        """One meter (0 when the snapshot lacks it)."""
        return int(self.meters.get(name, 0))

    def as_json(self) -> dict[str, Any]:
        """The row as plain values (``meters`` decoded)."""
        return _plain(self)


@dataclass(frozen=True)
class VoucherRecord:
    """A voucher and its state (``vouchers``)."""

    validation_number: str
    value_cents: int
    state: VoucherState
    issued_by: str
    issued_ms: int
    holder: str  # the terminal holding a reserved or redeemed voucher ('' otherwise)
    updated_ms: int

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> VoucherRecord:
        """The record of one row."""
        return cls(
            validation_number=row["validation_number"],
            value_cents=int(row["value_cents"]),
            state=VoucherState(row["state"]),
            issued_by=row["issued_by"],
            issued_ms=int(row["issued_ms"]),
            holder=row["holder"],
            updated_ms=int(row["updated_ms"]),
        )

    def as_json(self) -> dict[str, Any]:
        """The row as plain values."""
        return _plain(self)


@dataclass(frozen=True)
class VoucherAuditEntry:
    """One entry of the host's voucher audit (``voucher_audit``)."""

    entry_id: int
    validation_number: str
    kind: str
    severity: Severity
    terminal_id: str
    operator: str
    reason: str
    at_ms: int
    detail: Mapping[str, Any]

    @property
    def detail_text(self) -> str:
        """The detail as stored (JSON, keys sorted)."""
        return json.dumps(self.detail, sort_keys=True)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> VoucherAuditEntry:
        """The record of one row."""
        return cls(
            entry_id=int(row["entry_id"]),
            validation_number=row["validation_number"],
            kind=row["kind"],
            severity=Severity(row["severity"]),
            terminal_id=row["terminal_id"],
            operator=row["operator"],
            reason=row["reason"],
            at_ms=int(row["at_ms"]),
            detail=_decoded(row["detail"]),
        )

    def as_json(self) -> dict[str, Any]:
        """The row as plain values (``detail`` decoded)."""
        return _plain(self)


@dataclass(frozen=True)
class CommandRecord:
    """A command queued for a terminal and what became of it (``commands``)."""

    command_id: int
    terminal_id: str
    kind: str
    body: Mapping[str, Any]
    state: CommandState
    created_ms: int
    done_ms: int
    result: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> CommandRecord:
        """The record of one row."""
        return cls(
            command_id=int(row["command_id"]),
            terminal_id=row["terminal_id"],
            kind=row["kind"],
            body=_decoded(row["body"]),
            state=CommandState(row["state"]),
            created_ms=int(row["created_ms"]),
            done_ms=int(row["done_ms"]),
            result=row["result"],
        )

    def as_json(self) -> dict[str, Any]:
        """The row as plain values (``body`` decoded)."""
        return _plain(self)
