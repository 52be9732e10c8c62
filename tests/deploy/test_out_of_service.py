"""deploy/out-of-service.sh, the OnFailure= handler of the kiosk and the signer: one clear line
for the journal, the reason on the display's console, whatever systemd hands it.  Under systemd
itself, after a real crash loop: test_systemd_boot.py."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.deploy.kit import KIT

pytestmark = pytest.mark.deploy

SCRIPT = KIT / "out-of-service.sh"


def out_of_service(
    tmp_path: Path, *args: str, **monitor: str
) -> tuple[subprocess.CompletedProcess[str], str]:
    """Run the script as its unit does (the failed unit as argument or MONITOR_UNIT, its result
    in MONITOR_* variables), the console a file; no journal to read (an empty directory).  Its
    result and what the console shows."""
    screen = tmp_path / "tty1"
    (tmp_path / "journal").mkdir(exist_ok=True)
    env = {
        "PATH": os.environ["PATH"],
        "TURBOKIOSK_OOS_TTY": str(screen),
        "TURBOKIOSK_OOS_JOURNAL": str(tmp_path / "journal"),
        **{f"MONITOR_{key.upper()}": value for key, value in monitor.items()},
    }
    result = subprocess.run(
        [str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=30
    )
    return result, screen.read_text() if screen.is_file() else ""


def test_one_line_for_the_journal_and_the_reason_on_the_screen(tmp_path: Path) -> None:
    result, screen = out_of_service(
        tmp_path,
        unit="turbokiosk.service",
        service_result="start-limit-hit",
        exit_code="exited",
        exit_status="1",
    )
    assert result.returncode == 0
    assert result.stderr.splitlines() == [
        "<2>OUT OF SERVICE: turbokiosk.service gave up after repeated failures "
        "(start-limit-hit, exited 1): (the program left no message)"
    ]
    assert "OUT OF SERVICE" in screen
    assert "turbokiosk.service gave up after repeated failures." in screen
    assert "Result: start-limit-hit, exited 1" in screen
    assert "power the terminal off and on" in screen


def test_names_the_unit_its_instance_was_started_for(tmp_path: Path) -> None:
    """turbokiosk-out-of-service@turbokiosk-signer.service.service runs it with the unit."""
    result, screen = out_of_service(
        tmp_path, "turbokiosk-signer.service", service_result="start-limit-hit"
    )
    assert "OUT OF SERVICE: turbokiosk-signer.service gave up" in result.stderr
    assert "turbokiosk-signer.service gave up after repeated failures." in screen


def test_a_kiosk_that_could_not_start_for_its_signer(tmp_path: Path) -> None:
    """A failed dependency leaves the kiosk's own result at success: the line says so."""
    result, screen = out_of_service(tmp_path, "turbokiosk.service", service_result="success")
    assert result.stderr.startswith(
        "<2>OUT OF SERVICE: turbokiosk.service could not run (a unit it needs failed, or its "
        "start was refused)"
    )
    assert "turbokiosk.service could not run." in screen


def test_a_strange_unit_name_is_not_echoed(tmp_path: Path) -> None:
    """The unit name goes to a terminal: escape sequences in it are not written."""
    result, screen = out_of_service(tmp_path, unit="x\033]2;owned\007.service")
    assert "\033]" not in screen and "\033]" not in result.stderr
    assert "(unprintable unit name)" in result.stderr


def test_an_unwritable_console_is_one_more_line_not_a_failure(tmp_path: Path) -> None:
    (tmp_path / "tty1").mkdir()  # a directory: cannot be written to
    result, _ = out_of_service(tmp_path, unit="turbokiosk.service")
    assert result.returncode == 0
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith("<2>OUT OF SERVICE: turbokiosk.service")
    assert lines[1] == f"out-of-service: cannot write to {tmp_path / 'tty1'}"
