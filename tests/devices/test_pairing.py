"""Pairing key files and ``turbokiosk devices pair``: what is written, what is refused."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.terminal.devices.pairing import (
    PairingKeyError,
    fingerprint,
    load_pairing_key,
    new_pairing,
    write_pairing_key,
)


def turbokiosk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_new_pairing_writes_both_copies_with_their_modes(tmp_path: Path):
    terminal, device = tmp_path / "etc" / "printer.key", tmp_path / "sim" / "pairing.key"
    key = new_pairing(terminal, device)
    assert load_pairing_key(terminal) == load_pairing_key(device) == key
    assert stat.S_IMODE(terminal.stat().st_mode) == 0o640
    assert stat.S_IMODE(device.stat().st_mode) == 0o600
    with pytest.raises(PairingKeyError, match="already exists"):
        new_pairing(terminal, device)
    assert new_pairing(terminal, device, replace=True) != key


@pytest.mark.parametrize(
    ("content", "mode", "fault"),
    [
        (b"ab" * 32 + b"\n", 0o644, "readable or writable by others"),
        (b"ab" * 32, 0o602, "readable or writable by others"),
        (b"ab" * 31 + b"\n", 0o600, "expected 64 hexadecimal digits"),
        (b"zz" * 32 + b"\n", 0o600, "not hexadecimal"),
        (b"ab" * 400, 0o600, "more than"),
    ],
)
def test_unusable_key_files_are_refused_in_one_line(tmp_path: Path, content, mode, fault):
    path = tmp_path / "bill-validator.key"
    path.write_bytes(content)
    os.chmod(path, mode)
    with pytest.raises(PairingKeyError, match=fault) as info:
        load_pairing_key(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_missing_and_special_files_are_refused(tmp_path: Path):
    with pytest.raises(PairingKeyError, match="no such file"):
        load_pairing_key(tmp_path / "none.key")
    fifo = tmp_path / "fifo.key"
    os.mkfifo(fifo, 0o600)
    with pytest.raises(PairingKeyError, match="not a regular file"):
        load_pairing_key(fifo)


def test_pair_command_and_fingerprint(tmp_path: Path):
    keys, sim = tmp_path / "keys", tmp_path / "sim" / "pairing.key"
    out = turbokiosk(
        "devices", "pair", "bill-validator", "--key-dir", str(keys), "--device-copy", str(sim)
    )
    assert out.returncode == 0, out.stderr
    key = load_pairing_key(keys / "bill-validator.key")
    assert fingerprint(key) in out.stdout
    shown = turbokiosk("devices", "fingerprint", "bill-validator", "--key-dir", str(keys))
    assert shown.stdout.strip() == fingerprint(key)
    again = turbokiosk("devices", "pair", "bill-validator", "--key-dir", str(keys))
    assert again.returncode == 2
    assert again.stderr.count("\n") == 1 and "already exists" in again.stderr
    assert load_pairing_key(keys / "bill-validator.key") == key  # unchanged


def test_simulator_without_a_usable_key_exits_with_one_line(tmp_path: Path):
    state = tmp_path / "state"
    state.mkdir()
    out = turbokiosk("sim", "printer", "--port", str(tmp_path / "p.tty"), "--create-pty",
                     "--state-dir", str(state))  # fmt: skip
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "pairing key" in out.stderr and "no such file" in out.stderr
    write_pairing_key(state / "pairing.key", bytes(32), mode=0o644, group=None)
    out = turbokiosk("sim", "printer", "--port", str(tmp_path / "p.tty"), "--create-pty",
                     "--state-dir", str(state))  # fmt: skip
    assert out.returncode == 2 and "readable or writable by others" in out.stderr
    assert not (tmp_path / "p.tty").exists()


def test_run_refuses_a_field_terminal_without_its_keys(tmp_path: Path):
    out = turbokiosk(
        "run", "--data-dir", str(tmp_path / "t"), "--validator-port", "/dev/null",
        "--printer-port", "/dev/null", "--device-keys", str(tmp_path / "none"),
    )  # fmt: skip
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "pairing key" in out.stderr
    assert not (tmp_path / "t").exists()
