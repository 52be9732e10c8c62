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


def test_each_id003_fault_reaches_the_terminal_as_its_tilt_and_clears(rig: BridgeRig) -> None:
    cases = [
        ("jam", "bill_jam"),
        ("stacker-jam", "bill_jam"),
        ("cashbox-full", "cashbox_full"),
        ("cashbox-removed", "cashbox_removed"),
        ("cheat", "bill_validator_cheated"),
        ("failure", "bill_validator_failure"),
    ]
    for fault, code in cases:
        assert rig.bv(f"fault {fault}") == "ok"
        rig.until(rig.tilted(code))
        if fault == "failure":
            assert (
                rig.runtime.state.tilts[code].reason
                == "bill validator failure: stack motor failure"
            )
        assert rig.bv("insert 500").startswith("ok not taken")
        assert rig.bv(f"fix {fault}") == "ok"
        rig.until(rig.tilted(code, on=False))
    rig.until(rig.bv_enabled)
    assert rig.bridge_status()["removals"] == 1


def test_a_silent_device_is_the_terminal_s_link_tilt(rig: BridgeRig) -> None:
    assert rig.bv("fault mute") == "ok"
    rig.until(lambda: "bill_validator_link" in rig.runtime.state.tilts)
    assert rig.bv("fix mute") == "ok"
    rig.until(lambda: "bill_validator_link" not in rig.runtime.state.tilts)
    rig.until(rig.bv_enabled)  # the bridge enables the acceptor again
    assert rig.bv("insert 100") == "ok accepting"
    rig.until(lambda: rig.runtime.state.credits == [100])


def test_a_rejected_note_is_not_credited_and_says_why(rig: BridgeRig) -> None:
    driver = rig.terminal.serial.validator
    assert rig.bv("insert 300").startswith("ok rejected 0x76")  # no such note
    rig.until(lambda: len(driver.rejections) == 1 and rig.bv_enabled())
    assert rig.bv("reject-next 119").startswith("ok")  # 0x77 photo pattern error
    assert rig.bv("insert 500").startswith("ok rejected 0x77")
    rig.until(lambda: len(driver.rejections) == 2 and rig.bv_enabled())
    assert [why for _, why in driver.rejections] == [
        "not recognised: denomination assessment error",
        "not recognised: photo pattern error",
    ]
    assert sum(rig.runtime.state.credits) == 0
    assert rig.bv("insert 500") == "ok accepting"
    rig.until(lambda: rig.runtime.state.credits == [500])
