"""The signer program as a real process on a real Unix socket."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.terminal.signer.client import SignerRefusedError, SocketSigner
from kiosk.terminal.signer.records import (
    GENESIS_HASH,
    Head,
    head_message,
    snapshot_message,
    verifies,
)

REPO = Path(__file__).resolve().parents[2]


def turbokiosk(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


class SignerProcess:
    def __init__(self, state_dir: Path, socket_path: Path) -> None:
        self.state_dir = state_dir
        self.socket_path = socket_path
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk",
                "signer",
                "serve",
                "--socket",
                str(self.socket_path),
                "--state-dir",
                str(self.state_dir),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("serving on"), (line, self.proc.stderr and self.proc.stderr.read())

    def kill(self, sig: int) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        return self.proc.wait(timeout=30)


@pytest.fixture
def signer_process(tmp_path: Path) -> Iterator[SignerProcess]:
    state = tmp_path / "signer-state"
    init = turbokiosk("signer", "init", "--state-dir", str(state))
    assert init.returncode == 0, init.stderr
    assert stat.S_IMODE((state / "signer.key").stat().st_mode) == 0o600
    process = SignerProcess(state, tmp_path / "signer.sock")
    process.start()
    yield process
    if process.proc is not None and process.proc.poll() is None:
        process.kill(signal.SIGKILL)


def test_init_prints_the_public_key_and_keeps_it(tmp_path: Path) -> None:
    state = tmp_path / "s"
    first = turbokiosk("signer", "init", "--state-dir", str(state))
    again = turbokiosk("signer", "init", "--state-dir", str(state))
    assert first.returncode == again.returncode == 0
    key_line = first.stdout.splitlines()[0]
    assert key_line.startswith("public key (Ed25519, hex): ") and len(key_line.split()[-1]) == 64
    assert again.stdout.splitlines()[0] == key_line  # never replaced
    assert "already there" in again.stdout


def test_sign_refuse_going_back_and_survive_sigkill(signer_process: SignerProcess) -> None:
    signer = SocketSigner(signer_process.socket_path)
    assert stat.S_IMODE(signer_process.socket_path.stat().st_mode) == 0o660
    status = signer.status()
    assert status.anchor.epoch == 0
    assert signer.start_epoch(0, "first store").epoch == 1
    head5 = Head(1, 5, b"\x05" * 32)
    signed = signer.sign_commit(head5, b"\x0a" * 32)
    assert verifies(status.public_key, signed.head, head_message(head5))
    assert signed.snapshot is not None
    assert verifies(status.public_key, signed.snapshot, snapshot_message(head5, b"\x0a" * 32))
    assert signer.sign_commit(head5, None).head == signed.head  # the same head: idempotent
    for back in (Head(1, 4, b"\x04" * 32), Head(1, 5, b"\x06" * 32), Head(2, 9, b"\x09" * 32)):
        with pytest.raises(SignerRefusedError):
            signer.sign_commit(back, None)
    signer.sign_commit(Head(1, 8, b"\x08" * 32), None)
    signer.close()
    # SIGKILL: the anchor answered was durable before the answer
    assert signer_process.kill(signal.SIGKILL) == -signal.SIGKILL
    signer_process.start()
    after = SocketSigner(signer_process.socket_path)
    anchor = after.status().anchor
    assert (anchor.epoch, anchor.seq, anchor.chain_hash) == (1, 8, b"\x08" * 32)
    assert anchor.previous == head5
    with pytest.raises(SignerRefusedError, match="not after"):
        after.sign_commit(head5, None)
    status_cli = turbokiosk("signer", "status", "--socket", str(signer_process.socket_path))
    assert status_cli.returncode == 0
    assert "epoch: 1" in status_cli.stdout and "last signed head: row 8 " in status_cli.stdout
    assert f"fingerprint: {status.fingerprint}" in status_cli.stdout
    assert "heads withdrawn at power-up (newest last): none" in status_cli.stdout
    assert "round sealed: none" in status_cli.stdout
    # withdraw: only back to the head signed before the last one, once
    assert after.withdraw(head5).seq == 5
    with pytest.raises(SignerRefusedError):
        after.withdraw(Head(1, 1, GENESIS_HASH))
    after.close()
    assert signer_process.kill(signal.SIGTERM) == 0  # a clean stop
    assert not signer_process.socket_path.exists()


def test_a_signature_of_another_key_is_refused(
    tmp_path: Path, signer_process: SignerProcess
) -> None:
    """A store signed by another signer (a replaced key) does not verify with this one."""
    other = tmp_path / "other"
    assert turbokiosk("signer", "init", "--state-dir", str(other)).returncode == 0
    from kiosk.terminal.signer.client import LocalSigner

    forger = LocalSigner(other)
    forger.start_epoch(0, "x")
    head = Head(1, 3, b"\x03" * 32)
    forged = forger.sign_commit(head, None).head
    ours = SocketSigner(signer_process.socket_path)
    assert not verifies(ours.status().public_key, forged, head_message(head))
    ours.close()


def test_status_of_a_missing_socket_is_one_line(tmp_path: Path) -> None:
    result = turbokiosk("signer", "status", "--socket", str(tmp_path / "none.sock"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "cannot be reached" in result.stderr


def test_a_kiosk_plays_through_the_signer_socket(
    tmp_path: Path, signer_process: SignerProcess
) -> None:
    """``play --signer PATH`` signs through the program; audit with the same socket passes,
    and the development signer is never created."""
    data = tmp_path / "terminal"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    sock = str(signer_process.socket_path)
    played = subprocess.run(
        [sys.executable, "-m", "kiosk", "play", "--data-dir", str(data), "--signer", sock],
        input="bill 20\nbet first_down 5\ndeal\nnoraise\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr
    assert not (tmp_path / "terminal.signer").exists()
    audited = turbokiosk("audit", "--data-dir", str(data), "--signer", sock)
    assert audited.returncode == 0, audited.stdout
    assert "anchor: the store's head agrees with the signer's (epoch 1 row" in audited.stdout
    # without the signer's socket the development signer (another key) is not the store's
    time.sleep(0)
    other = turbokiosk("audit", "--data-dir", str(data))
    assert other.returncode == 1
