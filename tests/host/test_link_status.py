"""The technician's device screen shows the host link as the terminal runs it: the address it
dials, who it is to the host, whether it is up, what it delivered."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from kiosk.terminal.service.backends import InProcessTerminal
from kiosk.terminal.service.functions.diagnostics import devices
from tests.helpers.host_rig import HostRig, TerminalRig


def _host_line(rig: TerminalRig) -> tuple[dict[str, Any], str]:
    backend = InProcessTerminal(rig.runtime, host_status=rig.link.status)
    outcome = devices(SimpleNamespace(terminal=backend), {})
    (line,) = (ln for ln in outcome.lines if ln.startswith("Host link: "))
    return outcome.data["host"], line


def test_the_device_screen_shows_the_running_link(host: HostRig, make_terminal: Any) -> None:
    rig: TerminalRig = make_terminal(host.endpoint("TK-A")).start()
    rig.pump_until(lambda: rig.link.connected and rig.outbox_empty())
    shown, line = _host_line(rig)
    assert shown["address"] == host.address  # the dialled address, not the configuration's
    assert shown["configured_address"] == rig.config.host_address != host.address
    assert (shown["terminal_id"], shown["connected"], shown["outbox_pending"]) == ("TK-A", True, 0)
    assert shown["delivered"] >= 1 and shown["seconds_since_contact"] < 10
    assert line.startswith(f"Host link: address={host.address}, terminal_id=TK-A, connected=True")
    host.stop()
    rig.pump_until(lambda: not rig.link.connected, timeout=30)
    shown, line = _host_line(rig)
    assert shown["connected"] is False and "connected=False" in line
