"""Print the package-to-package import graph of the product (kiosk, ui, rng).

Run from the repository root: ``python -m tests.architecture.import_graph``.  Each line is
``importer -> imported  (count)``; a line starting with ``UP`` imports a package that sits in a
higher layer than the importer (see docs/architecture.md).  Imports inside ``if TYPE_CHECKING``
blocks are counted too: they are still dependencies for a reader.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

ROOTS = ("kiosk", "ui", "rng")

# Bottom-up rank of each package (docs/architecture.md).  Higher may import lower.
RANK: dict[str, float] = {
    "rng": 0,
    "kiosk.(top)": 0,
    "kiosk.cards": 1,
    "kiosk.scoring": 1,
    "kiosk.games": 2,
    "kiosk.terminal": 3,
    "kiosk.analysis": 3,
    "kiosk.store": 4,
    "kiosk.signer": 4,
    "kiosk.devices": 5,
    "kiosk.hostlink": 5,
    "kiosk.sas": 5,
    "kiosk.runtime": 6,
    "kiosk.host": 6,
    "kiosk.table": 6,
    "kiosk.bridge": 6,
    "kiosk.seat": 6.5,  # a terminal seated at a table: above runtime and table, below the screen
    "kiosk.presentation": 7,
    "kiosk.web": 7,
    "kiosk.textui": 8,
    "kiosk.robot": 8,
    "kiosk.service": 9,
    "ui": 10,
    "kiosk.app": 11,
    "kiosk.cli": 12,
}

# Modules of the top-level kiosk package shared by every layer (no upward imports of their own).
BASE_MODULES = {
    "kiosk",
    "kiosk.bounded_read",
    "kiosk.clock",
    "kiosk.durable",
    "kiosk.integrity",
    "kiosk.interrupts",
    "kiosk.paths",
}


def package_of(module: str) -> str | None:
    """The layer package a dotted module belongs to, or None if outside the product."""
    parts = module.split(".")
    if parts[0] not in ROOTS:
        return None
    if parts[0] != "kiosk":
        return parts[0]
    if len(parts) > 1 and (parts[1].startswith("cli") or parts[1] == "__main__"):
        return "kiosk.cli"
    if len(parts) == 1 or ".".join(parts[:2]) in BASE_MODULES or parts[1].startswith("__"):
        return "kiosk.(top)"
    return f"kiosk.{parts[1]}"


def module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, module: str) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                drop = node.level - 1 if is_package else node.level
                base = base[: len(base) - drop] if drop else base
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append(target)
            # "from kiosk import cli_args" names a module, not an attribute
            for alias in node.names:
                if alias.name[:1].islower():
                    found.append(f"{target}.{alias.name}")
    return found


def existing_module(root: Path, target: str) -> str:
    """The longest prefix of ``target`` that is a module or package under ``root``
    (``kiosk.cli_args.int_type`` -> ``kiosk.cli_args``)."""
    parts = target.split(".")
    while len(parts) > 1:
        path = root.joinpath(*parts)
        if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
            break
        parts.pop()
    return ".".join(parts)


def edges(root: Path) -> Counter[tuple[str, str, str, str]]:
    """(importer package, imported package, importer module, imported module) -> count."""
    counted: Counter[tuple[str, str, str, str]] = Counter()
    for top in ROOTS:
        for path in sorted((root / top).rglob("*.py")):
            module = module_name(path, root)
            source_package = package_of(module)
            assert source_package is not None
            seen: set[tuple[str, str]] = set()
            for imported in imports_of(path, module):
                target = existing_module(root, imported)
                target_package = package_of(target)
                if target_package is None or target_package == source_package:
                    continue
                # keep the longest real module name for "from x import y" pairs
                key = (target_package, target)
                if key in seen:
                    continue
                seen.add(key)
                counted[(source_package, target_package, module, target)] += 1
    return counted


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path.cwd()
    found = edges(root)
    packages: Counter[tuple[str, str]] = Counter()
    upward: dict[tuple[str, str], set[str]] = {}
    for (source, target, module, imported), _count in found.items():
        packages[(source, target)] += 1
        if RANK.get(target, 99) > RANK.get(source, 99):
            upward.setdefault((source, target), set()).add(f"{module} -> {imported}")
    for (source, target), count in sorted(packages.items()):
        mark = "UP" if (source, target) in upward else "  "
        print(f"{mark} {source:20} -> {target:20} ({count})")
    print()
    cycles = sorted({tuple(sorted(pair)) for pair in packages if (pair[1], pair[0]) in packages})
    print(f"cycles between packages: {len(cycles)}")
    for a, b in cycles:
        print(f"   {a} <-> {b}")
    print(f"upward package edges: {len(upward)}")
    for (source, target), modules in sorted(upward.items()):
        print(f"   {source} -> {target}:")
        for line in sorted(modules):
            print(f"      {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
