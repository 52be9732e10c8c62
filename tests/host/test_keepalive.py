"""The host link's keepalive settings agree between the terminal and the host."""

from __future__ import annotations

from kiosk.terminal.hostlink.channel import HOST_CLIENT_KEEPALIVE, HOST_SERVER_KEEPALIVE, KEEPALIVE


def test_the_host_never_tells_a_terminal_off_for_pinging() -> None:
    client, server = dict(HOST_CLIENT_KEEPALIVE), dict(HOST_SERVER_KEEPALIVE)
    # a terminal pinging more often than the host allows gets GOAWAY too_many_pings
    assert (
        server["grpc.http2.min_ping_interval_without_data_ms"] <= client["grpc.keepalive_time_ms"]
    )
    assert client["grpc.keepalive_permit_without_calls"] == 1


def test_a_busy_host_has_longer_than_the_table_link_to_answer_a_ping() -> None:
    table = dict(KEEPALIVE)
    for options in (HOST_CLIENT_KEEPALIVE, HOST_SERVER_KEEPALIVE):
        assert dict(options)["grpc.keepalive_timeout_ms"] >= 4 * table["grpc.keepalive_timeout_ms"]


def test_neither_end_of_the_host_link_probes_bandwidth_with_a_ping_per_report() -> None:
    for options in (HOST_CLIENT_KEEPALIVE, HOST_SERVER_KEEPALIVE):
        assert dict(options)["grpc.http2.bdp_probe"] == 0
