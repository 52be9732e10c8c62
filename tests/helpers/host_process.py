"""``turbokiosk host serve`` as its own process, for tests that need the real program."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def host_process(*options: str, log: Path) -> Iterator[str]:
    """Run ``turbokiosk host serve OPTIONS`` (on a free loopback port unless ``--listen`` is
    among them) until the block ends; yields the address it serves on.  Its standard error
    goes to ``log``; it must stop cleanly on SIGTERM."""
    command = [sys.executable, "-m", "kiosk", "host", "serve", *options]
    if "--listen" not in options:
        command += ["--listen", "127.0.0.1:0"]
    with log.open("wb") as errors:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=errors,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        try:
            assert process.stdout is not None
            line = process.stdout.readline().decode()  # printed once the port is open
            assert line.startswith("host: serving on "), (line, log.read_text())
            yield line.split()[3]
        finally:
            process.terminate()
            process.wait(timeout=20)
    assert process.returncode == 0, log.read_text()
