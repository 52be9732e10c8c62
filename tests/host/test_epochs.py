"""Meter epochs and RAM clears: the host compares meters within a store's epoch, records an
operator's RAM clear as a new epoch, and raises an alarm when meters go backwards or the epoch
changes without a RAM clear -- sent by a test terminal over mutual TLS, on SQLite and PostgreSQL
(issue 11, item 2)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.host.accounting.db import HostDb, SqliteHostDb
from kiosk.terminal.hostlink.anchor import JournalHead
from kiosk.terminal.hostlink.client import HostClient
from proto.turbokiosk.v1 import host_pb2
from tests.helpers.host_rig import HostRig, Pki

EPOCH_1, EPOCH_2 = 1_790_000_000_000, 1_790_000_900_000


class ReportingTerminal:
    """Speaks for TK-A as its link would: batches with the journal head."""

    def __init__(self, host: HostRig, pki_set: Pki) -> None:
        self.client = HostClient(host.address, pki_set.terminal("TK-A"), "TK-A", timeout=10)
        self.client.hello("0.1.0", "sig", 0)
        self.epoch = EPOCH_1

    def head(self, seq: int) -> host_pb2.JournalHead:
        return JournalHead(self.epoch, seq, bytes([seq % 256]) * 32).to_proto()

    def meters(self, seq: int, head: int = 0, **values: int) -> host_pb2.ReportResponse:
        msg = host_pb2.TerminalMessage(
            message_id=f"TK-A:{self.epoch}:{seq}:0", journal_seq=seq, at_ms=1
        )
        msg.meters.reason = "event"
        for name, value in values.items():
            msg.meters.meters.add(name=name, value=value)
        return self.client.report([msg], self.head(max(seq, head)))

    def ram_clear(self, previous_seq: int) -> host_pb2.ReportResponse:
        previous = self.epoch
        self.epoch = EPOCH_2
        msg = host_pb2.TerminalMessage(message_id=f"TK-A:{EPOCH_2}:1:0", journal_seq=1, at_ms=1)
        clear = msg.ram_cleared
        clear.previous_epoch, clear.previous_seq = previous, previous_seq
        clear.previous_hash = bytes([previous_seq % 256]) * 32
        clear.by, clear.cleared_ms, clear.reason = "operator", EPOCH_2, "board replaced"
        return self.client.report([msg], self.head(1))


@pytest.fixture
def terminal(host_on: HostRig, pki_set: Pki) -> Iterator[ReportingTerminal]:
    made = ReportingTerminal(host_on, pki_set)
    yield made
    made.client.close()


def _db(host: HostRig) -> HostDb:
    assert host.db is not None
    return host.db


def _kinds(db: HostDb, severity: str | None = "alarm") -> list[str]:
    return [a.kind for a in db.terminal_alarms("TK-A", severity)]


def test_meters_that_go_backwards_in_one_epoch_raise_an_alarm(
    host_on: HostRig, terminal: ReportingTerminal
) -> None:
    terminal.meters(10, bills_in=5000, games_played=3)
    terminal.meters(20, bills_in=7000, games_played=4)
    assert _kinds(_db(host_on)) == []
    terminal.meters(30, bills_in=2000, games_played=5)  # a cash-box meter went back
    (alarm,) = _db(host_on).terminal_alarms("TK-A", "alarm")
    assert alarm.kind == "meters_backwards"
    assert alarm.detail["meters"] == {"bills_in": {"before": 7000, "after": 2000}}
    assert (alarm.detail["seq_before"], alarm.detail["seq_after"]) == (20, 30)


def test_a_late_snapshot_higher_than_a_newer_one_is_an_alarm_too(
    host_on: HostRig, terminal: ReportingTerminal
) -> None:
    terminal.meters(20, bills_in=7000)
    terminal.meters(10, head=20, bills_in=9000)  # earlier in the journal, yet higher
    assert _kinds(_db(host_on)) == ["meters_backwards"]


def test_a_ram_clear_starts_a_new_meter_epoch(
    host_on: HostRig, terminal: ReportingTerminal, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal.meters(40, bills_in=7000)
    answer = terminal.ram_clear(previous_seq=40)
    assert answer.acknowledged_head.epoch == EPOCH_2
    terminal.meters(2, bills_in=0)  # meters start again at zero: not backwards
    db = _db(host_on)
    assert _kinds(db) == []
    (clear,) = db.terminal_alarms("TK-A", "operator")
    assert clear.kind == "ram_cleared"
    assert (clear.detail["by"], clear.detail["reason"]) == ("operator", "board replaced")
    assert clear.detail["previous_epoch"] == EPOCH_1 and clear.detail["epoch"] == EPOCH_2
    epochs = db.meter_epochs("TK-A")
    assert [e.epoch for e in epochs] == [EPOCH_2, EPOCH_1]
    assert epochs[0].ram_clear is not None and epochs[0].ram_clear["previous_seq"] == 40
    (row,) = db.terminals()
    assert (row.ram_clears, row.epoch, row.acked_seq) == (1, EPOCH_2, 2)
    terminal.meters(3, bills_in=0, games_played=0)
    if isinstance(db, SqliteHostDb):  # the command line reads the same records
        base = ["--host-dir", str(Path(db.path).parent)]
        assert main(["host", "terminals", *base]) == 0
        out = capsys.readouterr().out
        assert "RAM cleared by operator" in out and "board replaced" in out
        assert main(["host", "alarms", *base, "--json"]) == 0
        assert [a["kind"] for a in json.loads(capsys.readouterr().out)] == ["ram_cleared"]


def test_a_new_epoch_without_a_ram_clear_is_an_alarm(
    host_on: HostRig, terminal: ReportingTerminal
) -> None:
    terminal.meters(40, bills_in=7000)
    terminal.epoch = EPOCH_2  # a new store, no RAM clear record: a wiped or replaced store
    terminal.meters(1, bills_in=0)
    db = _db(host_on)
    (alarm,) = db.terminal_alarms("TK-A", "alarm")
    assert alarm.kind == "epoch_without_ram_clear"
    assert alarm.detail == {"epoch": EPOCH_2, "previous_epoch": EPOCH_1}
    terminal.epoch = EPOCH_1  # and the old store coming back is another
    terminal.meters(41, bills_in=7000)
    assert _kinds(db)[0] == "old_epoch"
    assert db.acknowledged_head("TK-A") == JournalHead(EPOCH_2, 1, bytes([1]) * 32)


def test_a_ram_clear_that_hides_acknowledged_history_is_an_alarm(
    host_on: HostRig, terminal: ReportingTerminal
) -> None:
    terminal.meters(40, bills_in=7000)
    terminal.ram_clear(previous_seq=35)  # the store it cleared was already cut short
    assert _kinds(_db(host_on)) == ["ram_clear_behind_anchor"]


def test_a_head_behind_the_anchor_is_an_alarm_and_does_not_move_it(
    host_on: HostRig, terminal: ReportingTerminal
) -> None:
    terminal.meters(40, bills_in=7000)
    terminal.client.report([], terminal.head(30))
    terminal.client.report([], terminal.head(30))  # the same again: one alarm
    db = _db(host_on)
    assert _kinds(db) == ["head_behind"]
    assert db.acknowledged_head("TK-A") == JournalHead(EPOCH_1, 40, bytes([40]) * 32)
    forged = JournalHead(EPOCH_1, 40, b"\xee" * 32).to_proto()
    terminal.client.report([], forged)
    assert _kinds(db)[0] == "head_forked"


def test_an_outbox_ram_cleared_message_reaches_the_wire_with_its_hash() -> None:
    from kiosk.terminal.hostlink.messages import outbox_message, received
    from kiosk.terminal.store.journal import OutboxRow

    body = {
        "previous_epoch": EPOCH_1,
        "previous_seq": 40,
        "previous_hash": "ab" * 32,
        "by": "operator",
        "cleared_ms": EPOCH_2,
        "reason": "board replaced",
        "signer_epoch": 2,
    }
    row = OutboxRow(7, 1, "ram_cleared", {"index": 0, "back": 0, "at": EPOCH_2, "body": body})
    msg = outbox_message("TK-A", EPOCH_2, row)
    assert msg.ram_cleared.previous_hash == bytes.fromhex("ab" * 32)
    assert received(msg) == ("ram_cleared", body)


def test_a_terminal_upgraded_to_send_heads_is_not_an_epoch_alarm(host_on: HostRig) -> None:
    from kiosk.host.accounting.db import Message

    db = _db(host_on)
    snapshot = {"reason": "event", "meters": {"bills_in": 5000}}
    db.record("TK-A", [Message("TK-A:1:4:0", 4, 1, "meters", snapshot)], 1)  # no head: epoch 0
    head = JournalHead(EPOCH_1, 9, b"\x09" * 32)
    db.record("TK-A", [Message("TK-A:1:9:0", 9, 1, "meters", snapshot)], 2, head)
    assert _kinds(db) == [] and db.acknowledged_head("TK-A") == head
