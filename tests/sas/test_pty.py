"""The SAS link on a real pseudo-terminal: the transport, the pty framing rule, the 20 ms limit."""

from __future__ import annotations

import os
import select
import time
import tty
from pathlib import Path

import pytest

from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.sas import wire
from kiosk.terminal.sas.framing import WakeupMode
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.sas.transport import PortError, open_port
from kiosk.terminal.textui.session import PlaySession
from tests.helpers.sas_pty import read_reply


def test_polls_over_a_pty_are_answered_within_the_limit(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    terminal = build_terminal(
        tmp_path / "t", sas=SasSettings(port=os.ttyname(slave), address=9, wakeup="auto")
    )
    link = terminal.sas_link
    assert link is not None and link.mode is WakeupMode.GAP
    session = PlaySession(terminal, lambda _: None)
    session.start()
    link.start()
    try:
        session.handle("bill 50")
        times = []
        for i in range(300):
            if i % 3:
                poll, command = wire.general_poll(9), None
            else:
                poll, command = wire.long_poll(9, wire.LongPoll.SEND_CURRENT_CREDITS), 0x1A
            sent = time.monotonic()
            os.write(master, poll)
            reply = read_reply(master, command)
            times.append(time.monotonic() - sent)
            if command is not None:
                assert wire.from_bcd(wire.parse_response(reply, command)) == 5000
        times.sort()
        p99 = times[int(0.99 * len(times))]
        assert p99 < wire.RESPONSE_LIMIT_S, f"p99 {p99 * 1000:.1f} ms"
        # garbage on the line: no crash, the next poll answered
        os.write(master, bytes(range(256)) * 4)
        time.sleep(0.05)
        while select.select([master], [], [], 0.05)[0]:
            os.read(master, 4096)
        os.write(master, wire.long_poll(9, wire.LongPoll.SEND_CURRENT_CREDITS))
        reply = read_reply(master, 0x1A)
        assert wire.from_bcd(wire.parse_response(reply, 0x1A)) == 5000
        status = link.status()
        assert status.general_polls >= 200 and status.port_error is None
    finally:
        terminal.close()
        os.close(master)
        os.close(slave)


def test_a_port_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(PortError, match="SAS port /nonexistent/tty"):
        open_port("/nonexistent/tty", WakeupMode.GAP)
