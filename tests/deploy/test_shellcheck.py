"""Every shell script of the kit passes shellcheck (warnings included)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.deploy.kit import KIT, need_tool

pytestmark = pytest.mark.deploy


def shell_scripts() -> list[Path]:
    """Files under deploy/ whose first line is a sh or bash shebang."""
    found = []
    for path in sorted(KIT.rglob("*")):
        if path.is_file() and path.read_bytes()[:32].split(b"\n")[0] in (
            b"#!/bin/sh",
            b"#!/bin/bash",
            b"#!/usr/bin/env bash",
            b"#!/usr/bin/env sh",
        ):
            found.append(path)
    return found


def test_the_scripts_are_found() -> None:
    names = {p.name for p in shell_scripts()}
    assert {"install.sh", "install-system-packages", "tox"} <= names


@pytest.mark.parametrize("script", shell_scripts(), ids=lambda p: str(p.relative_to(KIT)))
def test_shellcheck(script: Path) -> None:
    result = subprocess.run(
        [need_tool("shellcheck"), "--severity=style", "--external-sources", str(script)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_shellcheck_reports_a_fault(tmp_path: Path) -> None:
    """The check can fail: an unquoted variable is reported."""
    bad = tmp_path / "bad.sh"
    bad.write_text("#!/bin/sh\nrm -rf $1/tmp\n")
    result = subprocess.run([need_tool("shellcheck"), str(bad)], capture_output=True, text=True)
    assert result.returncode != 0 and "SC2086" in result.stdout
