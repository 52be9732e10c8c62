"""Fixtures of the SAS host tests: a bare echo on a pty in its own process."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def echo_port(tmp_path: Path) -> Iterator[Path]:
    """The path of a pty whose far end echoes every byte (another process)."""
    link = tmp_path / "echo"
    proc = subprocess.Popen([sys.executable, "-m", "tests.sas.host.echo_pty", str(link)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 10
        while not link.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "echo did not start"
            time.sleep(0.01)
        yield link
    finally:
        proc.terminate()
        proc.wait(5)
