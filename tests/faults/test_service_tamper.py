"""Tampering with what the service menu trusts, as someone with the SD card or a technician would.

Each test runs ``turbokiosk service`` as a separate process on a real data directory.  On the
previous release each of these went through: the PIN records lived in ``service/pins.json``
(deleted: the factory PINs came back; edited: a lock-out was lifted; truncated: a traceback),
an older validly signed configuration could be imported again, and an import read any file to
its end (``/dev/zero``: MemoryError; a FIFO: a hang).
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.terminal.store.reader import current_state, open_readonly
from tests.helpers.cli_process import REPO, turbokiosk

OPERATOR_PIN = "1357"


def service(data_dir: Path, role: str, *words: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return turbokiosk("service", "--data-dir", str(data_dir), "--role", role, *words, stdin=stdin)


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result.stderr


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A stopped terminal whose operator and technician chose their PINs."""
    path = tmp_path / "terminal"
    first = service(path, "operator", stdin=f"3333\n{OPERATOR_PIN}\n{OPERATOR_PIN}\nexit\n")
    assert first.returncode == 0, first.stderr
    tech = service(path, "technician", "status", stdin="2222\n2468\n2468\n")
    assert tech.returncode == 0, tech.stderr
    return path


def pins_file(data_dir: Path) -> Path:
    return data_dir / "service" / "pins.json"


def old_record(pin: str) -> dict[str, object]:
    """A record as the previous release wrote it in pins.json (cheap scrypt parameters)."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=16, r=1, p=1, dklen=32)
    return {
        "kdf": "scrypt",
        "n": 16,
        "r": 1,
        "p": 1,
        "salt": salt.hex(),
        "hash": digest.hex(),
        "must_change": False,
        "failures": 0,
        "locked_until": 0,
        "changed_at": 0,
    }


def test_deleting_the_pins_file_never_brings_back_the_factory_pin(data_dir: Path) -> None:
    pins_file(data_dir).unlink(missing_ok=True)
    factory = service(data_dir, "operator", "status", stdin="3333\n")
    no_traceback(factory)
    assert factory.returncode == 3 and "wrong PIN" in factory.stderr
    # nor at a power-up (an interactive session is the terminal)
    pins_file(data_dir).unlink(missing_ok=True)
    again = service(data_dir, "operator", stdin="3333\n")
    assert again.returncode == 3 and "wrong PIN" in again.stderr
    mine = service(data_dir, "operator", "status", stdin=f"{OPERATOR_PIN}\n")
    assert mine.returncode == 0, mine.stderr


def test_editing_the_pins_file_lifts_no_lockout(data_dir: Path) -> None:
    for _ in range(3):
        assert service(data_dir, "operator", "status", stdin="0000\n").returncode == 3
    # the old file's records, a PIN of the attacker's and no lock-out
    pins_file(data_dir).parent.mkdir(parents=True, exist_ok=True)
    records = {role: old_record("9999") for role in ("attendant", "technician", "operator")}
    pins_file(data_dir).write_text(json.dumps(records))
    for pin in ("9999", OPERATOR_PIN):
        refused = service(data_dir, "operator", "status", stdin=f"{pin}\n")
        no_traceback(refused)
        assert refused.returncode == 3 and "operator is locked out for" in refused.stderr
    # a power-up sets the file aside unread; the lock-out stands
    powered = service(data_dir, "technician", stdin="2468\nexit\n")
    assert powered.returncode == 0, powered.stderr
    assert not pins_file(data_dir).exists()
    refused = service(data_dir, "operator", "status", stdin="9999\n")
    assert refused.returncode == 3 and "operator is locked out for" in refused.stderr


def test_a_truncated_pins_file_is_no_traceback(data_dir: Path) -> None:
    pins_file(data_dir).parent.mkdir(parents=True, exist_ok=True)
    pins_file(data_dir).write_text('{"attendant": {"kdf": "scrypt", "n": 16')
    for words in (("status",), ()):  # read-only, and a session that powers the terminal up
        result = service(data_dir, "operator", *words, stdin=f"{OPERATOR_PIN}\nexit\n")
        no_traceback(result)
        assert result.returncode == 0, result.stderr


def test_an_older_signed_configuration_cannot_roll_limits_back(
    data_dir: Path, tmp_path: Path
) -> None:
    saved = tmp_path / "limits-25.json"
    pin = f"{OPERATOR_PIN}\n"
    assert service(data_dir, "operator", "set", "max_wager=25", stdin=pin).returncode == 0
    exported = service(data_dir, "operator", "export", str(saved), stdin=pin)
    assert exported.returncode == 0, exported.stderr
    assert service(data_dir, "operator", "set", "max_wager=50", stdin=pin).returncode == 0
    stale = service(data_dir, "operator", "import", str(saved), stdin=pin)
    no_traceback(stale)
    assert stale.returncode == 1
    assert "configuration version 2 is not newer than the one in force, 2" in stale.stdout
    with open_readonly(data_dir) as journal:
        state = current_state(journal).state
    assert state.config.max_wager == 5000 and state.config_version == 2


def _limited() -> None:  # the previous release read /dev/zero until memory ran out
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "directory", "100 MB"])
def test_import_reads_only_a_bounded_regular_file(
    data_dir: Path, tmp_path: Path, kind: str
) -> None:
    if kind == "/dev/zero":
        path = Path("/dev/zero")
    else:
        path = tmp_path / "config.json"
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "directory":
            path.mkdir()
        else:
            with open(path, "wb") as fh:
                fh.truncate(100 * 1024 * 1024)
    with open_readonly(data_dir) as journal:
        before = current_state(journal).state.to_snapshot()
    command = ("service", "--data-dir", str(data_dir), "--role", "operator", "import", str(path))
    result = subprocess.run(
        [sys.executable, "-m", "kiosk", *command],
        input=f"{OPERATOR_PIN}\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        preexec_fn=_limited,
        check=False,
    )
    no_traceback(result)
    assert result.returncode == 1
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and f"configuration file {path}" in lines[0], lines
    with open_readonly(data_dir) as journal:
        after = current_state(journal).state.to_snapshot()
    kept = ("config", "config_version", "credits", "pins")  # (it powered up: power_resets + 1)
    assert {k: after.get(k) for k in kept} == {k: before.get(k) for k in kept}
