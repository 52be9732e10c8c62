"""What the floor dashboard reads of the host's records: typed, read-only queries.

This module is the dashboard's one view of the host's tables (``terminals``, ``events``,
``meter_snapshots``, ``vouchers``, ``voucher_audit``, ``terminal_alarms``, ``commands``,
``progressive_meters``) and of
its own acknowledgements (``web_alarm_acks``), written against the columns documented in
docs/host.md and run on a read-only connection (:mod:`kiosk.host.web.sql`).  Money is in
cents, times in epoch milliseconds.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.host.accounting.floor_alarms import NOTICES_SQL
from kiosk.host.accounting.progressives import READINGS_SQL, ProgressiveReading, readings
from kiosk.host.accounting.records import (
    LAST_CONTACT,
    TERMINALS_SQL,
    WITH_ANCHORS,
    CommandRecord,
    MeterSnapshotRecord,
    Severity,
    TerminalRecord,
    VoucherAuditEntry,
    VoucherRecord,
    VoucherState,
)
from kiosk.host.web.sql import Connection
from kiosk.kernel.money_text import dollars
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
TERMINAL_NOTICES = ("ram_cleared", "tilt", "handpay")
#: the SQL condition of the terminal alarms the floor shows
SHOWN_SQL = (
    "(severity = 'alarm' OR kind IN (" + ", ".join(f"'{k}'" for k in TERMINAL_NOTICES) + "))"
)
#: the lifetime meters the meters page shows per terminal (the rest are on its own page)
LIFETIME_COLUMNS = (
    "coin_in",
    "coin_out",
    "bills_in",
    "tickets_in",
    "tickets_out",
    "handpaid_cancelled_credits",
    "handpaid_jackpots",
    "games_played",
    "door_opens",
    "power_resets",
    "tilts",
)
#: at most this many open alarms are listed (the count says how many there are)
OPEN_SHOWN = 500
#: a progressive no terminal has reported for this long is shown stale (three of the host's
#: default 60 s meter periods: the readings come with the periodic meter snapshots)
PROGRESSIVE_STALE_SECONDS = 180
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
    alarms: int  # alarms not acknowledged

    @classmethod
    def of(cls, record: TerminalRecord, *, online: bool, alarms: int) -> TerminalStatus:
        """The floor's view of one of the host's terminal records (``alarms``: its alarms
        not acknowledged, as the alarm list counts them)."""
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
            alarms=alarms,
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
    """Games, coin-in, paid out and the casino's win of a group (terminal and game, or an
    hour)."""

    key: str  # 'TK-0001 turbo-football', or the hour's start in ms as text
    terminal_id: str
    edition: str
    hour_ms: int
    games: int
    coin_in: int  # what the players wagered
    paid: int  # what the players were paid (stakes returned included)

    @property
    def win(self) -> int:
        """The casino's win: coin-in less what was paid (cents; negative when it lost)."""
        return self.coin_in - self.paid

    @property
    def hold_percent(self) -> float | None:
        """The casino's win as a percentage of coin-in (None without coin-in)."""
        return 100.0 * self.win / self.coin_in if self.coin_in else None


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
    acked_by: str = ""  # the dashboard user who acknowledged it ('' while open)
    acked_ms: int = 0

    @property
    def open(self) -> bool:
        """Not acknowledged yet."""
        return not self.acked_by

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


@dataclass(frozen=True)
class Notice:
    """One of a terminal's events the floor lists: a door, a tilt, a handpay, power..."""

    message_id: str
    journal_seq: int
    at_ms: int
    kind: str
    what: str  # 'main door opened', 'tilt paper_out: printer out of paper', ...
    attention: bool  # an attendant's matter (a door, a tilt raised, a handpay)


@dataclass(frozen=True)
class Handpay:
    """A handpay as the terminal reported it, and its reset when the attendant paid."""

    message_id: str
    terminal_id: str
    journal_seq: int
    at_ms: int
    seat: int
    value_cents: int
    kind: str  # 'jackpot' or 'cancelled_credits'
    paid_ms: int  # 0 while waiting
    paid_by: str

    @property
    def what(self) -> str:
        """``Jackpot`` or ``Cancelled credits``."""
        return self.kind.replace("_", " ").capitalize()


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
        self._has_acks = False

    def _acks_exist(self) -> bool:
        """Whether the dashboard's ``web_alarm_acks`` is there (made by its accounts; a
        :class:`Floor` on records no dashboard has opened sees every alarm open)."""
        if not self._has_acks:
            sql = (
                "SELECT to_regclass('web_alarm_acks') IS NOT NULL"
                if self.conn.postgres
                else "SELECT COUNT(*) FROM sqlite_master WHERE name = 'web_alarm_acks'"
            )
            self._has_acks = bool(self.conn.rows(sql)[0][0])
        return self._has_acks

    def _not_acked(self, prefix: str) -> str:
        """The SQL condition: the alarm of row ``r`` (key ``prefix:entry_id``) is open."""
        if not self._acks_exist():
            return ""
        return (
            " AND NOT EXISTS (SELECT 1 FROM web_alarm_acks k"
            f" WHERE k.alarm_key = '{prefix}:' || r.entry_id)"
        )

    # --- terminals ------------------------------------------------------------------------------

    def terminals(self, at: int | None = None) -> list[TerminalStatus]:
        """Every terminal with its contact, enabling, authentication and counts."""
        at = now_ms() if at is None else at
        rows = self.conn.rows(TERMINALS_SQL)
        records = [TerminalRecord.from_row(_named(TerminalRecord, r)) for r in rows]
        limit = self.offline_after_ms
        counts = self.open_counts(at)
        return [
            TerminalStatus.of(
                t, online=at - t.last_seen_ms <= limit, alarms=counts.get(t.terminal_id, 0)
            )
            for t in records
        ]

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

    def alarms(
        self, at: int | None = None, last: int = 200, *, open_only: bool = False
    ) -> list[Alarm]:
        """Alarms newest first, each with its acknowledgement: the terminals' (doors opened
        outside service, tilts, handpays, meters backwards, RAM clears, stores out of line), the
        vouchers' (double redemptions, quarantined numbers, refused reports) and communication
        loss (a terminal silent past the limit).  ``open_only``: those not acknowledged."""
        at = now_ms() if at is None else at
        out = self.terminal_alarms_after(0, last, open_only=open_only)
        out += self.voucher_alarms_after(0, last, open_only=open_only)
        out += self.communication_loss(at)
        acks = self.acks([a.key for a in out])
        out = [_acked(a, acks.get(a.key)) for a in out]
        if open_only:
            out = [a for a in out if a.open]
        out.sort(key=lambda a: (a.at_ms, a.key), reverse=True)
        return out[:last]

    def open_alarms(self, at: int | None = None) -> list[Alarm]:
        """Every alarm not acknowledged yet (at most :data:`OPEN_SHOWN`), newest first."""
        return self.alarms(at, OPEN_SHOWN, open_only=True)

    def open_counts(self, at: int | None = None) -> dict[str, int]:
        """terminal -> its alarms not acknowledged (what the floor's row and count show)."""
        at = now_ms() if at is None else at
        counts: dict[str, int] = {}
        for sql in (
            "SELECT terminal_id, COUNT(*) FROM terminal_alarms r WHERE "
            + SHOWN_SQL
            + self._not_acked("t")
            + " GROUP BY terminal_id",
            "SELECT terminal_id, COUNT(*) FROM voucher_audit r WHERE severity = 'alarm'"
            + self._not_acked("v")
            + " GROUP BY terminal_id",
        ):
            for terminal, n in self.conn.rows(sql):
                counts[terminal] = counts.get(terminal, 0) + int(n)
        lost = self.communication_loss(at)
        acks = self.acks([a.key for a in lost])
        for alarm in lost:
            if alarm.key not in acks:
                counts[alarm.terminal_id] = counts.get(alarm.terminal_id, 0) + 1
        return counts

    def alarm(self, key: str, at: int | None = None) -> Alarm | None:
        """One alarm by its key (None when there is no such alarm)."""
        kind, _, rest = key.partition(":")
        if kind in ("t", "v") and rest.isascii() and rest.isdigit() and len(rest) < 19:
            after = int(rest) - 1
            if kind == "t":
                found = self.terminal_alarms_after(after, 1, upto=int(rest))
            else:
                found = self.voucher_alarms_after(after, 1, upto=int(rest))
        elif kind == "c":
            found = [
                a for a in self.communication_loss(now_ms() if at is None else at) if a.key == key
            ]
        else:
            return None
        if not found:
            return None
        return _acked(found[0], self.acks([key]).get(key))

    def acks(self, keys: Sequence[str]) -> dict[str, tuple[str, int]]:
        """alarm key -> (who acknowledged it, when) for those of ``keys`` acknowledged."""
        out: dict[str, tuple[str, int]] = {}
        if not self._acks_exist():
            return out
        wanted = list(dict.fromkeys(keys))
        for i in range(0, len(wanted), 500):
            part = wanted[i : i + 500]
            marks = ", ".join("?" for _ in part)
            rows = self.conn.rows(
                "SELECT alarm_key, username, at_ms FROM web_alarm_acks"
                f" WHERE alarm_key IN ({marks})",
                part,
            )
            out.update({r[0]: (r[1], int(r[2])) for r in rows})
        return out

    def terminal_alarms_after(
        self, entry_id: int, last: int = 200, *, open_only: bool = False, upto: int | None = None
    ) -> list[Alarm]:
        """Terminal alarms (and RAM clears, tilts, handpays) with an id above ``entry_id``."""
        where = " AND r.entry_id <= ?" if upto is not None else ""
        if open_only:
            where += self._not_acked("t")
        rows = self.conn.rows(
            "SELECT entry_id, terminal_id, kind, severity, at_ms, detail FROM terminal_alarms r"
            f" WHERE entry_id > ? AND {SHOWN_SQL}{where}"
            " ORDER BY entry_id DESC LIMIT ?",
            (entry_id, *(() if upto is None else (upto,)), last),
        )
        return [
            Alarm(f"t:{r[0]}", r[2], Severity(r[3]), r[1], int(r[4]), "", alarm_text(r[2], r[5]))
            for r in rows
        ]

    def voucher_alarms_after(
        self, entry_id: int, last: int = 200, *, open_only: bool = False, upto: int | None = None
    ) -> list[Alarm]:
        """Voucher audit alarms with an id above ``entry_id``."""
        where = " AND r.entry_id <= ?" if upto is not None else ""
        if open_only:
            where += self._not_acked("v")
        rows = self.conn.rows(
            "SELECT entry_id, validation_number, kind, severity, terminal_id, at_ms, detail"
            f" FROM voucher_audit r WHERE entry_id > ? AND severity = 'alarm'{where}"
            " ORDER BY entry_id DESC LIMIT ?",
            (entry_id, *(() if upto is None else (upto,)), last),
        )
        return [
            Alarm(f"v:{r[0]}", r[2], Severity(r[3]), r[4], int(r[5]), r[1], _detail_text(r[6]))
            for r in rows
        ]

    def communication_loss(self, at: int) -> list[Alarm]:
        """One alarm per terminal silent for longer than the limit."""
        rows = self.conn.rows(
            f"SELECT t.terminal_id, {LAST_CONTACT} FROM {WITH_ANCHORS}"
            f" WHERE {LAST_CONTACT} < ? ORDER BY t.terminal_id",
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

    # --- a terminal's page, handpays ------------------------------------------------------------

    def terminal(self, terminal_id: str, at: int | None = None) -> TerminalStatus | None:
        """One terminal as the floor sees it (None when the host does not know it)."""
        found = [t for t in self.terminals(at) if t.terminal_id == terminal_id]
        return found[0] if found else None

    def notices(self, terminal_id: str, last: int = 100) -> list[Notice]:
        """The terminal's doors, tilts, handpays, power, service and enabling, newest first."""
        rows = self.conn.rows(
            "SELECT message_id, journal_seq, at_ms, kind, body FROM events"
            f" WHERE terminal_id = ? AND {NOTICES_SQL}"
            " ORDER BY journal_seq DESC, at_ms DESC LIMIT ?",
            (terminal_id, last),
        )
        out = []
        for message_id, seq, at, kind, body in rows:
            data = json.loads(body) if isinstance(body, str | bytes) else body
            what, attention = notice_text(kind, data)
            out.append(Notice(message_id, int(seq), int(at), kind, what, attention))
        return out

    def meters_of(self, terminal_id: str) -> MeterSnapshotRecord | None:
        """The terminal's newest meter snapshot."""
        found = [s for s in self.latest_meters() if s.terminal_id == terminal_id]
        return found[0] if found else None

    def vouchers_of(self, terminal_id: str, last: int = 50) -> list[VoucherRecord]:
        """Vouchers the terminal printed or holds, newest first."""
        rows = self.conn.rows(
            f"SELECT {_columns(VoucherRecord)} FROM vouchers WHERE issued_by = ? OR holder = ?"
            " ORDER BY issued_ms DESC, validation_number LIMIT ?",
            (terminal_id, terminal_id, last),
        )
        return [VoucherRecord.from_row(_named(VoucherRecord, r)) for r in rows]

    def progressives(self) -> list[ProgressiveReading]:
        """Each progressive meter's newest reading, by name and source (none on records no
        host of this version has opened)."""
        sql = (
            "SELECT to_regclass('progressive_meters') IS NOT NULL"
            if self.conn.postgres
            else "SELECT COUNT(*) FROM sqlite_master WHERE name = 'progressive_meters'"
        )
        if not self.conn.rows(sql)[0][0]:
            return []
        return readings(self.conn.rows(READINGS_SQL))

    def handpays(self, terminal_id: str | None = None, last: int = 200) -> list[Handpay]:
        """Handpays newest first, each with the reset that paid it (if any)."""
        where, params = (" AND terminal_id = ?", (terminal_id,)) if terminal_id else ("", ())
        rows = self.conn.rows(
            "SELECT message_id, terminal_id, journal_seq, at_ms, kind, body FROM events"
            f" WHERE {NOTICES_SQL} AND kind IN ('handpay_locked', 'handpay_reset'){where}"
            " ORDER BY terminal_id, journal_seq, at_ms",
            params,
        )
        waiting: list[Handpay] = []
        done: list[Handpay] = []
        for message_id, terminal, seq, at, kind, body in rows:
            data = json.loads(body) if isinstance(body, str | bytes) else body
            seat, value = int(data.get("seat", 0)), int(data.get("value_cents", 0))
            if kind == "handpay_locked":
                what = str(data.get("kind", ""))
                waiting.append(
                    Handpay(message_id, terminal, int(seq), int(at), seat, value, what, 0, "")
                )
                continue
            for i, h in enumerate(waiting):
                if (h.terminal_id, h.seat, h.value_cents) == (terminal, seat, value):
                    done.append(
                        dataclasses.replace(h, paid_ms=int(at), paid_by=str(data.get("by", "")))
                    )
                    del waiting[i]
                    break
        out = waiting + done
        out.sort(key=lambda h: (h.at_ms, h.message_id), reverse=True)
        return out[:last]

    def handpay(self, message_id: str) -> Handpay | None:
        """One handpay by the message that reported it."""
        rows = self.conn.rows(
            "SELECT terminal_id FROM events WHERE message_id = ? AND kind = 'handpay_locked'",
            (message_id,),
        )
        if not rows:
            return None
        found = [h for h in self.handpays(rows[0][0], 100_000) if h.message_id == message_id]
        return found[0] if found else None

    def voucher_search(self, digits: str, last: int = 50) -> list[VoucherRecord]:
        """Vouchers whose number is ``digits`` (18 digits) or contains them (fewer)."""
        if len(digits) == 18:
            where, param = "validation_number = ?", digits
        else:
            where, param = "validation_number LIKE ?", f"%{digits}%"
        rows = self.conn.rows(
            f"SELECT {_columns(VoucherRecord)} FROM vouchers WHERE {where}"
            " ORDER BY issued_ms DESC, validation_number LIMIT ?",
            (param, last),
        )
        return [VoucherRecord.from_row(_named(VoucherRecord, r)) for r in rows]

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


def _acked(alarm: Alarm, ack: tuple[str, int] | None) -> Alarm:
    return alarm if ack is None else dataclasses.replace(alarm, acked_by=ack[0], acked_ms=ack[1])


def alarm_text(kind: str, detail: str) -> str:
    """A terminal alarm's detail in words (the floor's own kinds), else as ``name=value``."""
    try:
        data = json.loads(detail)
    except ValueError:
        return detail
    if not isinstance(data, dict):
        return str(data)
    if kind == "door_open":
        return f"{data.get('door', '')} door opened outside service"
    if kind == "tilt":
        return f"tilt {data.get('code', '')}: {data.get('reason', '')}".rstrip(": ")
    if kind == "handpay":
        what = str(data.get("handpay", "")).replace("_", " ")
        return (
            f"handpay {dollars(int(data.get('value_cents', 0)))} {what}, seat {data.get('seat', 0)}"
        )
    return _detail_text(detail)


def notice_text(kind: str, body: dict[str, Any]) -> tuple[str, bool]:
    """One of the floor's events in words, and whether it is an attendant's matter."""
    if kind == "door":
        return f"{body.get('door', '')} door {'opened' if body.get('open') else 'closed'}", bool(
            body.get("open")
        )
    if kind == "tilt":
        code = body.get("code", "")
        if body.get("raised"):
            return f"tilt {code}: {body.get('reason', '')}".rstrip(": "), True
        by = body.get("by", "")
        return f"tilt {code} cleared" + (f" by {by}" if by else ""), False
    if kind == "handpay_locked":
        what = str(body.get("kind", "")).replace("_", " ")
        value = dollars(int(body.get("value_cents", 0)))
        return (
            f"handpay {value} {what}, seat {body.get('seat', 0)}: waiting for the attendant",
            True,
        )
    if kind == "handpay_reset":
        value = dollars(int(body.get("value_cents", 0)))
        return f"handpay {value} paid by {body.get('by', '') or 'the attendant'}", False
    if kind == "power_up":
        recovered = " (recovered a game in progress)" if body.get("recovered") else ""
        return f"powered up, software {body.get('software_version', '')}{recovered}", False
    if kind == "service":
        if body.get("active"):
            return f"service menu entered ({body.get('role', '')})", False
        return "service menu left", False
    if kind == "enable":
        if body.get("enabled"):
            return "play enabled" + (f": {body['reason']}" if body.get("reason") else ""), False
        return f"play disabled: {body.get('reason', '')}", False
    if kind == "ram_cleared":
        return f"RAM cleared by {body.get('by', '')}: {body.get('reason', '')}", True
    return kind.replace("_", " "), False
