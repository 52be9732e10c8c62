"""The seat's command-line options: bad input is one line and a non-zero exit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers.table_cli import env, turbokiosk

SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    ("args", "says"),
    [
        # one in the default run (its time budget), the others in `tox -e slow`
        pytest.param(
            ["play", "--table", "127.0.0.1:1", "--seat", "3"], "--table-pki-dir", marks=SLOW
        ),
        pytest.param(["play", "--table", "nowhere"], "the table's HOST:PORT", marks=SLOW),
        (["run", "--table", "127.0.0.1:1"], "--table needs --seat N"),
        pytest.param(
            ["seat", "--table", "127.0.0.1:1", "--seat", "0", "--edition", "stadium-3cp"],
            "pki",
            marks=SLOW,
        ),
    ],
)
def test_bad_table_options_are_one_line_and_a_non_zero_exit(
    args: list[str], says: str, tmp_path: Path
) -> None:
    where = ["--data-dir", str(tmp_path / "data")]
    extra = ["--table-pki-dir", str(tmp_path / "none")] if args[0] != "seat" else []
    if args[0] == "seat":
        extra = ["--pki-dir", str(tmp_path / "none")]
    done = subprocess.run(
        turbokiosk(*args, *where, *extra),
        env=env(),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert says in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) <= 3, done.stderr
