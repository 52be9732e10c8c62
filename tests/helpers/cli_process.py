"""``turbokiosk`` run as a separate process from the repository root."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def turbokiosk(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``turbokiosk ARGS`` in a separate Python process."""
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
        timeout=timeout,
        check=False,
    )
