"""What the floor dashboard reads of the host's records: typed, read-only queries.

This module is the dashboard's one view of the host's tables (``terminals``, ``events``,
``meter_snapshots``, ``vouchers``, ``voucher_audit``, ``terminal_alarms``, ``commands``),
written against the columns documented in docs/host.md and run on a read-only connection
(:mod:`kiosk.host.web.sql`).  Money is in cents, times in epoch milliseconds.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.host.accounting.records import (
    TERMINALS_SQL,
    CommandRecord,
    MeterSnapshotRecord,
    Severity,
    TerminalRecord,
    VoucherAuditEntry,
    VoucherRecord,
    VoucherState,
)
from kiosk.host.web.sql import Connection
from kiosk.terminal.core.meters import CORE_METERS, MONEY_IN, MONEY_OUT

HOUR_MS = 3_600_000
#: the periods the meter pages offer: name -> (label, milliseconds back; 0 = everything)
PERIODS = {
    "hour": ("last hour", HOUR_MS),
    "24h": ("last 24 hours", 24 * HOUR_MS),
    "7d": ("last 7 days", 7 * 24 * HOUR_MS),
    "all": ("all time", 0),
}
VOUCHER_STATES = tuple(state.value for state in VoucherState)
#: meters counted in cents (the others count things: notes, games, doors...)
MONEY_METERS = frozenset({"coin_in", "coin_out", "handpaid_jackpots", *MONEY_IN, *MONEY_OUT})
#: terminal_alarms kinds shown as alarms besides those of severity 'alarm'
TERMINAL_NOTICES = frozenset({"ram_cleared"})
#: a terminal silent this long is offline (a working link says something every 5 s at most)
OFFLINE_AFTER_SECONDS = 30


def now_ms() -> int:
    """Epoch milliseconds."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class TerminalStatus:
    """One terminal as the floor sees it."""

    terminal_id: str
    software_version: str
    online: bool
    last_seen_ms: int
    enabled: bool
    disable_reason: str
    auth_result: str  # '', 'match' or 'mismatch'
    auth_ms: int
    events: int
    alarms: int

    @classmethod
    def of(cls, record: TerminalRecord, *, online: bool) -> TerminalStatus:
        """The floor's view of one of the host's terminal records."""
        return cls(
            terminal_id=record.terminal_id,
            software_version=record.software_version,
            online=online,
            last_seen_ms=record.last_seen_ms,
            enabled=record.enabled,
            disable_reason=record.disable_reason,
            auth_result=record.auth_result,
            auth_ms=record.auth_ms,
            events=record.events,
            alarms=record.alarms,
        )

    def as_json(self) -> dict[str, Any]:
        """The fields as plain values (the live feed)."""
        return {
            "terminal_id": self.terminal_id,
            "software_version": self.software_version,
            "online": self.online,
            "last_seen_ms": self.last_seen_ms,
            "enabled": self.enabled,
            "disable_reason": self.disable_reason,
            "auth_result": self.auth_result,
            "auth_ms": self.auth_ms,
            "events": self.events,
            "alarms": self.alarms,
        }


@dataclass(frozen=True)
class GameFigures:
    """Games, coin-in and win of a group (terminal and game, or an hour)."""

    key: str  # 'TK-0001 turbo-football', or the hour's start in ms as text
    terminal_id: str
    edition: str
    hour_ms: int
    games: int
    coin_in: int
    win: int

    @property
    def hold(self) -> int:
        """Coin-in less win (cents)."""
        return self.coin_in - self.win

    @property
    def hold_percent(self) -> float | None:
        """Hold as a percentage of coin-in (None without coin-in)."""
        return 100.0 * self.hold / self.coin_in if self.coin_in else None


@dataclass(frozen=True)
class Alarm:
    """Something on the floor an operator must look at."""

    key: str  # unique and stable: 't:12' (terminal_alarms), 'v:7' (voucher_audit), 'c:TK:ms'
    kind: str
    severity: Severity
    terminal_id: str
    at_ms: int
    subject: str  # the voucher number, or ''
    text: str

    def as_json(self) -> dict[str, Any]:
        """The fields as plain values (the live feed)."""
        return {
            "key": self.key,
            "kind": self.kind,
            "severity": str(self.severity),
            "terminal_id": self.terminal_id,
            "at_ms": self.at_ms,
            "subject": self.subject,
            "text": self.text,
        }


def is_money(name: str) -> bool:
    """Whether a meter counts cents: the core money meters, each wager spot's in and out, each
    game's in and out (``bills_in.100`` counts notes, ``game.E.P.played`` games)."""
    if name in MONEY_METERS:
        return True
    if name.startswith(("wager_in.", "wager_out.")):
        return True
    return name.startswith("game.") and name.endswith((".in", ".out"))


def meter_order(names: set[str]) -> list[str]:
    """The terminal's core meters in their order, then the others by name."""
    core = [n for n in CORE_METERS if n in names]
    return core + sorted(names - set(core))


class Floor:
    """The host's records, read-only."""

    def __init__(self, conn: Connection, offline_after_seconds: int = OFFLINE_AFTER_SECONDS):
        self.conn = conn
        self.offline_after_ms = offline_after_seconds * 1000

    # --- terminals ------------------------------------------------------------------------------

    def terminals(self, at: int | None = None) -> list[TerminalStatus]:
        """Every terminal with its contact, enabling, authentication and counts."""
        at = now_ms() if at is None else at
        rows = self.conn.rows(TERMINALS_SQL)
        records = [TerminalRecord.from_row(_named(TerminalRecord, r)) for r in rows]
        limit = self.offline_after_ms
        return [TerminalStatus.of(t, online=at - t.last_seen_ms <= limit) for t in records]

    def terminal_ids(self) -> list[str]:
        """The terminals the host knows."""
        return [r[0] for r in self.conn.rows("SELECT terminal_id FROM terminals ORDER BY 1")]

    # --- meters ---------------------------------------------------------------------------------

    def latest_meters(self) -> list[MeterSnapshotRecord]:
        """Each terminal's newest meter snapshot (by journal order)."""
        rows = self.conn.rows(
            f"SELECT {_columns(MeterSnapshotRecord, 'm.')} FROM meter_snapshots m"
            " WHERE m.message_id = (SELECT n.message_id FROM meter_snapshots n"
            "  WHERE n.terminal_id = m.terminal_id"
            "  ORDER BY n.journal_seq DESC, n.at_ms DESC, n.received_ms DESC LIMIT 1)"
            " ORDER BY m.terminal_id"
        )
        return [MeterSnapshotRecord.from_row(_named(MeterSnapshotRecord, r)) for r in rows]

    def _games_sql(self, group: str) -> str:
        if self.conn.postgres:
            seats = "CROSS JOIN LATERAL jsonb_array_elements((e.body::jsonb)->'seats') s"
            edition = "((e.body::jsonb)->>'edition')"
            stake, paid = (
                "((s.value)->>'stake_cents')::bigint",
                "((s.value)->>'paid_cents')::bigint",
            )
        else:
            seats = "CROSS JOIN json_each(e.body, '$.seats') s"
            edition = "json_extract(e.body, '$.edition')"
            stake = "json_extract(s.value, '$.stake_cents')"
            paid = "json_extract(s.value, '$.paid_cents')"
        keys = {
            "game": f"e.terminal_id, {edition}",
            "hour": f"(e.at_ms / {HOUR_MS}) * {HOUR_MS}",
        }[group]
        return (
            f"SELECT {keys}, COUNT(DISTINCT e.message_id), COALESCE(SUM({stake}), 0),"
            f" COALESCE(SUM({paid}), 0) FROM events e {seats}"
            f" WHERE e.kind = 'game_played' AND e.at_ms >= ? AND e.at_ms < ?"
            f" GROUP BY {keys} ORDER BY {keys}"
        )

    def games_by_terminal(self, since_ms: int, until_ms: int) -> list[GameFigures]:
        """Games, coin-in and win by terminal and game between two instants."""
        rows = self.conn.rows(self._games_sql("game"), (since_ms, until_ms))
        return [
            GameFigures(f"{t} {ed}", t, str(ed or ""), 0, int(n), int(i), int(w))
            for t, ed, n, i, w in rows
        ]

    def games_by_hour(self, since_ms: int, until_ms: int) -> list[GameFigures]:
        """Games, coin-in and win of the whole floor per hour, every hour of the span listed."""
        rows = self.conn.rows(self._games_sql("hour"), (since_ms, until_ms))
        found = {int(h): (int(n), int(i), int(w)) for h, n, i, w in rows}
        out = []
        hour = since_ms // HOUR_MS * HOUR_MS
        while hour < until_ms:
            n, i, w = found.get(hour, (0, 0, 0))
            out.append(GameFigures(str(hour), "", "", hour, n, i, w))
            hour += HOUR_MS
        return out

    # --- vouchers -------------------------------------------------------------------------------

    def vouchers(self, state: str | None = None, last: int = 200) -> list[VoucherRecord]:
        """Vouchers, newest first."""
        where, params = (" WHERE state = ?", (state,)) if state else ("", ())
        rows = self.conn.rows(
            f"SELECT {_columns(VoucherRecord)} FROM vouchers{where}"
            " ORDER BY issued_ms DESC, validation_number LIMIT ?",
            (*params, last),
        )
        return [VoucherRecord.from_row(_named(VoucherRecord, r)) for r in rows]

    def voucher_states(self) -> dict[str, tuple[int, int]]:
        """state -> (count, value in cents)."""
        rows = self.conn.rows(
            "SELECT state, COUNT(*), COALESCE(SUM(value_cents), 0) FROM vouchers GROUP BY state"
        )
        found = {r[0]: (int(r[1]), int(r[2])) for r in rows}
        return {s: found.get(s, (0, 0)) for s in VOUCHER_STATES}

    def voucher_audit(self, last: int = 200) -> list[VoucherAuditEntry]:
        """The voucher audit, newest first."""
        rows = self.conn.rows(
            f"SELECT {_columns(VoucherAuditEntry)} FROM voucher_audit"
            " ORDER BY entry_id DESC LIMIT ?",
            (last,),
        )
        return [VoucherAuditEntry.from_row(_named(VoucherAuditEntry, r)) for r in rows]

    # --- alarms ---------------------------------------------------------------------------------

    def alarms(self, at: int | None = None, last: int = 200) -> list[Alarm]:
        """Alarms newest first: the terminals' (meters backwards, RAM clears, stores out of
        line), the vouchers' (double redemptions, quarantined numbers, refused reports) and
        communication loss (a terminal silent past the limit)."""
        at = now_ms() if at is None else at
        out = self.terminal_alarms_after(0, last) + self.voucher_alarms_after(0, last)
        out += self.communication_loss(at)
        out.sort(key=lambda a: (a.at_ms, a.key), reverse=True)
        return out[:last]

    def terminal_alarms_after(self, entry_id: int, last: int = 200) -> list[Alarm]:
        """Terminal alarms (and RAM clears) with an id above ``entry_id``."""
        rows = self.conn.rows(
            "SELECT entry_id, terminal_id, kind, severity, at_ms, detail FROM terminal_alarms"
            " WHERE entry_id > ? AND (severity = 'alarm' OR kind = 'ram_cleared')"
            " ORDER BY entry_id DESC LIMIT ?",
            (entry_id, last),
        )
        return [
            Alarm(f"t:{r[0]}", r[2], Severity(r[3]), r[1], int(r[4]), "", _detail_text(r[5]))
            for r in rows
        ]

    def voucher_alarms_after(self, entry_id: int, last: int = 200) -> list[Alarm]:
        """Voucher audit alarms with an id above ``entry_id``."""
        rows = self.conn.rows(
            "SELECT entry_id, validation_number, kind, severity, terminal_id, at_ms, detail"
            " FROM voucher_audit WHERE entry_id > ? AND severity = 'alarm'"
            " ORDER BY entry_id DESC LIMIT ?",
            (entry_id, last),
        )
        return [
            Alarm(f"v:{r[0]}", r[2], Severity(r[3]), r[4], int(r[5]), r[1], _detail_text(r[6]))
            for r in rows
        ]

    def communication_loss(self, at: int) -> list[Alarm]:
        """One alarm per terminal silent for longer than the limit."""
        rows = self.conn.rows(
            "SELECT terminal_id, last_seen_ms FROM terminals WHERE last_seen_ms < ?"
            " ORDER BY terminal_id",
            (at - self.offline_after_ms,),
        )
        return [
            Alarm(
                f"c:{t}:{seen}",
                "communication_loss",
                Severity.ALARM,
                t,
                int(seen) + self.offline_after_ms,
                "",
                f"no word from {t} for {(at - int(seen)) // 1000} s",
            )
            for t, seen in rows
        ]

    def alarm_cursor(self) -> tuple[int, int]:
        """The newest ids of the terminal alarms and the voucher audit (the live feed's start)."""
        t = self.conn.rows("SELECT COALESCE(MAX(entry_id), 0) FROM terminal_alarms")[0][0]
        v = self.conn.rows("SELECT COALESCE(MAX(entry_id), 0) FROM voucher_audit")[0][0]
        return int(t), int(v)

    # --- commands -------------------------------------------------------------------------------

    def command(self, command_id: int) -> CommandRecord | None:
        """One command's record."""
        rows = self.conn.rows(
            f"SELECT {_columns(CommandRecord)} FROM commands WHERE command_id = ?", (command_id,)
        )
        return CommandRecord.from_row(_named(CommandRecord, rows[0])) if rows else None


def _columns(record: type, prefix: str = "") -> str:
    """The columns of a record of :mod:`kiosk.host.accounting.records`, in its fields' order."""
    return ", ".join(prefix + f.name for f in dataclasses.fields(record))


def _named(record: type, row: Sequence[Any]) -> dict[str, Any]:
    """A row selected by :func:`_columns` as column name -> value."""
    return dict(zip((f.name for f in dataclasses.fields(record)), row, strict=True))


def _detail_text(detail: str) -> str:
    """An audit detail (JSON) as ``name=value`` pairs."""
    try:
        data = json.loads(detail)
    except ValueError:
        return detail
    if not isinstance(data, dict):
        return str(data)
    return ", ".join(f"{k}={json.dumps(v, sort_keys=True)}" for k, v in sorted(data.items()))
