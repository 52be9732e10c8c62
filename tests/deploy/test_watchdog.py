"""The app's side of the systemd watchdog: sd_notify datagrams to NOTIFY_SOCKET (path and
abstract), the ping interval from WATCHDOG_USEC/WATCHDOG_PID, and silence outside systemd."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.terminal.app.watchdog import PINGS_PER_PERIOD, notify, ping_interval

pytestmark = pytest.mark.deploy


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(5)
    yield sock, path
    sock.close()


def test_notify_sends_one_datagram(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    assert notify("READY=1\nWATCHDOG=1", {"NOTIFY_SOCKET": path})
    assert sock.recv(4096) == b"READY=1\nWATCHDOG=1"


def test_notify_to_an_abstract_socket() -> None:
    name = f"turbokiosk-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(4096) == b"WATCHDOG=1"


@pytest.mark.parametrize("value", ["", "relative/path", "x"])
def test_no_socket_no_notification(value: str) -> None:
    assert not notify("READY=1", {"NOTIFY_SOCKET": value})
    assert not notify("READY=1", {})


def test_ping_interval() -> None:
    assert ping_interval({"WATCHDOG_USEC": "30000000"}) == 30 / PINGS_PER_PERIOD
    assert ping_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"}, pid=42) == 10.0
    assert ping_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "41"}, pid=42) is None
    assert ping_interval({"WATCHDOG_USEC": "0"}) is None
    assert ping_interval({"WATCHDOG_USEC": "-5"}) is None
    assert ping_interval({}) is None
