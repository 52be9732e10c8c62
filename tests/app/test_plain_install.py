"""Every ``turbokiosk`` command works in a plain ``pip install .`` (issue 13): nothing the
package imports needs the test extra (pytest, numpy, grpcio-tools, hypothesis...).

The fast test imports every module of the installed packages and runs the commands with the
test packages made unimportable; the slow one builds a real virtual environment from
``pip install .`` and runs the commands there.
"""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.helpers.cli_process import REPO

#: the test extra's top-level modules (pyproject.toml [project.optional-dependencies] test)
TEST_ONLY = (
    "pytest",
    "_pytest",
    "numpy",
    "grpc_tools",
    "hypothesis",
    "pytest_benchmark",
    "pytest_timeout",
    "xdist",
    "execnet",
    "zxingcpp",
)
#: developer tools in the packages that need the test extra by design
#: modules not imported here: a developer's tool, and the lab package's charts, which need the
#: optional ``lab`` extra (matplotlib; ``lab-package --no-pdf`` and the rest of kiosk.tools.lab
#: work without it, and without it ``lab-package`` says so in one line), and the simulator's
#: array path, which needs the optional ``sim`` extra (numpy; without it ``simulate`` and
#: ``lab-package`` say so in one line, decision 0043)
DEVELOPER_TOOLS = (
    "proto.generate",
    "kiosk.tools.lab.charts",
    "kiosk.kernel.analysis.fast_sim",
    "kiosk.kernel.analysis.fast_tables",
)
OFFSCREEN = {"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "KIVY_NO_ARGS": "1"}

BLOCKED = f"""
import sys, importlib.abc
class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {TEST_ONLY!r}:
            raise ImportError(f"{{name}} is in the test extra, not installed by pip install .")
        return None
sys.meta_path.insert(0, Blocked())
"""

IMPORT_EVERYTHING = (
    BLOCKED
    + f"""
import importlib, pkgutil
from ui.terminal import env
env.prepare(headless=True)
for package in ("kiosk", "ui", "rng", "proto"):
    root = importlib.import_module(package)
    for module in pkgutil.walk_packages(root.__path__, package + "."):
        if module.name not in {DEVELOPER_TOOLS!r} and not module.name.endswith("__main__"):
            importlib.import_module(module.name)
print("imported")
"""
)


def _python(code: str, *args: str, stdin: str = "", timeout: float = 300) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        env={**os.environ, **OFFSCREEN},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_no_module_of_the_package_imports_the_test_extra() -> None:
    assert _python(IMPORT_EVERYTHING).strip().endswith("imported")


COMMAND = BLOCKED + "import sys; from kiosk.cli import main; sys.exit(main(sys.argv[1:]))"


def test_the_commands_run_without_the_test_extra(tmp_path: Path) -> None:
    """The commands a newcomer tries first, the test packages unimportable."""
    assert "Turbo Football" in _python(COMMAND, "par-sheet", "turbo-football")
    assert "pass" in _python(COMMAND, "rng", "selftest").lower()
    data = tmp_path / "terminal"
    dump = tmp_path / "dump.json"
    _python(COMMAND, "run", "--data-dir", str(data), "--devices", "inprocess", "--no-host",
            "--dump-screen", str(dump), "--exit-after-dump")  # fmt: skip
    assert json.loads(dump.read_text())["screen"] == "attract"
    played = _python(COMMAND, "play", "--data-dir", str(tmp_path / "text"), stdin="quit\n")
    assert played


def test_simulate_without_numpy_is_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-c", COMMAND, "simulate", "turbo-football", "--games", "100"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "turbokiosk simulate: error: the simulator needs numpy: install the sim extra"
        " (pip install 'turbokiosk[sim]')"
    ]


def test_the_kiosk_environment_installs_no_test_extra_and_lets_ctrl_c_finish() -> None:
    """``tox -e kiosk`` and ``tox -e screenshots`` install the package with the host (the
    embedded host) and no test extra; tox gives the kiosk's orderly Ctrl-C stop (under a
    second) time before it signals the kiosk itself."""
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(REPO / "tox.ini")
    assert tox["testenv"]["extras"].strip() == "test"  # the tests' environments have it
    for env in ("testenv:kiosk", "testenv:screenshots"):
        extras = {e.strip() for e in tox[env]["extras"].split(",")}
        assert "test" not in extras and "host" in extras, env
    kiosk = tox["testenv:kiosk"]
    assert float(kiosk["suicide_timeout"]) >= 10
    assert float(kiosk["interrupt_timeout"]) >= 5


def _venv_with_plain_install(where: Path) -> Path:
    """``python -m venv`` and ``pip install .`` (no extra) of a copy of the sources (the
    build leaves nothing in the repository): the venv's bin directory."""
    source = where.parent / "source"
    skip = shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__", "docs")
    shutil.copytree(REPO, source, ignore=skip)
    venv.create(where, with_pip=True)
    bin_dir = where / "bin"
    subprocess.run(
        [str(bin_dir / "pip"), "install", "--quiet", "--disable-pip-version-check", str(source)],
        check=True,
        timeout=1800,
        capture_output=True,
    )
    return bin_dir


@pytest.mark.slow
def test_a_plain_pip_install_runs_every_command_a_newcomer_tries(tmp_path: Path) -> None:
    bin_dir = _venv_with_plain_install(tmp_path / "venv")
    installed = subprocess.run(
        [str(bin_dir / "pip"), "list", "--format", "json"], capture_output=True, check=True
    )
    names = {p["name"].lower() for p in json.loads(installed.stdout)}
    assert not names & {"pytest", "numpy", "grpcio-tools", "hypothesis"}, names
    # a plain install is the terminal: none of the host's or the tools' dependencies
    assert not names & {"psycopg", "starlette", "uvicorn", "jinja2", "matplotlib"}, names
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, **OFFSCREEN}

    def turbokiosk(*args: str, stdin: str = "") -> str:
        result = subprocess.run(
            [str(bin_dir / "turbokiosk"), *args],
            cwd=tmp_path,  # not the repository: the installed package, not the sources
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert result.returncode == 0, (args, result.stderr[-3000:])
        return result.stdout

    assert "Turbo Football" in turbokiosk("par-sheet", "turbo-football")
    turbokiosk("rng", "selftest")
    turbokiosk("software")
    dump = tmp_path / "dump.json"
    turbokiosk("run", "--data-dir", str(tmp_path / "terminal"), "--no-host",
               "--dump-screen", str(dump), "--exit-after-dump")  # fmt: skip
    assert json.loads(dump.read_text())["screen"] == "attract"
    assert turbokiosk("play", "--data-dir", str(tmp_path / "text"), stdin="quit\n")
