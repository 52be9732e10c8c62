"""The host checks plausibility, not only bounds (issue 23, part 5): over mutual TLS, on SQLite
and on PostgreSQL.

Each attack of the issue, as seen on main: a ``game_played`` with a $1.00 stake paying
$999,999.99 was accepted with no alarm; the same $100 note reported again under a new message
id was booked twice; 40 batches of 1,000 messages in 1.3 s were accepted with no limit and no
alarm.  Here each is refused (recorded apart, or throttled) with an alarm where the floor and
``turbokiosk host alarms`` show alarms.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from kiosk.cli import main
from kiosk.host.accounting.db import HostDb, SqliteHostDb
from kiosk.host.accounting.records import TerminalAlarm
from kiosk.host.web.floor import Floor
from kiosk.host.web.sql import Connection
from kiosk.terminal.hostlink.client import HostClient
from proto.turbokiosk.v1 import host_pb2
from tests.helpers.host_rig import HostRig, Pki, records_factory

BIG_WIN = 99_999_999  # $999,999.99


class PlausibleRig(HostRig):
    """A host with the given settings (the defaults unless a test sets ``settings``)."""

    @property
    def records(self) -> HostDb:
        assert self.db is not None
        return self.db

    def target(self) -> str:
        db = self.records
        return str(db.path) if isinstance(db, SqliteHostDb) else db.dsn  # type: ignore[attr-defined]


@pytest.fixture(params=["sqlite", "postgresql"])
def rig(request: pytest.FixtureRequest, tmp_path: Path, pki_set: Pki) -> Iterator[PlausibleRig]:
    made = PlausibleRig(pki_set, records_factory(request, tmp_path))
    yield made
    made.stop()


@pytest.fixture
def client(rig: PlausibleRig, pki_set: Pki) -> Iterator[HostClient]:
    made = HostClient(rig.address, pki_set.terminal("TK-A"), "TK-A", timeout=20)
    made.hello("0.1.0", "sig", 0)
    yield made
    made.close()


def _game(seq: int, edition: str, spots: list[tuple[str, int, int]]) -> host_pb2.TerminalMessage:
    msg = host_pb2.TerminalMessage(message_id=f"TK-A:1:{seq}:0", journal_seq=seq, at_ms=seq)
    game = msg.game_played
    game.game_number, game.edition = seq, edition
    seat = game.seats.add(seat=0)
    seat.stake_cents = sum(stake for _, stake, _ in spots)
    seat.paid_cents = sum(paid for _, _, paid in spots)
    for spot, stake, paid in spots:
        seat.spots.add(spot=spot, stake_cents=stake, paid_cents=paid, outcome="win")
    return msg


def _note(seq: int, count: int, device: str = "JCM iVIZION 1234") -> host_pb2.TerminalMessage:
    msg = host_pb2.TerminalMessage(message_id=f"TK-A:1:{seq}:0", journal_seq=seq, at_ms=seq)
    msg.bill_stacked.value_cents = 10_000
    msg.bill_stacked.device = device
    msg.bill_stacked.device_count = count
    return msg


def _alarms(db: HostDb, kind: str) -> list[TerminalAlarm]:
    return [a for a in db.terminal_alarms("TK-A", "alarm") if a.kind == kind]


def _floor(rig: PlausibleRig) -> Floor:
    return Floor(Connection(rig.target(), read_only=True))


def test_a_game_paying_more_than_its_pay_tables_allow_is_kept_out_of_the_meters(
    rig: PlausibleRig, client: HostClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """$1.00 on First Down paying $999,999.99: accepted on main with no alarm."""
    fair = _game(1, "turbo-football", [("first_down", 100, 250)])  # 3:2, its best tier
    wild = _game(2, "turbo-football", [("first_down", 100, BIG_WIN)])
    answer = client.report([fair, wild])
    assert answer.accepted == 2  # both recorded: the terminal's outbox moves on
    db = rig.records
    games = db.events("TK-A", "game_played")
    assert [g.message_id for g in games] == ["TK-A:1:1:0"]  # only the fair one counts
    (kept_out,) = db.events("TK-A", "refused")
    assert kept_out.body["kind"] == "game_played"
    (alarm,) = _alarms(db, "implausible_game")
    assert alarm.detail["message_id"] == "TK-A:1:2:0"
    assert "first_down paid 99999999 cents for a stake of 100" in alarm.detail["why"]
    assert "at most 250" in alarm.detail["why"]
    # the floor's figures count the fair game only, and its alarms show the other
    floor = _floor(rig)
    (figures,) = floor.games_by_terminal(0, 10**15)
    assert (figures.games, figures.coin_in, figures.paid) == (1, 100, 250)
    assert any(a.kind == "implausible_game" for a in floor.alarms())
    # a resend is a duplicate: no second record, no second alarm
    assert client.report([wild]).duplicates == 1
    assert len(_alarms(db, "implausible_game")) == 1
    assert main(["host", "alarms", "--db", rig.target(), "--alarms"]) == 0
    assert "implausible_game" in capsys.readouterr().out


def test_the_same_note_under_a_new_message_id_is_refused(
    rig: PlausibleRig, client: HostClient
) -> None:
    """The same $100 note (the validator's count 41) reported again: booked twice on main."""
    assert client.report([_note(1, 41)]).accepted == 1
    assert client.report([_note(2, 41)]).accepted == 1  # recorded, but refused
    assert client.report([_note(1, 41)]).duplicates == 1  # a resend is only a duplicate
    db = rig.records
    notes = db.events("TK-A", "bill_stacked")
    assert [n.message_id for n in notes] == ["TK-A:1:1:0"]
    (repeat,) = _alarms(db, "device_count_repeat")
    assert repeat.detail["message_id"] == "TK-A:1:2:0"
    assert "item 41 was reported already" in repeat.detail["why"]
    # the next note, and another validator's note 41, are new
    assert client.report([_note(3, 42), _note(4, 41, "JCM iVIZION 9999")]).accepted == 2
    assert len(db.events("TK-A", "bill_stacked")) == 3
    assert len(_alarms(db, "device_count_repeat")) == 1


def test_a_flood_of_reports_is_throttled_with_an_alarm_and_nothing_is_lost(
    rig: PlausibleRig, client: HostClient
) -> None:
    """40 batches of 1,000 messages back to back: all accepted on main, with no alarm."""
    accepted, throttled = 0, []
    for number in range(40):
        batch = []
        for i in range(1000):
            seq = number * 1000 + i + 1
            msg = host_pb2.TerminalMessage(message_id=f"TK-A:1:{seq}:0", journal_seq=seq, at_ms=1)
            msg.door.door, msg.door.open = "main", bool(i % 2)
            batch.append(msg)
        try:
            accepted += client.report(batch).accepted
        except grpc.RpcError as exc:
            throttled.append((exc, batch))
    assert accepted < 40_000 and throttled
    error, batch = throttled[0]
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "rate limit" in str(error.details())
    pushback: dict[str, Any] = dict(error.trailing_metadata() or ())  # type: ignore[arg-type]
    assert int(pushback["grpc-retry-pushback-ms"]) > 0
    db = rig.records
    assert len(_alarms(db, "report_rate")) == 1  # one per terminal per minute, not per call
    assert any(a.kind == "report_rate" for a in _floor(rig).alarms())
    # later (the host's clock moved on) the refused batch goes through whole
    assert rig.server is not None
    limiter = rig.server.servicer.limiter
    later = time.monotonic() + 3600
    limiter.clock = lambda: later
    assert client.report(batch).accepted == 1000
