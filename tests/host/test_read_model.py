"""One typed read model of the host's records (decision 0045): the host's queries and the floor
dashboard return the same frozen records, with the states and severities as enums, on SQLite
and PostgreSQL; ``as_json`` gives back the row's columns (the shape ``--json`` prints)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from kiosk.host.accounting import db as host_db_module
from kiosk.host.accounting.db import HostDb, PostgresHostDb, SqliteHostDb
from kiosk.host.accounting.records import (
    CommandRecord,
    CommandState,
    EventRecord,
    MeterSnapshotRecord,
    Severity,
    TerminalAlarm,
    TerminalRecord,
    VoucherAuditEntry,
    VoucherRecord,
    VoucherState,
)
from kiosk.host.web.floor import Floor
from kiosk.host.web.sql import Connection
from tests.helpers.web_records import populate


def _floor(db: HostDb) -> Floor:
    if isinstance(db, SqliteHostDb):
        return Floor(Connection(str(db.path), read_only=True))
    assert isinstance(db, PostgresHostDb)
    return Floor(Connection(db.dsn, read_only=True))


def test_the_host_and_the_dashboard_read_the_same_records(host_db: HostDb) -> None:
    populate(host_db)
    floor = _floor(host_db)
    try:
        statuses = floor.terminals()
        assert [(s.terminal_id, s.events, s.enabled) for s in statuses] == [
            (t.terminal_id, t.events, t.enabled) for t in host_db.terminals()
        ]
        # the floor counts a terminal's open alarms as its list holds them (issue 26): its
        # terminal alarms, the voucher alarms it reported, its communication loss
        listed = Counter(a.terminal_id for a in floor.open_alarms())
        assert {s.terminal_id: s.alarms for s in statuses} == {
            s.terminal_id: listed[s.terminal_id] for s in statuses
        }
        vouchers = host_db.vouchers()
        assert vouchers and all(isinstance(v, VoucherRecord) for v in vouchers)
        assert floor.vouchers() == vouchers
        assert {v.state for v in vouchers} == {
            VoucherState.ISSUED,
            VoucherState.REDEEMED,
            VoucherState.QUARANTINED,
        }
        audit = host_db.voucher_audit()
        assert audit and floor.voucher_audit() == audit
        assert all(isinstance(a, VoucherAuditEntry) and a.severity in Severity for a in audit)
        newest = {t: host_db.meter_history(t, 1) for t in ("TK-A", "TK-B")}
        assert floor.latest_meters() == [snaps[0] for snaps in newest.values()]
        assert floor.latest_meters()[1].value("coin_in") == 700  # the backwards snapshot
        command_id = host_db.queue_command("TK-A", "enable", {"enabled": True}, 1)
        record = host_db.command(command_id)
        assert isinstance(record, CommandRecord) and record == floor.command(command_id)
        assert record.state is CommandState.PENDING and not record.state.finished
        assert record.body == {"enabled": True}
    finally:
        floor.conn.close()


def test_the_records_are_typed_on_each_back_end(host_db: HostDb) -> None:
    populate(host_db)
    terminals = host_db.terminals()
    assert all(isinstance(t, TerminalRecord) for t in terminals)
    assert [t.terminal_id for t in terminals] == ["TK-A", "TK-B", "TK-SILENT"]
    assert terminals[0].enabled is True and terminals[0].ram_clears == 1
    alarms = host_db.terminal_alarms("TK-B", "alarm")
    assert alarms and all(isinstance(a, TerminalAlarm) for a in alarms)
    assert {a.severity for a in alarms} == {Severity.ALARM}
    events = host_db.events("TK-A", "game_played")
    assert events and all(isinstance(e, EventRecord) for e in events)
    assert all(isinstance(e.body["seats"], list) for e in events)
    snapshot = host_db.meter_history("TK-A", 1)[0]
    assert isinstance(snapshot, MeterSnapshotRecord) and snapshot.meters["coin_in"] == 2000


def test_as_json_gives_back_the_columns_as_stored(host_db: HostDb) -> None:
    populate(host_db)
    terminal = host_db.terminals()[0].as_json()
    assert terminal["enabled"] == 1 and type(terminal["enabled"]) is int
    voucher = host_db.vouchers()[0].as_json()
    assert set(voucher) == {f.name for f in dataclasses.fields(VoucherRecord)}
    assert type(voucher["state"]) is str and voucher["state"] in {s.value for s in VoucherState}
    entry = host_db.voucher_audit()[0]
    assert entry.as_json()["detail"] == dict(entry.detail)
    assert type(entry.as_json()["severity"]) is str


def test_the_voucher_states_are_the_ones_the_schema_allows() -> None:
    check = re.search(r"state IN\s*\(([^)]*)\)", host_db_module.SCHEMA)
    assert check is not None
    allowed = re.findall(r"'(\w+)'", check[1])
    assert allowed == [s.value for s in VoucherState] == list(host_db_module.VOUCHER_STATES)


@pytest.mark.parametrize("state", ["pending", "sent", "done", "failed"])
def test_a_command_state_reads_as_the_word_stored(state: str) -> None:
    assert CommandState(state) == state and f"{CommandState(state):<7}" == f"{state:<7}"
