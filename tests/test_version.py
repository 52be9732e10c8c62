"""One software version: the installed distribution's is the one the terminal reports."""

import importlib.metadata
import subprocess
import sys

import kiosk


def test_the_distribution_version_is_the_packages() -> None:
    assert importlib.metadata.version("turbokiosk") == kiosk.__version__


def test_the_command_line_reports_it() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "kiosk", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == f"turbokiosk {kiosk.__version__}"
