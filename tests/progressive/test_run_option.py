"""``turbokiosk run --progressive``: the kiosk starts with its own meter beside its journal
(standalone mode); a bad name is one line before any window."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.cli_process import REPO, turbokiosk
from tests.helpers.progressive import write_frequent


def test_the_kiosk_runs_its_own_meter(tmp_path: Path) -> None:
    settings = write_frequent(tmp_path / "test-6cb-trips.toml")
    data = tmp_path / "terminal"
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy"}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [
            *[sys.executable, "-m", "kiosk", "run", "--data-dir", str(data)],
            *["--devices", "inprocess", "--no-host", "--no-simulator"],
            *["--progressive", str(settings)],
            *["--dump-screen", str(tmp_path / "screen.json"), "--exit-after-dump"],
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    journal = data / "progressive-test-6cb-trips.sqlite3"
    assert journal.is_file()
    meters = turbokiosk(
        "progressive", "--progressive", str(settings), "--journal", str(journal), "meters", "--json"
    )
    assert meters.returncode == 0, meters.stderr
    shown = json.loads(meters.stdout)
    assert shown["wagers"] == 0 and shown["meter_cents"] == 500


def test_a_bad_progressive_is_one_line() -> None:
    done = turbokiosk("run", "--progressive", "nope")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "no pay table named 'nope'" in done.stderr
