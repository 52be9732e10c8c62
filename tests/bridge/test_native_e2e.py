"""eSSP and EBDS end to end over ptys: ``turbokiosk sim essp|ebds``, the bridge process
(``--protocol essp|ebds``), the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bridge.rig import BridgeRig


@pytest.fixture(params=["essp", "ebds"])
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BridgeRig]:
    r = BridgeRig(tmp_path, validator=request.param)
    yield r
    r.close()


def test_a_note_inserted_at_the_simulator_is_credited_once(rig: BridgeRig) -> None:
    assert rig.bv("insert 2000") == "ok accepting"
    rig.until(lambda: rig.runtime.state.credits == [2000])
    rig.until(lambda: rig.bridge_status()["unacked"] == [])
    rig.until(lambda: rig.device_status()["notes"] == [2000])
    for _ in range(20):
        rig.runtime.pump()
    assert rig.runtime.state.credits == [2000]
    assert rig.bridge_status()["lifetime"]["notes"] == [1, 2000]
    assert rig.runtime.state.lifetime["bills_in"] == 2000
