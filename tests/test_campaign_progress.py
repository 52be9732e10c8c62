"""A long campaign says how far it is, even when pytest captures its output (issue 29)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_progress_lines_pass_the_capture() -> None:
    """The probe's progress reaches the terminal through the suite's conftest; its prints
    stay captured."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-m",
            "",
            "tests/progress_probe.py",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    shown = out.stdout + out.stderr
    assert "tiny campaign: 100% (3 of 3 kills)" in shown
    assert "captured output stays captured" not in shown
