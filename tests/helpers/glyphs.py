"""Every text the screens can show, gathered from where it is written: the string literals of
the screens' code and of the presentation, service and Dealer Terminal modules (the language
tables are literals there), the ``.kv`` layouts' quoted strings, and the game files' words in
both languages (editions, pay tables).  Log lines and error texts are gathered too: a superset
of what is shown, so nothing shown is missed."""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: the code whose strings reach a screen (the terminal's, the service pages', the DT's)
CODE = (
    "ui",
    "kiosk/terminal/presentation",
    "kiosk/terminal/service",
    "kiosk/table/presentation",
    "kiosk/kernel/money_text.py",
    "kiosk/kernel/time_text.py",
)
#: the game files, whose words carry their own translations
GAME_FILES = ("kiosk/kernel/games",)
_KV_STRING = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")


def _python_files() -> Iterator[Path]:
    for name in CODE:
        path = REPO / name
        yield from ([path] if path.is_file() else sorted(path.rglob("*.py")))


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                ids.add(id(value))
    return ids


def python_strings() -> Iterator[tuple[str, str]]:
    """(where, text) for every string literal of the screens' code but docstrings."""
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or id(node) in skip:
                continue
            if isinstance(node.value, str) and node.value.strip():
                yield f"{path.relative_to(REPO)}:{node.lineno}", node.value


def kv_strings() -> Iterator[tuple[str, str]]:
    """(where, text) for every quoted string of the ``.kv`` layouts (comments left out)."""
    for path in sorted((REPO / "ui").rglob("*.kv")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0] if not line.lstrip().startswith("#:") else ""
            for match in _KV_STRING.finditer(code):
                text = match.group(1) or match.group(2) or ""
                if text.strip():
                    yield f"{path.relative_to(REPO)}:{number}", text


def _toml_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _toml_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _toml_strings(item)


def game_strings() -> Iterator[tuple[str, str]]:
    """(where, text) for every string of the game files (titles, wagers, outcomes: en, es)."""
    for folder in GAME_FILES:
        for path in sorted((REPO / folder).rglob("*.toml")):
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            for text in _toml_strings(data):
                yield str(path.relative_to(REPO)), text


def every_text() -> Iterator[tuple[str, str]]:
    """Every text gathered, with where it is written."""
    yield from python_strings()
    yield from kv_strings()
    yield from game_strings()


def missing(cmap: set[int]) -> dict[str, list[str]]:
    """Characters of the texts that ``cmap`` (a font's code points) lacks: char -> where."""
    out: dict[str, list[str]] = {}
    for where, text in every_text():
        for char in text:
            if char.isspace() or ord(char) < 0x20:
                continue
            if ord(char) not in cmap:
                out.setdefault(char, []).append(where)
    return out
