"""Print the package-to-package import graph of the product (kiosk, ui, rng).

Run from the repository root: ``python -m tests.architecture.import_graph``.  Each line is
``importer -> imported  (count)``; a line starting with ``UP`` imports a package that sits in a
higher layer than the importer (see docs/architecture.md).  Imports inside ``if TYPE_CHECKING``
blocks and inside functions are counted too: they are still dependencies for a reader, and a
cycle held apart by an import inside a function is still a cycle.

The same scan at file level (module to module) gives the import cycles between files:
:func:`file_cycles` (decision 0050), printed at the end.
"""

from __future__ import annotations

import ast
import functools
import itertools
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOTS = ("kiosk", "ui", "rng")

# Bottom-up rank of each package (docs/architecture.md): the kernel, the terminal on it, the
# table and the host on the terminal, the tools on all of them.  Higher may import lower;
# siblings of one step (``:`` in pyproject.toml) share a rank.
RANK: dict[str, float] = {
    "rng": 0,
    "kiosk.(top)": 0,
    "kiosk.kernel.(base)": 0,
    "kiosk.kernel.cards": 1,
    "kiosk.kernel.scoring": 1,
    "kiosk.kernel.games": 2,
    "kiosk.kernel.analysis": 3,
    # the terminal
    "kiosk.terminal.core": 4,
    "kiosk.terminal.store": 5,
    "kiosk.terminal.signer": 4.5,  # below the store: the store signs through it (decision 0050)
    "kiosk.terminal.devices": 6,
    "kiosk.terminal.hostlink": 6,
    "kiosk.terminal.sas": 6,
    "kiosk.terminal.progressive": 6,
    "kiosk.terminal.bridge": 7,
    "kiosk.terminal.runtime": 7,
    "kiosk.terminal.seat": 7,
    "kiosk.terminal.presentation": 8,
    "kiosk.terminal.textui": 8,
    "kiosk.terminal.robot": 8,
    "kiosk.terminal.service": 8,
    "kiosk.terminal.app": 9,
    "kiosk.terminal.cli": 9,
    "ui.terminal": 9,
    # the table and the host
    "kiosk.table.core": 10,
    "kiosk.table.progressive": 10.5,
    "kiosk.table.presentation": 11,
    "ui.table": 12,
    "kiosk.table.cli": 13,
    "kiosk.host.accounting": 10,
    "kiosk.host.web": 11,
    "kiosk.host.sas": 11,
    "kiosk.host.embedded": 11,
    "kiosk.host.cli": 12,
    # the tools, and the dispatcher of every command
    "kiosk.tools": 14,
    "kiosk.tools.cli": 15,
    "kiosk.cli": 16,
}

#: the deployables' folders: a module's package is its first three name parts there
DEPLOYABLES = ("kernel", "terminal", "table", "host")
#: the kernel's ranked parts; every other kernel module is one of its small helpers (rank 0)
KERNEL_PARTS = {"cards", "scoring", "games", "analysis"}


def package_of(module: str) -> str | None:
    """The layer package a dotted module belongs to, or None if outside the product."""
    parts = module.split(".")
    if parts[0] not in ROOTS:
        return None
    if parts[0] == "ui":
        return ".".join(parts[:2]) if len(parts) > 1 and parts[1] in ("terminal", "table") else "ui"
    if parts[0] != "kiosk":
        return parts[0]
    if len(parts) > 1 and parts[1] in ("cli", "__main__"):
        return "kiosk.cli"
    if len(parts) == 1 or parts[1].startswith("__"):
        return "kiosk.(top)"
    if parts[1] == "tools":
        return "kiosk.tools.cli" if len(parts) > 2 and parts[2] == "cli" else "kiosk.tools"
    if parts[1] == "kernel" and len(parts) > 2 and parts[2] not in KERNEL_PARTS:
        return "kiosk.kernel.(base)"
    if parts[1] in DEPLOYABLES:
        return ".".join(parts[:3]) if len(parts) > 2 else "kiosk.(top)"
    return f"kiosk.{parts[1]}"


def module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@dataclass(frozen=True)
class Statement:
    """One ``import`` (``source`` None) or ``from source import ...`` statement."""

    line: int
    names: tuple[str, ...]
    source: str | None = None
    level: int = 0  # the dots of a relative ``from``


@functools.cache
def statements(text: str) -> tuple[Statement, ...]:
    """The import statements anywhere in a module's text, in :func:`ast.walk`'s order.

    Kept per text: the scans of the same files (the cycles, the layers, a copy of the tree
    with one file changed) parse each file once in a test process, not once a scan."""
    found: list[Statement] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.append(Statement(node.lineno, tuple(alias.name for alias in node.names)))
        elif isinstance(node, ast.ImportFrom):
            names = tuple(alias.name for alias in node.names)
            found.append(Statement(node.lineno, names, node.module or "", node.level))
    return tuple(found)


def _from_target(statement: Statement, module: str, is_package: bool) -> str:
    """The module a ``from`` statement names, its relative dots resolved against ``module``."""
    if not statement.level:
        return statement.source or ""
    base = module.split(".")
    drop = statement.level - 1 if is_package else statement.level
    base = base[: len(base) - drop] if drop else base
    return ".".join([*base, statement.source] if statement.source else base)


def imports_of(path: Path, module: str) -> list[str]:
    found: list[str] = []
    is_package = path.name == "__init__.py"
    for statement in statements(path.read_text(encoding="utf-8")):
        if statement.source is None:
            found.extend(statement.names)
        else:
            target = _from_target(statement, module, is_package)
            found.append(target)
            # "from kiosk import cli_args" names a module, not an attribute
            for name in statement.names:
                if name[:1].islower():
                    found.append(f"{target}.{name}")
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


def module_imports(path: Path, module: str, root: Path) -> dict[str, int]:
    """The product modules ``path`` imports (anywhere in the file) -> the first line doing so.

    ``from package import name`` counts as importing ``package.name`` when that is a module,
    otherwise as importing ``package`` (its ``__init__``).
    """
    is_package = path.name == "__init__.py"
    found: dict[str, int] = {}
    for statement in statements(path.read_text(encoding="utf-8")):
        targets: list[str] = []
        if statement.source is None:
            targets = [existing_module(root, name) for name in statement.names]
        else:
            target = _from_target(statement, module, is_package)
            for name in statement.names:
                named = f"{target}.{name}"
                sub = existing_module(root, named)
                targets.append(sub if sub == named else existing_module(root, target))
        for target in targets:
            if target != module and package_of(target) is not None:
                found.setdefault(target, statement.line)
    return found


def module_graph(root: Path) -> dict[str, dict[str, int]]:
    """Every product module -> the product modules it imports (-> line of the import)."""
    graph: dict[str, dict[str, int]] = {}
    for top in ROOTS:
        for path in sorted((root / top).rglob("*.py")):
            module = module_name(path, root)
            graph[module] = module_imports(path, module, root)
    return graph


def file_cycles(graph: dict[str, dict[str, int]]) -> list[frozenset[str]]:
    """The groups of modules that import each other (strongly connected, 2 or more modules),
    found by Tarjan's algorithm (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                nxt = pending.pop()
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(frozenset(group))
    return sorted(groups, key=sorted)


def cycle_path(graph: dict[str, dict[str, int]], group: frozenset[str]) -> list[str]:
    """One closed import path through ``group``, each step ``module:line -> module``."""
    start = min(group)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:  # breadth-first back to start, inside the group
        following: list[str] = []
        for node in frontier:
            for nxt in sorted(graph[node]):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    path.reverse()
                    path.append(start)
                    return [f"{a}:{graph[a][b]} -> {b}" for a, b in itertools.pairwise(path)]
                if nxt in group and nxt not in previous and nxt != start:
                    previous[nxt] = node
                    following.append(nxt)
        frontier = following
    return []


def describe_cycle(graph: dict[str, dict[str, int]], group: frozenset[str]) -> str:
    """The modules of a cycle and one path through them, on a few lines."""
    steps = "\n".join(f"      {step}" for step in cycle_path(graph, group))
    return f"   {', '.join(sorted(group))}\n{steps}"


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
    graph = module_graph(root)
    groups = file_cycles(graph)
    print(f"file-level import cycles: {len(groups)}")
    for group in groups:
        print(describe_cycle(graph, group))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
