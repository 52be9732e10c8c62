"""A note jammed in escrow goes where the technician clears it, for each native protocol over a
real pty: cleared into the box it is stacked, cleared out of the front it is returned."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.terminal.bridge.cashbox import CashboxRecord
from kiosk.terminal.bridge.ebds.host import EbdsValidator
from kiosk.terminal.bridge.essp.host import EsspValidator
from kiosk.terminal.bridge.native import (
    Identified,
    ItemReturned,
    ItemStacked,
    LinkChanged,
    NativeValidator,
    NoteEscrowed,
)
from kiosk.terminal.bridge.sim import ebds, essp
from tests.bridge.pty_rig import pty_rig

PROTOCOLS: dict[str, tuple[Callable[[], NativeValidator], Callable[..., Any], type]] = {
    # (the host side, its simulator, the first event that says the device answers)
    "essp": (
        lambda: EsspValidator(poll_interval_ms=50, reply_timeout_ms=300),
        essp.run_simulator,
        LinkChanged,
    ),
    "ebds": (
        lambda: EbdsValidator(poll_interval_ms=30, reply_timeout_ms=300),
        ebds.run_simulator,
        Identified,
    ),
}


@pytest.mark.parametrize("protocol", sorted(PROTOCOLS))
def test_a_note_jammed_in_escrow_goes_where_the_technician_clears_it(
    tmp_path: Path, protocol: str
) -> None:
    make_host, simulator, answered = PROTOCOLS[protocol]
    host = make_host()
    with pty_rig(host, simulator, tmp_path / "box.json") as rig:
        rig.until(answered)
        host.enable((1000,), tickets=False)
        rig.condition(enabled=True)
        rig.act("note", "1000")
        rig.until(NoteEscrowed)
        rig.act("jam")
        rig.condition(jammed=True)
        rig.act("clear-jam-box")
        assert isinstance(rig.until(ItemStacked), ItemStacked)
        rig.act("note", "1000")
        rig.until(NoteEscrowed)
        rig.act("jam")
        rig.condition(jammed=True)
        rig.act("clear-jam")  # out through the front
        assert isinstance(rig.until(ItemReturned), ItemReturned)
    assert CashboxRecord.from_json((tmp_path / "box.json").read_text()).notes == (1000,)
