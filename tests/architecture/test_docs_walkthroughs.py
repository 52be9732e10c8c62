"""docs/README.md cannot drift from the code: every ``file:function`` or ``file::Class.method``
it names exists (the file, and the name defined in it), every page it links exists, every page of
docs/ is in its index, and every ``Class.method`` its sequence diagrams draw is one of the steps
checked.  References are resolved as written, as a path (``kiosk/table/core/core.py``) or as a
dotted module (``kiosk.table.core.core``), so a page rewritten when files move is checked where they
went."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "docs" / "README.md"

#: `path/to/file.py:name`, `path/to/file.py::Class.method`, `pkg.module:name`, `pkg.module::C.m`
REFERENCE = re.compile(
    r"`(?P<file>[\w./-]+\.py|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?P<sep>::?)(?P<name>[\w.]+)`"
)
LINK = re.compile(r"\]\((?P<target>[^)#\s]+)(?:#[^)]*)?\)")
MERMAID = re.compile(r"```mermaid\n(?P<body>.*?)```", re.S)
DRAWN = re.compile(r"\b(?P<name>[A-Z]\w*\.\w+)\b")


def references(text: str) -> list[tuple[str, str]]:
    """Every (file or module, name) the text names."""
    return [(m["file"], m["name"]) for m in REFERENCE.finditer(text)]


def source_of(root: Path, where: str) -> Path | None:
    """The file a reference names, as a path or as a dotted module; None if there is none."""
    if where.endswith(".py"):
        path = root / where
        return path if path.is_file() else None
    base = root.joinpath(*where.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def defines(tree: ast.Module, name: str) -> bool:
    """Whether the module defines ``name`` (``function``, ``Class`` or ``Class.method``)."""
    body: list[ast.stmt] = tree.body
    for part in name.split("."):
        found: ast.stmt | None = None
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                if node.name == part:
                    found = node
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == part for t in targets):
                    found = node
        if found is None:
            return False
        body = getattr(found, "body", [])
    return True


def broken_references(root: Path, text: str) -> list[str]:
    out = []
    for where, name in references(text):
        path = source_of(root, where)
        if path is None:
            out.append(f"{where}: no such file or module")
        elif not defines(ast.parse(path.read_text(encoding="utf-8")), name):
            out.append(f"{where}: defines no {name}")
    return out


def test_the_walkthroughs_name_many_steps() -> None:
    refs = references(INDEX.read_text(encoding="utf-8"))
    assert len(refs) >= 60, "the walkthroughs name their steps' files and functions"
    assert len(MERMAID.findall(INDEX.read_text(encoding="utf-8"))) == 2


def test_every_file_and_function_named_exists() -> None:
    assert broken_references(ROOT, INDEX.read_text(encoding="utf-8")) == []


def test_every_class_method_drawn_is_a_checked_step() -> None:
    text = INDEX.read_text(encoding="utf-8")
    checked = {name for _, name in references(text)}
    drawn = {m["name"] for block in MERMAID.finditer(text) for m in DRAWN.finditer(block["body"])}
    assert sorted(drawn - checked) == []


def test_every_link_resolves_and_every_page_is_indexed() -> None:
    text = INDEX.read_text(encoding="utf-8")
    targets = {(INDEX.parent / m["target"]).resolve() for m in LINK.finditer(text)}
    assert sorted(str(t) for t in targets if not t.exists()) == []
    pages = {p.resolve() for p in (ROOT / "docs").glob("*.md") if p != INDEX}
    pages |= {p.resolve() for p in (ROOT / "docs").glob("*/README.md")}
    assert sorted(str(p.relative_to(ROOT)) for p in pages - targets) == []


def test_the_check_finds_a_missing_file_a_missing_name_and_reads_both_spellings(
    tmp_path: Path,
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(
        "class Thing:\n    def go(self) -> None: ...\n\ndef run() -> None: ...\n"
    )
    text = (
        "`pkg/mod.py::Thing.go` `pkg/mod.py:run` `pkg.mod::Thing.go` `pkg.mod:run`\n"
        "`pkg/mod.py::Thing.stop` `pkg.mod:walk` `pkg/gone.py:run` `pkg.gone:run`\n"
    )
    assert broken_references(tmp_path, text) == [
        "pkg/mod.py: defines no Thing.stop",
        "pkg.mod: defines no walk",
        "pkg/gone.py: no such file or module",
        "pkg.gone: no such file or module",
    ]
