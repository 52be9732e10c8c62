"""ID-003 end to end over ptys: the simulator, the bridge process, the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bridge.rig import BridgeRig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[BridgeRig]:
    r = BridgeRig(tmp_path)
    yield r
    r.close()


def test_a_note_inserted_at_the_id003_simulator_is_credited_once(rig: BridgeRig) -> None:
    assert rig.bv("insert 2000") == "ok accepting"
    rig.until(lambda: rig.runtime.state.credits == [2000])
    rig.until(lambda: rig.bridge_status()["unacked"] == [])
    for _ in range(20):
        rig.runtime.pump()
    assert rig.runtime.state.credits == [2000]
    assert rig.device_status()["cashbox"]["notes"] == {"2000": 1}
    assert rig.bridge_status()["lifetime"]["notes"] == [1, 2000]
    assert rig.runtime.state.lifetime["bills_in"] == 2000
