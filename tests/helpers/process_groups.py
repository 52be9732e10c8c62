"""``turbokiosk`` in its own process group, and the check that its journal closed cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.cli_process import REPO, turbokiosk


def turbokiosk_in_its_group(*args: str, stdin: int | None = None) -> subprocess.Popen[str]:
    """``turbokiosk ARGS`` as its own process group (Ctrl-C at a terminal reaches the group)."""
    return subprocess.Popen(
        [sys.executable, "-m", "kiosk", *args],
        cwd=REPO,
        env=_env(),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,
    )


def journal_closed(data: Path) -> None:
    """The store was closed (SQLite removes the WAL on the last close) and audits clean."""
    assert not (data / "terminal.sqlite3-wal").exists()
    audit = turbokiosk("audit", "--data-dir", str(data))
    assert audit.returncode == 0, audit.stdout + audit.stderr


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "SDL_VIDEODRIVER": "offscreen",
        "SDL_AUDIODRIVER": "dummy",
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
    }
