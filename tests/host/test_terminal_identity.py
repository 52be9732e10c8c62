"""A terminal with a host link prints on its vouchers the terminal id the host knows it by:
a configured id that is not the link's (its certificate's name) is a tilt until put right."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.terminal.app.kiosk import configured_terminal_id
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.core.config import TerminalConfig, to_dict
from kiosk.terminal.core.state import Lockup
from kiosk.terminal.runtime.terminal import IDENTITY_TILT
from tests.helpers.host_rig import HostRig, TerminalRig


def test_a_configured_id_that_is_not_the_certificates_is_a_tilt(
    host: HostRig, make_terminal: Any
) -> None:
    rig: TerminalRig = make_terminal(
        host.endpoint("TK-A"), config=TerminalConfig(terminal_id="TK-Z")
    )
    rt = rig.runtime
    tilt = rt.state.tilts[IDENTITY_TILT]
    assert tilt.reason.startswith("terminal id TK-Z is not the host link's TK-A")
    assert Lockup.TILT in rt.state.lockups() and not rt.accepting_money()
    with pytest.raises(c.CommandError, match="terminal locked"):
        rt.execute(c.SelectEdition("turbo-football"))
    rt.execute(c.ClearTilt(IDENTITY_TILT, by="attendant"))  # cleared without a fix ...
    rt.pump()
    assert IDENTITY_TILT in rt.state.tilts  # ... it comes straight back
    rt.execute(c.SetService(active=True, role="operator"))
    rt.execute(c.ChangeConfig(to_dict(TerminalConfig(terminal_id="TK-A")), by="operator"))
    rt.pump()
    assert IDENTITY_TILT not in rt.state.tilts
    rt.execute(c.SetService(active=False))
    assert IDENTITY_TILT not in rt.state.tilts and rt.accepting_money()


def test_no_host_link_no_identity_check(tmp_path: Path) -> None:
    terminal = build_terminal(tmp_path / "t", config=TerminalConfig(terminal_id="TK-Z"))
    try:
        terminal.runtime.power_up()
        assert IDENTITY_TILT not in terminal.runtime.state.tilts
    finally:
        terminal.close()


def test_the_embedded_host_speaks_for_the_configured_id(tmp_path: Path) -> None:
    data_dir = tmp_path / "t"
    assert configured_terminal_id(data_dir) == TerminalConfig().terminal_id  # a new terminal
    terminal = build_terminal(data_dir)
    try:
        terminal.runtime.power_up()
        config = to_dict(TerminalConfig(terminal_id="TK-0042"))
        terminal.runtime.execute(c.SetService(active=True, role="operator"))
        terminal.runtime.execute(c.ChangeConfig(config, by="operator"))
    finally:
        terminal.close()
    assert configured_terminal_id(data_dir) == "TK-0042"


def test_a_new_terminal_is_born_with_its_certificates_id(tmp_path: Path, host: HostRig) -> None:
    terminal = build_terminal(tmp_path / "t", host=host.endpoint("TK-B"))
    try:
        terminal.runtime.power_up()
        assert terminal.runtime.state.config.terminal_id == "TK-B"
        assert not terminal.runtime.state.lockups()
    finally:
        terminal.close()
