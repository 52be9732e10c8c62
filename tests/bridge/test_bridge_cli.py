"""The bridge's and the native simulators' command lines: bad input is one line and exit 2,
nothing made."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def turbokiosk(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_a_bridge_without_its_pairing_key_refuses_in_one_line(tmp_path: Path) -> None:
    state = tmp_path / "bridge"
    result = turbokiosk(
        "bridge", "validator", "--protocol", "id003", "--device", str(tmp_path / "dev"),
        "--link", str(tmp_path / "link"), "--state-dir", str(state),
    )  # fmt: skip
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "pairing.key" in result.stderr
    assert not (tmp_path / "link").exists() and not (state / "bridge-validator.sqlite").exists()


def test_an_unknown_protocol_is_refused(tmp_path: Path) -> None:
    result = turbokiosk(
        "bridge", "validator", "--protocol", "mdb", "--device", "x", "--link", "y",
    )  # fmt: skip
    assert result.returncode == 2
    assert "invalid choice: 'mdb'" in result.stderr and "Traceback" not in result.stderr


def test_the_kiosk_refuses_an_unknown_device_protocol_before_anything(tmp_path: Path) -> None:
    data = tmp_path / "terminal"
    result = turbokiosk("run", "--data-dir", str(data), env={"TURBOKIOSK_VALIDATOR": "ccnet"})
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "turbokiosk: $TURBOKIOSK_VALIDATOR='ccnet': expected one of sim, id003, essp, ebds"
    )
    assert not data.exists()


@pytest.mark.parametrize("protocol", ["essp", "ebds"])
def test_the_bridge_takes_the_essp_and_ebds_protocols(protocol: str) -> None:
    result = turbokiosk("bridge", "validator", "--help")
    assert protocol in result.stdout


def test_turbokiosk_sim_runs_essp_and_ebds_with_one_line_for_bad_input() -> None:
    result = turbokiosk("sim", "ebds", "--port", "/nonexistent/port")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "no such port" in result.stderr
