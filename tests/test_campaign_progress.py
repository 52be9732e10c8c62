"""A long campaign says how far it is, even when pytest captures its output (issue 29)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CAMPAIGN = """
import time
from tests.helpers.campaign_progress import campaign_progress

def test_a_campaign():
    with campaign_progress("tiny campaign", 3, "kills", every=0.0) as progress:
        for _ in range(3):
            time.sleep(0.01)
            progress.advance()
    print("captured output stays captured")
"""


def test_progress_lines_pass_the_capture(tmp_path: Path) -> None:
    test = tmp_path / "test_tiny_campaign.py"
    test.write_text(CAMPAIGN)
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
            "-p",
            "tests.conftest",
            "-m",
            "",
            str(test),
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
