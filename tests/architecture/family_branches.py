"""Find the places outside the games layer that test which game family they hold.

A *family branch* is code that decides by family instead of asking the family's registered
parts: ``isinstance``/``issubclass`` against a family's rules class (or importing it),
``hasattr``/``getattr`` of ``"edition"`` (what only Turbo rules carry), a comparison with an
edition id (``"stadium-3cp"``, ``"turbo-..."``, ``STADIUM_ID``), a table keyed by one, and a
family's name (``"turbo"``, ``"stadium"``) anywhere but in a docstring.  The games layer and
each layer's per-family modules (``families/`` packages) are where such knowledge belongs, so
they are not scanned.

Run ``python -m tests.architecture.family_branches [ROOT]`` to list every branch with its
place (ROOT: another checkout, e.g. the code before the families).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("kiosk", "ui")
#: where family knowledge belongs: the games layer and every layer's per-family modules
EXEMPT_DIRS = (Path("kiosk/kernel/games"),)
EXEMPT_PART = "families"
FAMILY_CLASSES = frozenset({"TurboRules", "StadiumRules"})
FAMILY_NAMES = frozenset({"turbo", "stadium"})
EDITION_NAMES = frozenset({"STADIUM_ID"})
DISCRIMINATING_ATTRIBUTES = frozenset({"edition"})


@dataclass(frozen=True)
class Branch:
    """One family branch: where it is and what it tests."""

    path: str
    line: int
    kind: str
    code: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind}: {self.code}"


def _names(node: ast.AST) -> set[str]:
    found = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
    return found


def _is_family_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        value = node.value
        return value in FAMILY_NAMES or any(value.startswith(f"{name}-") for name in FAMILY_NAMES)
    return isinstance(node, ast.Name | ast.Attribute) and bool(_names(node) & EDITION_NAMES)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            found.add(id(body[0].value))
    return found


def _branches(tree: ast.AST) -> Iterator[tuple[ast.AST, str]]:
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name, args = node.func.id, node.args
            if name in ("isinstance", "issubclass") and len(args) == 2:
                if _names(args[1]) & FAMILY_CLASSES:
                    yield node, "isinstance against a family's rules"
            elif name in ("hasattr", "getattr") and len(args) >= 2:
                key = args[1]
                if isinstance(key, ast.Constant) and key.value in DISCRIMINATING_ATTRIBUTES:
                    yield node, f"{name} of a family's attribute"
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_family_literal(x) for x in operands) or any(
                isinstance(x, ast.Tuple | ast.List | ast.Set)
                and any(_is_family_literal(e) for e in x.elts)
                for x in operands
            ):
                yield node, "comparison with a family or edition name"
        elif isinstance(node, ast.Dict):
            if any(k is not None and _is_family_literal(k) for k in node.keys):
                yield node, "table keyed by family"
        elif (
            isinstance(node, ast.Constant)
            and node.value in FAMILY_NAMES
            and id(node) not in docstrings
        ):
            yield node, "a family's name"
        elif isinstance(node, ast.MatchValue) and _is_family_literal(node.value):
            yield node, "match on a family or edition name"
        elif isinstance(node, ast.ImportFrom) and node.module in (
            "kiosk.kernel.games.turbo",
            "kiosk.kernel.games.stadium",
        ):
            names = {a.name for a in node.names} & FAMILY_CLASSES
            if names:
                yield node, "import of a family's rules class"


def scanned_files(root: Path = ROOT) -> Iterator[Path]:
    """Every Python source outside the games layer and the per-family modules."""
    for top in SCANNED:
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root)
            if any(rel.is_relative_to(d) for d in EXEMPT_DIRS) or EXEMPT_PART in rel.parts:
                continue
            yield path


def family_branches(root: Path = ROOT) -> list[Branch]:
    """Every family branch in the scanned sources (one a line), in file and line order."""
    out = []
    for path in scanned_files(root):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, filename=str(path))
        for node, kind in _branches(tree):
            code = ast.get_source_segment(source, node) or ""
            line = getattr(node, "lineno", 0)
            rel = str(path.relative_to(root))
            out.append(Branch(rel, line, kind, " ".join(code.split())[:80]))
    # one branch a line: a name inside a flagged comparison or table is the same branch
    by_line: dict[tuple[str, int], Branch] = {}
    for branch in sorted(out, key=lambda b: (b.path, b.line, -len(b.code))):
        by_line.setdefault((branch.path, branch.line), branch)
    return list(by_line.values())


def main(argv: list[str]) -> int:
    """Print every branch, then the count by file and in total."""
    found = family_branches(Path(argv[0]).resolve() if argv else ROOT)
    for branch in found:
        print(branch)
    by_file: dict[str, int] = {}
    for branch in found:
        by_file[branch.path] = by_file.get(branch.path, 0) + 1
    for path, n in sorted(by_file.items(), key=lambda item: -item[1]):
        print(f"{n:3d}  {path}")
    print(f"{len(found)} family branches in {len(by_file)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
