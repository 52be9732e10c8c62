"""No import cycles (decision 0050): none between packages, none between files of kiosk/, ui/
and rng/, counting imports inside functions and under ``if TYPE_CHECKING:`` (a cycle held apart
by an import inside a function is still a cycle).  The cycles not broken yet are listed in
``KNOWN``: the list can only shrink (a listed cycle that is gone, or changed, fails too).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.architecture import import_graph

ROOT = Path(__file__).resolve().parents[2]

#: file-level cycles still to break (decision 0050); remove an entry when it is broken
KNOWN: frozenset[frozenset[str]] = frozenset(
    {
        frozenset(
            {
                "kiosk.host.db",
                "kiosk.host.device_counts",
                "kiosk.host.group_record",
                "kiosk.host.plausibility",
                "kiosk.host.registry",
                "kiosk.host.stores",
            }
        ),
        frozenset(
            {
                "kiosk.store.audit",
                "kiosk.store.critmem",
                "kiosk.store.journal",
                "kiosk.store.reader",
                "kiosk.store.verify",
            }
        ),
    }
)


def package_cycles(root: Path) -> list[tuple[str, str]]:
    found = import_graph.edges(root)
    pairs = {(source, target) for source, target, _module, _imported in found}
    return sorted((a, b) for a, b in pairs if (b, a) in pairs and a < b)


def new_cycles(root: Path) -> str:
    """The file-level cycles of the tree at ``root`` not in ``KNOWN``, described."""
    graph = import_graph.module_graph(root)
    return "\n".join(
        import_graph.describe_cycle(graph, group)
        for group in import_graph.file_cycles(graph)
        if group not in KNOWN
    )


def test_no_package_cycle() -> None:
    assert package_cycles(ROOT) == []


def test_no_new_file_cycle() -> None:
    assert new_cycles(ROOT) == "", "import cycles between files:\n" + new_cycles(ROOT)


def test_the_known_cycles_only_shrink() -> None:
    found = set(import_graph.file_cycles(import_graph.module_graph(ROOT)))
    gone = sorted(sorted(group) for group in KNOWN - found)
    assert gone == [], f"broken or changed: remove from KNOWN (decision 0050): {gone}"


def copy_product(destination: Path) -> Path:
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("kiosk", "ui", "rng"):
        shutil.copytree(ROOT / package, destination / package, ignore=skip)
    return destination


def test_a_cycle_through_a_function_level_import_is_caught(tmp_path: Path) -> None:
    root = copy_product(tmp_path)
    # the money text importing the screen that uses it, inside a function
    path = root / "kiosk" / "presentation" / "money.py"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text + "\n\ndef _late() -> None:\n    from kiosk.presentation import chips  # noqa\n",
        encoding="utf-8",
    )
    found = new_cycles(root)
    assert "kiosk.presentation.chips" in found and "kiosk.presentation.money:" in found, found


def test_a_cycle_through_type_checking_is_caught(tmp_path: Path) -> None:
    root = copy_product(tmp_path)
    (root / "kiosk" / "signer" / "loop.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from kiosk.store.faults import describe  # noqa\n",
        encoding="utf-8",
    )
    (root / "kiosk" / "store" / "faults.py").write_text(
        (ROOT / "kiosk" / "store" / "faults.py").read_text(encoding="utf-8")
        + "\nfrom kiosk.signer import loop  # noqa\n",
        encoding="utf-8",
    )
    assert package_cycles(root) == [("kiosk.signer", "kiosk.store")]
    assert "kiosk.signer.loop:4 -> kiosk.store.faults" in new_cycles(root)
