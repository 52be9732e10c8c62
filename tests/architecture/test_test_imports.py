"""The tests' own layout (tests/README.md): code shared by test modules lives in ``tests/helpers``;
no module imports a test module (``test_*``) or a conftest, and a helper kept in a test directory
is imported from that directory alone.  Checked by an AST scan of every module under tests/, and
shown to catch each kind of violation in a small tree written for the purpose."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: shared outside tests/helpers on purpose: MicroPython payloads, staged by path onto the board
#: (tests/micropython/run_*.py, deploy/pi_emulated.py) and imported there as top-level modules
PAYLOADS = "tests.micropython"

#: a module named in a string run by a child Python: ``-m tests.x.y`` or ``from tests.x import``
_IN_STRING = re.compile(r"(?:^|\bfrom |\bimport )(tests(?:\.\w+)+)")


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(root: Path, path: Path) -> set[str]:
    """The ``tests.*`` modules (or packages) that the module at ``path`` imports, anywhere in
    it (inside functions too), and those named in its strings for a child Python to import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    own = module_name(root, path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], node.module or ""])
            else:
                base = node.module or ""
            found.add(base.rstrip("."))
            found.update(f"{base.rstrip('.')}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.update(m.group(1) for m in _IN_STRING.finditer(node.value))
    return {name for name in found if name == "tests" or name.startswith("tests.")}


def violations(root: Path) -> list[str]:
    """Every breach of the layout under ``root``/tests, one line each."""
    modules = {module_name(root, p): p for p in sorted((root / "tests").rglob("*.py"))}
    out = []
    for name, path in modules.items():
        where = path.relative_to(root).as_posix()
        for target in sorted(imported(root, path) & modules.keys()):
            leaf = target.rpartition(".")[2]
            home = target.rpartition(".")[0]
            if target == name:
                continue
            if leaf.startswith("test_"):
                out.append(f"{where} imports the test module {target}")
            elif leaf == "conftest":
                out.append(f"{where} imports the conftest {target}")
            elif (
                modules[target].name != "__init__.py"
                and not target.startswith(("tests.helpers.", f"{PAYLOADS}."))
                and not name.startswith(f"{home}.")
            ):
                out.append(f"{where} imports {target}, a helper of another directory")
    return out


def test_no_module_under_tests_imports_a_test_module_a_conftest_or_another_dirs_helper() -> None:
    assert violations(ROOT) == []


def test_the_scan_catches_each_kind_of_violation(tmp_path: Path) -> None:
    files = {
        "tests/__init__.py": "",
        "tests/helpers/__init__.py": "",
        "tests/helpers/rig.py": "X = 1\n",
        "tests/a/__init__.py": "",
        "tests/a/conftest.py": "Y = 1\n",
        "tests/a/local.py": "from tests.helpers.rig import X\n",
        "tests/a/test_one.py": "from tests.a.local import X\nfrom tests.a import conftest\n",
        "tests/a/test_two.py": "def f():\n    from .test_one import X\n",
        "tests/b/__init__.py": "",
        "tests/b/test_three.py": (
            "from tests.a.local import X\n"
            "from tests.a import test_one\n"
            "ARGS = ['-m', 'tests.a.test_two']\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert violations(tmp_path) == [
        "tests/a/test_one.py imports the conftest tests.a.conftest",
        "tests/a/test_two.py imports the test module tests.a.test_one",
        "tests/b/test_three.py imports tests.a.local, a helper of another directory",
        "tests/b/test_three.py imports the test module tests.a.test_one",
        "tests/b/test_three.py imports the test module tests.a.test_two",
    ]
