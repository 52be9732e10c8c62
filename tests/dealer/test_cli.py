"""``turbokiosk dealer``: bad input is one line and exit 2, nothing started (in-process: the
checks come before any window or link)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.terminal.hostlink import pki


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("dt-cli") / "pki"
    pki.ensure_pki(
        where,
        (
            "table-T1",
            "dealer-1",
        ),
    )
    return where


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--table", "nohost"], "expected HOST:PORT"),
        (["--table", "127.0.0.1:50071", "--cert-name", "seat-1"], "dealer-<n>"),
        (["--table", "127.0.0.1:50071", "--size", "10x10"], "--size"),
        (["--table", "127.0.0.1:50071", "--pki-dir", "/nonexistent"], "--pki-dir"),
        (["--table", "127.0.0.1:50071", "--cert-name", "dealer-9"], "--pki-dir"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], says: str, pki_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if "--pki-dir" not in args:
        args = [*args, "--pki-dir", str(pki_dir)]
    try:
        code = main(["dealer", *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], err
