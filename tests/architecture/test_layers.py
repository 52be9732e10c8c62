"""The import rules of docs/architecture.md, checked by import-linter (pyproject.toml
``[tool.importlinter]``) on the real tree, and shown to catch a deliberate violation in a copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.architecture import import_graph

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("kiosk", "ui", "rng")


def lint_imports(root: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the tree at ``root`` (its own pyproject.toml, no cache written),
    limited to ``contracts`` (ids) when some are named."""
    code = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    only = [arg for contract in contracts for arg in ("--contract", contract)]
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache", "--no-logo", *only],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def copy_tree(destination: Path) -> Path:
    """The product's packages and pyproject.toml copied to ``destination``."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, destination / package, ignore=skip)
    shutil.copy2(ROOT / "pyproject.toml", destination / "pyproject.toml")
    return destination


def test_every_import_contract_is_kept() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "bad_import", "contract", "chain"),
    [
        # presentation reaching up into the text UI (the money formatting of before)
        (
            "kiosk/terminal/presentation/money.py",
            "from kiosk.terminal.textui import show",
            "terminal-step-order",
            "kiosk.terminal.presentation.money -> kiosk.terminal.textui.show",
        ),
        # the signer reaching back into the store (one-way since decision 0050)
        (
            "kiosk/terminal/signer/framing.py",
            "from kiosk.terminal.store import faults",
            "terminal-step-order",
            "kiosk.terminal.signer.framing -> kiosk.terminal.store.faults",
        ),
        # a lower step reaching for the composition root
        (
            "kiosk/terminal/textui/session.py",
            "from kiosk.terminal.app import wiring",
            "terminal-ladder",
            "kiosk.terminal.textui.session -> kiosk.terminal.app.wiring",
        ),
        # the host link depending on the runtime class instead of its protocol
        (
            "kiosk/terminal/hostlink/link.py",
            "from kiosk.terminal.runtime import terminal",
            "terminal-ladder",
            "kiosk.terminal.hostlink.link -> kiosk.terminal.runtime.terminal",
        ),
        # the terminal's link reaching into the reference host's database
        (
            "kiosk/terminal/hostlink/client.py",
            "from kiosk.host.accounting import db",
            "terminal-alone",
            "kiosk.terminal.hostlink.client -> kiosk.host.accounting.db",
        ),
        # the terminal's software carrying a dashboard's dependency
        (
            "kiosk/terminal/core/meters.py",
            "import starlette",
            "terminal-alone",
            "kiosk.terminal.core.meters -> starlette",
        ),
        # the kernel reaching up into a deployable
        (
            "kiosk/kernel/games/base.py",
            "from kiosk.terminal.core import events",
            "layers",
            "kiosk.kernel.games.base -> kiosk.terminal.core.events",
        ),
        # the dashboard reaching into the table controller
        (
            "kiosk/host/web/floor.py",
            "from kiosk.table.core import core",
            "table-host-apart",
            "kiosk.host.web.floor -> kiosk.table.core.core",
        ),
        # Kivy below the ui layer
        (
            "kiosk/terminal/presentation/table.py",
            "import kivy",
            "no-kivy-below-ui",
            "kiosk.terminal.presentation.table -> kivy",
        ),
    ],
)
def test_a_deliberate_violation_is_caught(
    tmp_path: Path, module: str, bad_import: str, contract: str, chain: str
) -> None:
    tree = copy_tree(tmp_path)
    target = tree / module
    target.write_text(
        target.read_text(encoding="utf-8") + f"\n{bad_import}  # noqa\n", encoding="utf-8"
    )
    result = lint_imports(tree, contract)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Contracts: 0 kept, 1 broken." in result.stdout, result.stdout
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert chain in broken, result.stdout
    # the same tree without the injected line is clean: the contract, not the copy, failed
    target.write_text(
        target.read_text(encoding="utf-8").replace(f"\n{bad_import}  # noqa\n", ""),
        encoding="utf-8",
    )
    assert lint_imports(tree, contract).returncode == 0


def test_the_measured_graph_has_no_upward_edge_or_package_cycle(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The graph script of the report agrees with the contracts (ranks of docs/architecture.md)."""
    assert import_graph.main(["import_graph", str(ROOT)]) == 0
    out = capsys.readouterr().out
    assert "upward package edges: 0" in out, out
    assert "cycles between packages: 0\n" in out, out
    assert "file-level import cycles: 0\n" in out, out
