"""The CA's private key is kept apart from what ``turbokiosk host serve`` reads (issue 11, item 8):
``init-ca`` writes it to its own directory, ``issue-cert`` signs from there, and ``serve``
refuses to start -- one line, exit 2 -- where it finds a CA key among the files it reads."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import main
from tests.helpers.host_process import host_process


def _host(tmp_path: Path, *extra: str) -> tuple[Path, Path]:
    """A host directory and its CA directory made by the commands."""
    host_dir, ca_dir = tmp_path / "host", tmp_path / "offline-ca"
    common = ["--host-dir", str(host_dir), "--ca-dir", str(ca_dir)]
    assert main(["host", "init-ca", *common]) == 0
    assert main(["host", "issue-cert", *common, "--server", "host"]) == 0
    assert main(["host", "issue-cert", *common, "TK-0001", *extra]) == 0
    return host_dir, ca_dir


def _serve(host_dir: Path) -> subprocess.CompletedProcess[str]:
    """``host serve`` that must refuse at once (a host that starts is a timeout here)."""
    command = [sys.executable, "-m", "kiosk", "host", "serve", "--host-dir", str(host_dir)]
    return subprocess.run(
        [*command, "--listen", "127.0.0.1:0"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "TURBOKIOSK_CA_DIR": ""},
    )


def test_init_ca_keeps_the_key_in_the_ca_directory(tmp_path: Path) -> None:
    host_dir, ca_dir = _host(tmp_path)
    assert (ca_dir / "ca.key").stat().st_mode & 0o777 == 0o600
    assert ca_dir.stat().st_mode & 0o777 == 0o700
    assert (host_dir / "pki" / "ca.crt").read_bytes() == (ca_dir / "ca.crt").read_bytes()
    assert not list(host_dir.rglob("ca.key"))
    with host_process("--host-dir", str(host_dir), log=tmp_path / "serve.log") as address:
        assert address.startswith("127.0.0.1:")


@pytest.mark.parametrize("name", ["ca.key", "backup.key"])
@pytest.mark.parametrize("where", ["pki", "."])
def test_serve_refuses_a_ca_key_among_its_files(tmp_path: Path, name: str, where: str) -> None:
    host_dir, ca_dir = _host(tmp_path)
    misplaced = host_dir / where / name
    shutil.copy(ca_dir / "ca.key", misplaced)
    result = _serve(host_dir)
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert str(misplaced.resolve().name) in lines[0] and "move it" in lines[0]
    assert not (host_dir / "host.sqlite3").exists()  # refused before anything was opened


def test_a_terminal_key_in_the_pki_is_not_mistaken_for_the_ca_key(tmp_path: Path) -> None:
    host_dir, _ = _host(tmp_path)
    assert (host_dir / "pki" / "TK-0001.key").exists()
    with host_process("--host-dir", str(host_dir), log=tmp_path / "serve.log"):
        pass


def test_issue_cert_without_the_ca_directory_says_where_it_looked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host_dir, _ = _host(tmp_path)
    code = main(["host", "issue-cert", "--host-dir", str(host_dir), "TK-0002"])
    assert code == 2
    err = capsys.readouterr().err
    assert "no usable CA in" in err and "host-ca" in err and "--ca-dir" in err
