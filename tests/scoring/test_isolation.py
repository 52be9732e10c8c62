"""kiosk/kernel/scoring.py stays isolated: no run-time imports, no compiler directives."""

from __future__ import annotations

import ast
from pathlib import Path

import kiosk.kernel.scoring

SOURCE = Path(kiosk.kernel.scoring.__file__).read_text(encoding="utf-8")
TREE = ast.parse(SOURCE)


def _is_type_checking_block(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
        and not node.orelse
    )


def test_no_imports_at_run_time() -> None:
    # Imports are allowed only under `if TYPE_CHECKING:`, which is False at run time.
    guarded = {
        id(child) for node in TREE.body if _is_type_checking_block(node) for child in ast.walk(node)
    }
    imports = [
        ast.unparse(node)
        for node in ast.walk(TREE)
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in guarded
    ]
    assert imports == []
    assert "TYPE_CHECKING = False" in SOURCE


def test_type_checking_imports_only_the_standard_typing_modules() -> None:
    modules = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(TREE)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert modules <= {"collections.abc", "typing"}


def test_no_compiler_directive_so_every_micropython_port_compiles_it() -> None:
    # ``@micropython.native`` is a compile error on ports without a native emitter (aarch64):
    # machine code is chosen at build time (mpy-cross -X emit=native), never in the source
    decorated = {
        node.name: [ast.unparse(decorator) for decorator in node.decorator_list]
        for node in ast.walk(TREE)
        if isinstance(node, ast.FunctionDef | ast.ClassDef)
    }
    assert {"count_icons", "score_turbo"} <= decorated.keys()
    assert not any(decorated.values()), decorated
    assert "micropython" not in decorated  # the old shim class is gone
