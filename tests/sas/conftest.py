"""A real terminal (in-process devices, SQLite journal) with its SAS link, polled in-process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.sas.link import SasSettings
from kiosk.terminal.textui.session import PlaySession
from tests.helpers.sas_rig import ADDRESS, SasRig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[SasRig]:
    data = tmp_path / "terminal"
    terminal = build_terminal(
        data, sas=SasSettings(port="/dev/null", address=ADDRESS, wakeup="gap")
    )
    assert terminal.sas_link is not None
    out: list[str] = []
    session = PlaySession(terminal, out.append)
    session.start()
    try:
        yield SasRig(terminal, session, terminal.sas_link, lines=out)
    finally:
        terminal.close()
