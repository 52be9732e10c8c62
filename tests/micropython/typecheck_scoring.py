"""Type-check the hot path against MicroPython's stubs instead of CPython's typeshed.

``micropython-stdlib-stubs`` installs a reduced typeshed (``stdlib/``, ``stubs/``, ``_mpy_shed/``)
at the top of site-packages and ``micropython-unix-stubs`` installs the unix port's modules
(``micropython.pyi``, ``time.pyi``, ...) next to it.  mypy does not find either by itself, so
this script assembles them into one custom typeshed in a temporary directory (the port's modules
become "standard library" modules there, listed in ``VERSIONS``) and runs
``mypy --strict --custom-typeshed-dir`` on copies of ``kiosk/kernel/scoring.py`` and of the
MicroPython-side test files, alone in a directory: nothing else of the project, nor
site-packages, is importable, so a module MicroPython lacks fails the check.

A canary file using what CPython has and MicroPython lacks (``functools``, ``itertools``,
``math.comb``, ``time.perf_counter_ns``) must be rejected on each count, which shows the
assembled typeshed really is MicroPython's.

Run: ``python tests/micropython/typecheck_scoring.py`` (tox -e micropython).  Exits non-zero on
any type error or if the canary is accepted.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = (
    ROOT / "kiosk" / "kernel" / "scoring.py",
    ROOT / "tests" / "micropython" / "scoring_checks.py",
    ROOT / "tests" / "micropython" / "bench_payload.py",
)
STDLIB_STUBS = "micropython-stdlib-stubs"
PORT_STUBS = "micropython-unix-stubs"
# Lowest target mypy 2.x accepts; the stubs' version conditions then expose the least.
PYTHON_VERSION = "3.10"
# CPython has all of these; MicroPython none: the check must report each one.
CANARY = """\
import functools
import itertools
import math
import time

TOTAL = functools.reduce(int.__add__, itertools.repeat(1, 3)) + math.comb(5, 2)
STAMP = time.perf_counter_ns()
"""
CANARY_ERRORS = (
    'module named "functools"',
    'module named "itertools"',
    'Module has no attribute "comb"',
    'Module has no attribute "perf_counter_ns"',
)


def _installed_files(distribution: str) -> list[tuple[Path, Path]]:
    """(path relative to site-packages, absolute path) of a distribution's stubs and VERSIONS."""
    dist = importlib.metadata.distribution(distribution)
    files = []
    for entry in dist.files or ():
        relative = Path(str(entry))
        if relative.parts[0].endswith(".dist-info") or ".." in relative.parts:
            continue
        if relative.suffix != ".pyi" and relative.name != "VERSIONS":
            continue
        files.append((relative, Path(str(dist.locate_file(entry)))))
    if not files:
        raise SystemExit(f"{distribution} is installed without stub files")
    return files


def build_typeshed(target: Path) -> Path:
    """Assemble MicroPython's custom typeshed under ``target``; return its directory."""
    typeshed = target / "typeshed"
    stdlib = typeshed / "stdlib"
    for relative, source in _installed_files(STDLIB_STUBS):
        top = relative.parts[0]
        if top in ("stdlib", "stubs"):
            destination = typeshed / relative
        elif top == "_mpy_shed":  # helper types the port stubs import
            destination = stdlib / relative
        else:
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
    versions = stdlib / "VERSIONS"
    listed = {
        line.split(":")[0].strip()
        for line in versions.read_text(encoding="utf-8").splitlines()
        if ":" in line and not line.lstrip().startswith("#")
    }
    added = {"_mpy_shed"}
    for relative, source in _installed_files(PORT_STUBS):
        if relative.name == "__builtins__.pyi":  # pyright-only; mypy reads builtins.pyi
            continue
        destination = stdlib / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
        added.add(relative.parts[0].removesuffix(".pyi"))
    with versions.open("a", encoding="utf-8") as out:
        out.write(
            "\n# MicroPython unix port modules (added by tests/micropython/typecheck_scoring.py)\n"
        )
        for module in sorted(added - listed):
            out.write(f"{module}: 3.0-\n")
    return typeshed


def run_mypy(typeshed: Path, sources: list[Path], config: Path) -> subprocess.CompletedProcess[str]:
    """mypy --strict over ``sources`` with only the custom typeshed to resolve imports."""
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(config),
        "--custom-typeshed-dir",
        str(typeshed),
        "--python-version",
        PYTHON_VERSION,
        "--no-site-packages",
        "--strict",
        "--warn-unreachable",
        "--no-incremental",
        *map(str, sources),
    ]
    return subprocess.run(
        command, capture_output=True, text=True, check=False, cwd=sources[0].parent
    )


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="mp-typecheck-") as tmp:
        work = Path(tmp)
        typeshed = build_typeshed(work)
        config = work / "mypy.ini"
        config.write_text("[mypy]\n", encoding="utf-8")
        source_dir = work / "src"
        source_dir.mkdir()
        sources = []
        for path in CHECKED:
            copy = source_dir / path.name
            shutil.copyfile(path, copy)
            sources.append(copy)
        result = run_mypy(typeshed, sources, config)
        print(result.stdout + result.stderr, end="")
        if result.returncode != 0:
            print("FAIL: the hot path does not type-check against the MicroPython stubs")
            return 1
        canary_dir = work / "canary"
        canary_dir.mkdir()
        canary = canary_dir / "canary.py"
        canary.write_text(CANARY, encoding="utf-8")
        rejected = run_mypy(typeshed, [canary], config)
        missing = [
            name for name in ("functools", "itertools") if f'"{name}"' not in rejected.stdout
        ]
        if rejected.returncode == 0 or missing:
            print(rejected.stdout + rejected.stderr, end="")
            print("FAIL: the canary using itertools/functools was not rejected: wrong typeshed?")
            return 1
        names = ", ".join(path.relative_to(ROOT).as_posix() for path in CHECKED)
        print(f"OK: {names} type-check against {PORT_STUBS} + {STDLIB_STUBS} (canary rejected)")
        return 0


if __name__ == "__main__":
    sys.exit(main())
