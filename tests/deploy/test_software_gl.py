"""Why the kiosk unit has no ``MemoryDenyWriteExecute=``: Kivy drawing with Mesa's software
renderer (llvmpipe, which compiles shaders to machine code at run time) does not survive a ban
on making memory executable.  The kernel's own W^X switch (``PR_SET_MDWE``, Linux 6.3; what
systemd 254+ uses for the setting, systemd 252 filters the same calls with seccomp) stands in
for systemd here.  Should Mesa stop needing it, the first test fails and the unit can gain the
setting (deploy/README.md "The kiosk's sandbox")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.deploy

PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1

#: Runs its arguments with W^X memory enforced by the kernel (inherited across exec).
UNDER_MDWE = f"""
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl({PR_SET_MDWE}, {PR_MDWE_REFUSE_EXEC_GAIN}, 0, 0, 0) != 0:
    sys.exit(f"prctl(PR_SET_MDWE): {{os.strerror(ctypes.get_errno())}}")
os.execv(sys.argv[1], sys.argv[1:])
"""


def mdwe_supported() -> bool:
    """Whether this kernel has PR_SET_MDWE (tried in a child: it cannot be undone)."""
    probe = (
        "import ctypes, sys; libc = ctypes.CDLL(None, use_errno=True); "
        f"sys.exit(libc.prctl({PR_SET_MDWE}, {PR_MDWE_REFUSE_EXEC_GAIN}, 0, 0, 0) != 0)"
    )
    return subprocess.run([sys.executable, "-c", probe]).returncode == 0


def kiosk_once(tmp_path: Path, *, mdwe: bool) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The kiosk offscreen on llvmpipe, in-process devices, no host, until its first dump."""
    dump = tmp_path / "dump.json"
    command = [
        sys.executable,
        "-m",
        "kiosk",
        "run",
        "--data-dir",
        str(tmp_path / "data"),
        "--devices",
        "inprocess",
        "--no-host",
        "--dump-screen",
        str(dump),
        "--exit-after-dump",
    ]
    if mdwe:
        command = [sys.executable, "-c", UNDER_MDWE, *command]
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "offscreen",
        "GALLIUM_DRIVER": "llvmpipe",
        "LIBGL_ALWAYS_SOFTWARE": "1",
        "KIVY_HOME": str(tmp_path / "kivy"),
        "KIVY_NO_ARGS": "1",
    }
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    return result, dump


def test_software_gl_needs_writable_executable_memory(tmp_path: Path) -> None:
    if not mdwe_supported():
        pytest.skip("kernel without PR_SET_MDWE (Linux < 6.3)")
    result, dump = kiosk_once(tmp_path, mdwe=True)
    assert result.returncode == -signal.SIGSEGV, (result.returncode, result.stderr[-2000:])
    assert not dump.exists()


def test_the_same_kiosk_draws_without_the_ban(tmp_path: Path) -> None:
    """The control: nothing else in that run is what fails."""
    result, dump = kiosk_once(tmp_path, mdwe=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(dump.read_text())["screen"] == "attract"
