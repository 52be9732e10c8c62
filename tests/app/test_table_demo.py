"""``deploy/tox -e table`` (``python -m kiosk.tools.table_demo``): a controller with robot seats
and one kiosk window seated at it, as processes, offscreen; Ctrl-C stops all in order.  Slow
(a controller, a kiosk and a few robots, about 10 s each)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "SDL_VIDEODRIVER": "offscreen",
        "SDL_AUDIODRIVER": "dummy",
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
    }


def _demo(root: Path, *kiosk: str) -> list[str]:
    return [
        *[sys.executable, "-m", "kiosk.tools.table_demo", "--dir", str(root)],
        *["--robots", "2", "--auto-deal", "0.5", "--", *kiosk],
    ]


@pytest.mark.slow
def test_the_demo_seats_a_kiosk_window_at_a_dealing_table(tmp_path: Path) -> None:
    dump = tmp_path / "screen.json"
    done = subprocess.run(
        _demo(tmp_path, "--dump-screen", str(dump), "--exit-after-dump"),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    shown = json.loads(dump.read_text(encoding="utf-8"))
    assert shown["screen"] == "stadium" and shown["lockup"] is None
    table = shown["table"]
    assert table is not None and not table["lost"]
    assert table["detail"].startswith("T1")
    assert table["step"] in {
        "connecting",
        "waiting",
        "betting",
        "bets_closed",
        "dealing",
        "deciding",
        "dealer_hand",
        "round_over",
    }
    out = done.stdout
    assert "the kiosk is seat 2" in out
    assert out.count("robot seat-") == 2 and out.rstrip().endswith("table T1: stopped")


@pytest.mark.slow
def test_ctrl_c_stops_the_kiosk_and_the_controller_in_order(tmp_path: Path) -> None:
    demo = subprocess.Popen(
        _demo(tmp_path),
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: Ctrl-C reaches the group, as a tty's
    )
    assert demo.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = demo.stdout.readline()
        seen.append(line)
        if line.startswith("turbokiosk run: window"):
            break
    else:
        demo.kill()
        pytest.fail("".join(seen))
    time.sleep(2)  # the kiosk seated and playing
    os.killpg(demo.pid, signal.SIGINT)
    out, err = demo.communicate(timeout=120)
    assert demo.returncode == 130, err[-3000:]
    assert out.rstrip().endswith("table T1: stopped"), out
    assert "interrupted (Ctrl-C): the kiosk stopped in order" in err
    left = subprocess.run(
        ["pgrep", "-g", str(demo.pid)], capture_output=True, text=True, check=False
    )
    assert left.stdout.strip() == ""  # no process of the demo left behind
