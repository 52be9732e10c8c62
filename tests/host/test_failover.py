"""Two hosts on one database; a terminal configured with both fails over and loses nothing.

The hosts are the real ``grpc.aio`` servers on loopback with mutual TLS, their records one
PostgreSQL database (or one SQLite file).  The terminal plays on the first host; the first host
is stopped; the terminal's link moves to the second, delivers the rest, and the records hold
every event, meter and voucher of the terminal's journal exactly once.  The second host pushes
a command down the terminal's new stream and answers the standard health check.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from kiosk.host.accounting.db import HostDb
from kiosk.terminal.hostlink.pki import SERVER_NAME
from kiosk.terminal.hostlink.wiring import HostEndpoint
from kiosk.terminal.robot import Robot
from proto.turbokiosk.v1 import host_pb2
from tests.helpers.host_checks import disagreements, enroll
from tests.helpers.host_rig import HostRig, Pki, TerminalRig, records_factory


@pytest.fixture(params=["sqlite", "postgresql"])
def two_hosts(
    request: pytest.FixtureRequest, tmp_path: Path, pki_set: Pki
) -> Iterator[tuple[HostRig, HostRig, Callable[[], HostDb]]]:
    factory = records_factory(request, tmp_path)
    first, second = HostRig(pki_set, factory), HostRig(pki_set, factory)
    yield first, second, factory
    first.stop()
    second.stop()


def _play(rig: TerminalRig, games: int, seed: int) -> Robot:
    robot = Robot(rig.runtime, rig.validator, rig.printer, random.Random(seed), fault_rate=0.05)
    for _ in range(games):
        robot.play_game()
    return robot


def _serving(host: HostRig, pki_set: Pki) -> int:
    creds = pki_set.terminal("TK-A")
    channel = grpc.secure_channel(
        host.address,
        grpc.ssl_channel_credentials(creds.ca, creds.key, creds.cert),
        options=[("grpc.ssl_target_name_override", SERVER_NAME)],
    )
    with channel:
        stub = health_pb2_grpc.HealthStub(channel)
        answer = stub.Check(
            health_pb2.HealthCheckRequest(service="turbokiosk.v1.HostService"), timeout=5
        )
    return int(answer.status)


def test_a_terminal_fails_over_to_the_second_host_and_nothing_is_lost_or_doubled(
    two_hosts: tuple[HostRig, HostRig, Callable[[], HostDb]],
    pki_set: Pki,
    make_terminal: Callable[..., TerminalRig],
) -> None:
    first, second, factory = two_hosts
    endpoint = HostEndpoint(f"{first.address},{second.address}", pki_set.terminal("TK-A"), "TK-A")
    rig = make_terminal(endpoint).start()
    _play(rig, 4, seed=1)
    rig.pump_until(lambda: rig.outbox_empty() and rig.link.connected)
    assert rig.wiring.client.address == first.address
    first.stop()
    robot = _play(rig, 8, seed=2)
    rig.pump_until(lambda: rig.outbox_empty() and rig.link.connected, timeout=20)
    assert rig.wiring.client.address == second.address
    assert rig.wiring.client.failovers >= 1
    assert robot.stats.games > 0
    records = factory()
    try:
        problems = disagreements(
            rig.data_dir, records, "TK-A", rig.runtime.state.lifetime.as_dict()
        )
        assert problems == []
        hosts_seen = {r.kind for r in records.events("TK-A", last=10_000)}
        assert "game_played" in hosts_seen
    finally:
        records.close()
    assert second.server is not None
    command = second.server.send("TK-A", "player_message", {"text": "moved", "seconds": 0})
    rig.pump_until(lambda: rig.link.player_message() == "moved")
    db = second.db
    assert db is not None
    rig.pump_until(lambda: getattr(db.command(command), "state", None) == "done")
    assert _serving(second, pki_set) == health_pb2.HealthCheckResponse.SERVING


def test_the_host_logs_its_throughput_and_queue_depth(
    tmp_path: Path, pki_set: Pki, caplog: pytest.LogCaptureFixture
) -> None:
    from kiosk.host.accounting.db import SqliteHostDb
    from kiosk.host.accounting.server import HostServer
    from kiosk.terminal.hostlink.client import HostClient

    caplog.set_level(logging.INFO, logger="kiosk.host.accounting.progress")
    enroll(tmp_path / "host.sqlite3", ("TK-B",))
    server = HostServer(
        SqliteHostDb(tmp_path / "host.sqlite3"),
        pki_set.host(),
        "127.0.0.1:0",
        progress_seconds=0.2,
    ).start()
    client = HostClient(server.address, pki_set.terminal("TK-B"), "TK-B")
    try:
        client.hello("floor", "sig", 0)
        for seq in range(1, 6):
            message = host_pb2.TerminalMessage(message_id=f"TK-B:1:{seq}:0", journal_seq=seq)
            message.bill_stacked.value_cents = 500
            client.report([message])
        deadline = time.monotonic() + 5
        while not any("reports/s" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "no progress line"
            time.sleep(0.05)
    finally:
        client.close()
        server.stop(0)
    line = next(r.getMessage() for r in caplog.records if "reports/s" in r.getMessage())
    assert "queue depth" in line and "command streams" in line and "records ok" in line
