"""``turbokiosk sim``: the simulator program started from the command line, and ``sim ctl``."""

import json
import subprocess
import sys
from pathlib import Path

from kiosk.terminal.app.peripherals import spawn_simulator, wait_ready


def ctl(address: str, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "sim", "ctl", address, *words],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_simulator_program_and_control_client(tmp_path: Path):
    proc, ready = spawn_simulator("bill-validator", tmp_path)
    try:
        info = wait_ready(proc, ready, 15)
        assert Path(info["port"]).is_symlink()  # the terminal's end of the pty
        out = ctl(info["control"], "insert", "300")
        assert out.returncode == 0
        assert out.stdout.strip() == "ok rejected REJECT_REASON_NOT_RECOGNISED"
        status = ctl(info["control"], "status")
        assert json.loads(status.stdout[3:])["handed_back"] == [
            {"note": 300, "why": "REJECT_REASON_NOT_RECOGNISED"}
        ]
        bad = ctl(info["control"], "juggle")
        assert bad.returncode == 1 and bad.stdout.startswith("error commands:")
        assert ctl(info["control"], "quit").returncode == 0
        assert proc.wait(10) == 0
        assert not Path(info["port"]).exists()  # unplugged: the port is gone
    finally:
        if proc.poll() is None:
            proc.kill()


def test_ctl_without_a_simulator_says_so():
    out = ctl("127.0.0.1:1", "status")
    assert out.returncode == 2 and "no simulator at 127.0.0.1:1" in out.stderr
