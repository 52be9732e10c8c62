"""``turbokiosk`` commands for the table's processes, and the robot's expected summary."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def turbokiosk(*args: str) -> list[str]:
    return [sys.executable, "-c", "from kiosk.cli import main; raise SystemExit(main())", *args]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


CREDITS = 100_000


SUMMARY = re.compile(
    r"robot seat-(\d+): credits (\d+) at_stake (\d+) rounds (\d+) voided (\d+) "
    r"refused (\d+) disagreements (\d+)"
)
