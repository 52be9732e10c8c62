"""No import cycles (decision 0050): none between packages, none between files of kiosk/, ui/
and rng/, counting imports inside functions and under ``if TYPE_CHECKING:`` (a cycle held apart
by an import inside a function is still a cycle).  Each failure prints the cycle, an import
path through it with the line of each import.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.architecture import import_graph

ROOT = Path(__file__).resolve().parents[2]


def package_cycles(root: Path) -> list[tuple[str, str]]:
    found = import_graph.edges(root)
    pairs = {(source, target) for source, target, _module, _imported in found}
    return sorted((a, b) for a, b in pairs if (b, a) in pairs and a < b)


def new_cycles(root: Path) -> str:
    """The file-level cycles of the tree at ``root``, described (empty: none)."""
    graph = import_graph.module_graph(root)
    return "\n".join(
        import_graph.describe_cycle(graph, group) for group in import_graph.file_cycles(graph)
    )


def test_no_package_cycle() -> None:
    assert package_cycles(ROOT) == []


def test_no_file_cycle() -> None:
    assert new_cycles(ROOT) == "", "import cycles between files:\n" + new_cycles(ROOT)


def copy_product(destination: Path) -> Path:
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("kiosk", "ui", "rng"):
        shutil.copytree(ROOT / package, destination / package, ignore=skip)
    return destination


def test_a_cycle_through_a_function_level_import_is_caught(tmp_path: Path) -> None:
    root = copy_product(tmp_path)
    # the money text importing the screen that uses it, inside a function
    path = root / "kiosk" / "terminal" / "presentation" / "money.py"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text
        + "\n\ndef _late() -> None:\n    from kiosk.terminal.presentation import chips  # noqa\n",
        encoding="utf-8",
    )
    found = new_cycles(root)
    assert (
        "kiosk.terminal.presentation.chips" in found
        and "kiosk.terminal.presentation.money:" in found
    ), found


def test_a_cycle_through_type_checking_is_caught(tmp_path: Path) -> None:
    root = copy_product(tmp_path)
    (root / "kiosk" / "terminal" / "signer" / "loop.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from kiosk.terminal.store.faults import describe  # noqa\n",
        encoding="utf-8",
    )
    (root / "kiosk" / "terminal" / "store" / "faults.py").write_text(
        (ROOT / "kiosk" / "terminal" / "store" / "faults.py").read_text(encoding="utf-8")
        + "\nfrom kiosk.terminal.signer import loop  # noqa\n",
        encoding="utf-8",
    )
    assert package_cycles(root) == [("kiosk.terminal.signer", "kiosk.terminal.store")]
    assert "kiosk.terminal.signer.loop:4 -> kiosk.terminal.store.faults" in new_cycles(root)
