"""Issue 27: the host link on one long-lived bidirectional stream (``HostService.Link``).

The hello opens the stream and is where the host checks who is calling (role, certificate name,
registry: issue 23); reports go up and each one's acknowledgement comes down after the commit
that holds it; a report the host refuses (bounds, rate limit, another terminal's) is a refused
acknowledgement on a stream that stays open; host commands come down the same stream; a
terminal retired while streaming loses its stream and cannot open another.  The terminal's link
(:class:`~kiosk.terminal.hostlink.link.HostLink`) delivers over it without a unary ``Report``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from kiosk.host.accounting.db import SqliteHostDb, now_ms
from kiosk.host.accounting.rate_limit import RateLimits
from kiosk.host.accounting.server import HostServicer, HostSettings
from kiosk.terminal.hostlink import pki
from kiosk.terminal.hostlink.anchor import JournalHead
from kiosk.terminal.hostlink.client import HostClient
from kiosk.terminal.hostlink.link import pushback_ms
from kiosk.terminal.hostlink.stream import LinkSession
from proto.turbokiosk.v1 import host_pb2, host_pb2_grpc
from tests.helpers.host_rig import HostRig, Pki, TerminalRig


class _TightHost(HostRig):
    settings = HostSettings(rates=RateLimits(messages_per_second=1, burst=3))


@pytest.fixture
def tight_host(tmp_path: Path, pki_set: Pki) -> Iterator[HostRig]:
    rig = _TightHost(pki_set, lambda: SqliteHostDb(tmp_path / "host.sqlite3"))
    yield rig
    rig.stop()


@pytest.fixture
def open_link(host: HostRig, pki_set: Pki) -> Iterator[Callable[[str], LinkSession]]:
    clients: list[HostClient] = []

    def make(name: str) -> LinkSession:
        client = HostClient(host.address, pki_set.terminal(name), name, timeout=10)
        clients.append(client)
        session, answer = client.open_link("0.1.0", "sig", 0)
        assert answer.meter_period_seconds == 60
        return session

    yield make
    for client in clients:
        client.close()


def _game(terminal: str, seq: int) -> host_pb2.TerminalMessage:
    msg = host_pb2.TerminalMessage(message_id=f"{terminal}:1:{seq}:0", journal_seq=seq, at_ms=1)
    msg.game_played.game_number, msg.game_played.edition = seq, "turbo-football"
    seat = msg.game_played.seats.add(seat=0, stake_cents=100, paid_cents=0)
    seat.spots.add(spot="first_down", stake_cents=100, paid_cents=0, outcome="lose")
    return msg


def _report(terminal: str, *seqs: int) -> host_pb2.ReportRequest:
    head = host_pb2.JournalHead(epoch=1, seq=max(seqs, default=0), hash=b"h" * 32)
    return host_pb2.ReportRequest(messages=[_game(terminal, s) for s in seqs], head=head)


def test_reports_are_acknowledged_after_their_commit_exactly_once(
    host: HostRig, open_link: Callable[[str], LinkSession]
) -> None:
    session = open_link("TK-A")
    answer = session.report(_report("TK-A", 1, 2))
    assert host.db is not None
    assert answer.accepted == 2 and answer.duplicates == 0
    # acknowledged: the commit holding it is done, the head is the terminal's anchor
    assert len(host.db.events("TK-A", "game_played")) == 2
    assert JournalHead.from_proto(answer.acknowledged_head) == JournalHead(1, 2, b"h" * 32)
    session.close()
    again = open_link("TK-A")  # a resend on a new stream after a lost acknowledgement
    assert again.report(_report("TK-A", 2, 3)).duplicates == 1
    assert len(host.db.events("TK-A", "game_played")) == 3
    hello = HostClient(host.address, host.pki.terminal("TK-A"), "TK-A").open_link("v", "s", 0)
    assert JournalHead.from_proto(hello[1].acknowledged_head) == JournalHead(1, 3, b"h" * 32)
    hello[0].close()


def test_refused_reports_leave_the_stream_open(
    host: HostRig, open_link: Callable[[str], LinkSession]
) -> None:
    session = open_link("TK-A")
    with pytest.raises(grpc.RpcError) as info:  # another terminal's message id
        session.report(_report("TK-B", 1))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "is not TK-A's" in str(info.value.details())
    named = _report("TK-A", 1)
    named.terminal_id = "TK-B"  # the stream is TK-A's
    with pytest.raises(grpc.RpcError) as info:
        session.report(named)
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert session.open and session.report(_report("TK-A", 1)).accepted == 1


def test_the_rate_limit_is_a_retry_pushback_on_the_stream(
    tight_host: HostRig, pki_set: Pki
) -> None:
    client = HostClient(tight_host.address, pki_set.terminal("TK-A"), "TK-A", timeout=10)
    try:
        session, _ = client.open_link("0.1.0", "sig", 0)
        assert session.report(_report("TK-A", 1, 2, 3, 4)).accepted == 4  # past the burst
        with pytest.raises(grpc.RpcError) as info:
            session.report(_report("TK-A", 5, 6))
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        wait = pushback_ms(info.value)
        assert wait is not None and wait > 0
        time.sleep(wait / 1000 + 0.1)
        assert session.open and session.report(_report("TK-A", 5, 6)).accepted == 2
    finally:
        client.close()


def test_commands_come_down_the_same_stream(
    host: HostRig, open_link: Callable[[str], LinkSession]
) -> None:
    session = open_link("TK-A")
    assert host.server is not None
    host.server.send("TK-A", "player_message", {"text": "hello floor", "seconds": 5})
    command = session.commands.get(timeout=10)
    assert command is not None and command.player_message.text == "hello floor"
    assert session.report(_report("TK-A", 1)).accepted == 1  # acknowledgements go on


def _raw_link(host: HostRig, pki_set: Pki, name: str) -> tuple[grpc.Channel, object]:
    creds = pki_set.terminal(name)
    channel = grpc.secure_channel(
        host.address,
        grpc.ssl_channel_credentials(creds.ca, creds.key, creds.cert),
        options=[("grpc.ssl_target_name_override", pki.SERVER_NAME)],
    )
    return channel, host_pb2_grpc.HostServiceStub(channel)


def test_a_stream_opens_only_with_the_hello_of_the_certificates_enrolled_terminal(
    host: HostRig, pki_set: Pki
) -> None:
    channel, stub = _raw_link(host, pki_set, "TK-A")
    try:
        first = host_pb2.LinkRequest(number=1, report=_report("TK-A", 1))
        with pytest.raises(grpc.RpcError) as info:
            list(stub.Link(iter([first]), timeout=5))  # type: ignore[attr-defined]
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        forged = host_pb2.LinkRequest(hello=host_pb2.HelloRequest(terminal_id="TK-B"))
        with pytest.raises(grpc.RpcError) as info:
            list(stub.Link(iter([forged]), timeout=5))  # type: ignore[attr-defined]
        assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        channel.close()
    assert host.db is not None
    assert not host.db.events("TK-A", "game_played")


def test_a_terminal_retired_while_streaming_loses_its_stream(
    host: HostRig, open_link: Callable[[str], LinkSession]
) -> None:
    session = open_link("TK-B")
    assert host.db is not None and host.server is not None
    host.db.retire("TK-B", now_ms())
    host.server._call(host.server.servicer.refresh_registry())  # as its watch does
    assert session.commands.get(timeout=10) is None  # the stream ended
    with pytest.raises(grpc.RpcError) as info:
        session.report(_report("TK-B", 1))
    assert info.value.code() != grpc.StatusCode.OK
    client = HostClient(host.address, host.pki.terminal("TK-B"), "TK-B", timeout=10)
    try:
        with pytest.raises(grpc.RpcError) as info:
            client.open_link("0.1.0", "sig", 0)
        assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "retired" in str(info.value.details())
    finally:
        client.close()


def test_the_terminals_link_delivers_over_the_stream_without_unary_reports(
    host: HostRig, make_terminal: Callable[..., TerminalRig], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def no_unary(*_args: object) -> None:
        raise AssertionError("the link used the unary Report")

    host.stop()
    monkeypatch.setattr(HostServicer, "Report", no_unary)
    monkeypatch.setattr(HostServicer, "Hello", no_unary)
    host.start()
    rig = make_terminal(host.endpoint("TK-A")).start()
    rig.pump_until(lambda: rig.link.connected and rig.outbox_empty(), timeout=15)
    assert host.db is not None
    assert host.db.events("TK-A", "power_up")
    assert rig.link.delivered >= 1
