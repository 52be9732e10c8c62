"""The kiosk process killed in mid-game comes back to the same screen.

The terminal is brought to a Stadium decision in this process, then ``turbokiosk run`` (the real
command, with its embedded accounting host) shows it; that process is killed with SIGKILL while
the decision is pending, and a new one must show the same table: the same array, the same
positions, the Play/Fold prompt with its countdown running again.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import commands as c
from tests.ui.pngs import crop

TABLE = (8, 56, 372, 300)  # the array and the dealer, image coordinates at 800x480


def _start(data_dir: Path, dump: Path, *, exit_after: bool) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "kiosk",
        "run",
        "--data-dir",
        str(data_dir),
        "--size",
        "800x480",
        "--no-simulator",
        "--dump-screen",
        str(dump),
    ]
    if exit_after:
        command.append("--exit-after-dump")
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )


def _wait_for(path: Path, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode()[-3000:] if proc.stderr else "")
        assert time.monotonic() < end, "no screen dump"
        time.sleep(0.05)
    time.sleep(0.2)  # the JSON is written last; let it finish
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _mid_game(data_dir: Path) -> list[int]:
    terminal = build_terminal(data_dir)
    rt = terminal.runtime
    try:
        rt.power_up()
        assert terminal.simulated.validator.insert(2000)
        rt.pump()
        rt.execute(c.SelectEdition("stadium-3cp"))
        rt.execute(c.SelectPositions((0, 4, 8)))
        rt.execute(c.PlaceWager(spot="ante", amount=500))
        rt.execute(c.Deal())
        assert rt.state.round is not None and rt.state.phase.value == "decision"
        return list(rt.state.round.first)
    finally:
        terminal.close()


def test_killed_mid_game_the_kiosk_comes_back_to_the_same_screen(tmp_path: Path) -> None:
    data_dir = tmp_path / "terminal"
    array = _mid_game(data_dir)
    first = _start(data_dir, tmp_path / "before.json", exit_after=False)
    try:
        before = _wait_for(tmp_path / "before.json", first)
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # mid-game: the decision is still pending
        first.wait(10)
    assert first.returncode == -signal.SIGKILL
    second = _start(data_dir, tmp_path / "after.json", exit_after=True)
    after = _wait_for(tmp_path / "after.json", second)
    assert second.wait(30) == 0
    from kiosk.kernel.cards import names

    assert before["screen"] == after["screen"] == "stadium"
    assert before["phase"] == after["phase"] == "decision"
    assert before["first"] == after["first"] == names(array).split()
    assert before["positions"] == after["positions"] == [0, 4, 8]
    assert before["offer"] == after["offer"] == "Play for $5.00 — or fold?"
    assert before["credit"] == after["credit"] == "$15.00"
    shot_before = crop(tmp_path / "before.png", *TABLE)
    shot_after = crop(tmp_path / "after.png", *TABLE)
    assert shot_before == shot_after  # the same cards, pixel for pixel
