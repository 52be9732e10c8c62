"""A pty whose other end goes away while it is being opened refuses its settings with
``termios.error`` (not an OSError): found by the kill campaign, where it killed the bridge.
Both the bridge's device line and the terminal's serial line now take it as "not there yet"."""

from __future__ import annotations

import termios

import pytest
import serial

from kiosk.terminal.bridge.id003.host import SETTINGS
from kiosk.terminal.bridge.line import DeviceLine
from kiosk.terminal.devices.serial_port import LineClosedError, SerialLine


def refuse(*args: object, **kwargs: object) -> None:
    raise termios.error(22, "Invalid argument")


def test_the_bridges_device_line_waits_instead_of_crashing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serial, "Serial", refuse)
    line = DeviceLine("/dev/pts/nowhere", SETTINGS)
    assert line.fileno() is None
    assert "Invalid argument" in line.problem


def test_the_terminals_serial_line_reports_it_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serial, "Serial", refuse)
    with pytest.raises(LineClosedError, match="Invalid argument"):
        SerialLine("/dev/pts/nowhere").open()
