"""Device counts on stacked notes and the report rate limit: terminal to host (issue 23, part 5)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from kiosk.host.accounting.db import HostDb, Message, Report
from kiosk.host.accounting.rate_limit import RateLimiter, RateLimitError, RateLimits
from kiosk.host.accounting.server import HostSettings
from kiosk.terminal.core import events as e
from kiosk.terminal.hostlink.anchor import JournalHead
from kiosk.terminal.hostlink.link import REFUSED_REASON, pushback_ms
from kiosk.terminal.robot import Robot
from tests.helpers.host_rig import HostRig, Pki, TerminalRig

MakeTerminal = Callable[..., TerminalRig]
AT = 1_800_000_000_000


def _note(terminal: str, seq: int, count: int, device: str = "BV 7") -> Message:
    body: dict[str, Any] = {"seat": 0, "value_cents": 2000}
    if count:
        body |= {"device": device, "device_count": count}
    return Message(f"{terminal}:1:{seq}:0", seq, AT + seq, "bill_stacked", body)


def _head(seq: int) -> JournalHead:
    return JournalHead(1, seq, bytes([seq % 256]) * 32)


def _kinds(db: HostDb, terminal: str) -> list[str]:
    return [a.kind for a in db.terminal_alarms(terminal, "alarm")]


def test_repeats_are_refused_in_a_group_commit_too(host_db: HostDb) -> None:
    """Reports recorded together (the group commit's path) keep one count per device."""
    reports = [
        Report("T1", [_note("T1", 1, 5)], AT, _head(1)),
        Report("T2", [_note("T2", 1, 5)], AT, _head(1)),  # another terminal: its own count
        Report("T1", [_note("T1", 2, 5), _note("T1", 3, 6)], AT, _head(3)),
        Report("T3", [_note("T3", 1, 0)], AT, _head(1)),  # no count: passes (not required)
    ]
    results = host_db.record_reports(reports)
    assert [r.accepted for r in results] == [1, 1, 2, 1]
    assert [n.message_id for n in host_db.events("T1", "bill_stacked")] == [
        "T1:1:3:0",
        "T1:1:1:0",
    ]
    assert _kinds(host_db, "T1") == ["device_count_repeat"]
    assert _kinds(host_db, "T2") == _kinds(host_db, "T3") == []
    # resending the report with the repeat changes nothing
    (again,) = host_db.record_reports([reports[2]])
    assert again.duplicates == 2
    assert _kinds(host_db, "T1") == ["device_count_repeat"]


def test_a_host_that_requires_counts_refuses_a_note_without_one(host_db: HostDb) -> None:
    host_db.require_device_counts = True
    host_db.record("T1", [_note("T1", 1, 0), _note("T1", 2, 1)], AT, _head(2))
    assert [n.message_id for n in host_db.events("T1", "bill_stacked")] == ["T1:1:2:0"]
    assert _kinds(host_db, "T1") == ["device_count_missing"]


def test_a_terminal_s_notes_reach_the_host_with_growing_counts(
    host: HostRig, make_terminal: MakeTerminal
) -> None:
    rig = make_terminal(host.endpoint("TK-A")).start()
    robot = Robot(rig.runtime, rig.validator, rig.printer, random.Random(3), fault_rate=0.0)
    for _ in range(12):
        robot.play_game()
    rig.pump_until(lambda: rig.outbox_empty() and rig.link.connected)
    assert host.db is not None
    notes = sorted(host.db.events("TK-A", "bill_stacked", last=1000), key=lambda n: n.journal_seq)
    counts = [n.body["device_count"] for n in notes]
    assert notes and counts == list(range(1, len(notes) + 1))
    assert {n.body["device"] for n in notes} == {"in-process validator"}
    assert _kinds(host.db, "TK-A") == []
    assert not host.db.events("TK-A", "refused")  # every real game and note is plausible


def test_events_without_a_count_are_journaled_as_before() -> None:
    """The fields were added to a released event: old records decode, unchanged ones encode
    to the same text (so journals and their hashes stay as they were)."""
    old = '{"data":{"at":1,"seat":0,"value":500},"kind":"BillStacked"}'
    assert e.encode(e.BillStacked(at=1, seat=0, value=500)) == old
    assert e.decode(old) == e.BillStacked(at=1, seat=0, value=500, device="", device_count=0)
    counted = e.BillStacked(at=1, seat=0, value=500, device="BV 7", device_count=9)
    assert e.decode(e.encode(counted)) == counted
    with pytest.raises(e.EventDecodeError):
        e.decode('{"data":{"at":1,"seat":0},"kind":"BillStacked"}')  # value is not optional


def test_the_limiter_lets_a_burst_through_then_the_rate() -> None:
    now = [0.0]
    limiter = RateLimiter(RateLimits(messages_per_second=10, burst=100), lambda: now[0])
    assert limiter.admit("T", 60).admitted and limiter.admit("T", 60).admitted  # 100 -> -20
    first = limiter.admit("T", 1)
    assert not first.admitted and first.alarm and first.retry_ms == 2100
    assert not limiter.admit("T", 1).alarm  # one alarm per period
    assert limiter.admit("U", 1).admitted  # each terminal its own bucket
    now[0] = 2.2
    assert limiter.admit("T", 216).admitted  # above nought again: a whole batch goes in
    now[0] = 100.0
    throttled = [limiter.admit("T", 1000) for _ in range(3)]
    assert [v.admitted for v in throttled] == [True, False, False]
    assert throttled[1].alarm  # a new period: a new alarm
    with pytest.raises(RateLimitError):
        RateLimits(messages_per_second=0)
    with pytest.raises(RateLimitError):
        RateLimits(burst=0)


@pytest.mark.parametrize(
    ("option", "line"),
    [
        (["--report-rate", "0"], "host: report rate: 0 messages a second; it must be above 0"),
        (["--report-burst", "-3"], "host: report burst: -3 messages; from 1 to 10,000,000"),
    ],
)
def test_serve_refuses_a_rate_limit_that_makes_no_sense(
    tmp_path: Path, option: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from kiosk.cli import main

    host_dir = tmp_path / "host"
    assert main(["host", "serve", "--host-dir", str(host_dir), *option]) == 2
    err = capsys.readouterr().err
    assert err.startswith(line) and err.count("\n") == 1
    assert not host_dir.exists()  # nothing made


class _Throttled(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode, metadata: tuple[tuple[str, str], ...]) -> None:
        self._code, self._metadata = code, metadata

    def code(self) -> grpc.StatusCode:
        return self._code

    def trailing_metadata(self) -> Any:
        return self._metadata


def test_the_link_tells_a_throttle_from_a_refusal() -> None:
    exhausted = grpc.StatusCode.RESOURCE_EXHAUSTED
    assert pushback_ms(_Throttled(exhausted, (("grpc-retry-pushback-ms", "250"),))) == 250
    assert pushback_ms(_Throttled(exhausted, ())) is None  # over 1 MiB: a refusal
    assert pushback_ms(_Throttled(grpc.StatusCode.UNAVAILABLE, ())) is None


class _SlowHost(HostRig):
    settings = HostSettings(rates=RateLimits(messages_per_second=40, burst=5))


@pytest.fixture
def slow_host(tmp_path: Path, pki_set: Pki) -> Iterator[HostRig]:
    from kiosk.host.accounting.db import SqliteHostDb

    rig = _SlowHost(pki_set, lambda: SqliteHostDb(tmp_path / "host.sqlite3"))
    yield rig
    rig.stop()


def test_a_throttled_terminal_plays_on_and_delivers_everything_later(
    slow_host: HostRig, make_terminal: MakeTerminal
) -> None:
    rig = make_terminal(slow_host.endpoint("TK-A"))
    robot = Robot(rig.runtime, rig.validator, rig.printer, random.Random(5), fault_rate=0.0)
    for _ in range(6):  # a backlog before the link starts: well over the burst
        robot.play_game()
    rig.start()
    disabled: list[str] = []
    for _ in range(4):
        robot.play_game()
        disabled.append(rig.runtime.state.disabled or "")
    rig.pump_until(lambda: rig.outbox_empty() and rig.link.connected, timeout=30)
    assert not any(d.startswith(REFUSED_REASON) for d in disabled)
    assert not (rig.runtime.state.disabled or "").startswith(REFUSED_REASON)
    assert slow_host.db is not None
    assert _kinds(slow_host.db, "TK-A") == ["report_rate"]
    games = [r for r in rig.runtime.journal.rows(after=0) if isinstance(r.event, e.RoundSettled)]
    assert len(slow_host.db.events("TK-A", "game_played", last=1000)) == len(games) == 10
