"""The terminal's import closure (issue 24, decision 0044): importing every module the terminal
installs (the kernel, ``kiosk.terminal``, ``ui.terminal``, ``rng``, ``proto``) and its entry
point loads no table, host or tools code and none of their dependencies.

import-linter (``terminal-alone`` in pyproject.toml) reads the imports; this test runs them, in
a fresh interpreter, and reads ``sys.modules``: it also sees what a dependency drags in.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from kiosk.terminal.app.kiosk import EMBEDDED_HOST_MODULE

ROOT = Path(__file__).resolve().parents[2]

#: what a terminal installs (kiosk/__init__, __main__ and the command dispatcher come with it)
TERMINAL_PACKAGES = ("kiosk.kernel", "kiosk.terminal", "ui.terminal", "rng", "proto")
ENTRY_POINTS = ("kiosk", "kiosk.cli")
#: a developer's tool in the terminal's packages (needs grpc-tools, the test extra)
DEVELOPER_TOOLS = ("proto.generate",)
#: the other deployables' code and the dependencies only they need (pyproject.toml extras)
FORBIDDEN = (
    "kiosk.table",
    "kiosk.host",
    "kiosk.tools",
    "ui.table",
    "starlette",
    "uvicorn",
    "jinja2",
    "multipart",
    "python_multipart",
    "psycopg",
    "matplotlib",
    "pypdfium2",
    "selenium",
)

CHECK = """
import importlib, json, pkgutil, sys
packages, entry_points, skipped, forbidden, extra = json.loads(sys.argv[1])
from ui.terminal import env
env.prepare(headless=True)
for name in entry_points + extra:
    importlib.import_module(name)
for package in packages:
    root = importlib.import_module(package)
    for module in pkgutil.walk_packages(root.__path__, package + "."):
        if module.name not in skipped and not module.name.endswith("__main__"):
            importlib.import_module(module.name)
loaded = sorted(
    name for name in sys.modules
    if any(name == f or name.startswith(f + ".") for f in forbidden)
)
print(json.dumps(loaded))
"""


def loaded_forbidden(*extra: str) -> list[str]:
    """The forbidden modules loaded by importing the terminal (and ``extra`` modules)."""
    argument = json.dumps(
        [TERMINAL_PACKAGES, ENTRY_POINTS, DEVELOPER_TOOLS, FORBIDDEN, list(extra)]
    )
    result = subprocess.run(
        [sys.executable, "-c", CHECK, argument],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "offscreen"},
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    loaded: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


def test_the_terminal_loads_nothing_of_the_other_deployables() -> None:
    assert loaded_forbidden() == []


def test_the_check_sees_a_host_module_and_its_dependencies() -> None:
    """The check can fail: one host command module in the closure is seen, with the dashboard
    it imports."""
    loaded = loaded_forbidden("kiosk.host.cli.host", "kiosk.host.web.app")
    assert "kiosk.host.cli.host" in loaded
    assert "kiosk.host.web.app" in loaded
    assert "kiosk.host.accounting.db" in loaded
    assert "starlette" in loaded


def test_the_embedded_host_is_found_by_name() -> None:
    """``turbokiosk run`` finds the demo's embedded host by name (the terminal never imports
    it): the name is a real module of the host deployable."""
    assert EMBEDDED_HOST_MODULE.startswith("kiosk.host.")
    assert importlib.util.find_spec(EMBEDDED_HOST_MODULE) is not None


BLOCK_HOST = """
import importlib.abc, sys
class Gone(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "kiosk.host" or name.startswith("kiosk.host."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Gone())
from kiosk.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_command_of_a_deployable_not_installed_says_which_extra() -> None:
    """On a terminal installed alone, ``turbokiosk host`` is one line naming the extra."""
    result = subprocess.run(
        [sys.executable, "-c", BLOCK_HOST, "host", "events"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        "turbokiosk: host: not installed on this machine (pip install turbokiosk[host])"
    ]
