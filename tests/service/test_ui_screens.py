"""Headless screenshots of every service page, reached by touches
(``kiosk.tools.service_screenshots``).

Slow (about two minutes of software-rendered frames): ``tox -e slow``.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.terminal.service.functions.diagnostics import DISPLAY_PATTERNS
from tests.helpers.cli_process import REPO

PAGES = (
    "01-pin-pad",
    "01b-wrong-pin",
    "02-new-pin",
    "03-menu-attendant",
    "04-status",
    "05-handpay-reset",
    "06-meters",
    "07-recall",
    "07d-refused",
    "09-menu-technician",
    "10-events",
    "11-events-tilts",
    "12-audit-log",
    "13-bill-test",
    "14-voucher-test",
    "15-doors",
    "16-devices",
    "17-rng-selftest",
    "18-software",
    "19-seed-entry",
    "20-software-hmac",
    "21-store-check",
    "22-touch-test",
    "23-touch-test-passed",
    "25-display-verdict",
    "26-display-passed",
    "28-menu-operator",
    "29-config",
    "30-config-edit",
    "31-value-entry",
    "32-config-changed",
    "33-config-saved",
    "34-paytables",
    "35-period-reset-confirm",
    "36-period-reset",
    "37-config-export",
    "38-config-import",
    "38b-config-import-refused",
    "38c-ram-clear-reason",
    "38d-ram-clear-confirm",
    "39-set-pin",
    "40-after-exit",
    "41-game-resumed",
)


@pytest.mark.slow
def test_every_service_page_is_drawn(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "kiosk.tools.service_screenshots", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "SDL_VIDEODRIVER": "offscreen"},
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    folder = tmp_path / "800x480"
    names = {path.stem for path in folder.glob("*.png")}
    patterns = {f"24-display-{i}-{p.name}" for i, p in enumerate(DISPLAY_PATTERNS)}
    assert set(PAGES) | patterns <= names
    digests = {hashlib.sha256((folder / f"{n}.png").read_bytes()).hexdigest() for n in names}
    assert len(digests) == len(names)  # every page drew something of its own
    for name in PAGES:
        data = (folder / f"{name}.png").read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 4000, name
