"""The requirement matrix: one TOML file per standard in ``docs/compliance/``, its checks and
its rendered markdown page.

Each requirement names its section, the requirement in our own words, how the product meets
it, the tests that show it (pytest node ids), a status and, unless it is met, the plain reason.
:func:`problems` finds every test id that does not exist (read with :mod:`ast`, never run) and
every requirement without evidence or reason; :func:`render` is the page a reader opens.
``python -m kiosk.app.lab.matrix`` rewrites the pages (``--check``: exit 1 when one is stale).
"""

from __future__ import annotations

import argparse
import ast
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from kiosk.bounded_read import InputFileError, read_bounded_text

STATUSES = ("met", "partly met", "not met", "not applicable")
#: the standards, in the order they are shown
STANDARD_FILES = ("gli-11.toml", "gli-24.toml")
MATRIX_FILE_LIMIT = 1 << 20


class MatrixError(ValueError):
    """A matrix file that cannot be read or has a malformed entry."""


@dataclass(frozen=True)
class Requirement:
    """One requirement of a standard and our evidence for it."""

    section: str
    title: str
    requirement: str
    how: str
    tests: tuple[str, ...]
    status: str
    reason: str
    pending: tuple[str, ...]  # evidence that other branches are adding


@dataclass(frozen=True)
class Standard:
    """A standard's requirement matrix."""

    id: str
    title: str
    version: str
    note: str
    requirements: tuple[Requirement, ...]

    @property
    def slug(self) -> str:
        """``gli-11`` for ``GLI-11``."""
        return self.id.lower()


def repository_root() -> Path:
    """The checkout this package runs from (``docs/compliance`` lives there)."""
    return Path(__file__).resolve().parents[3]


def compliance_dir(root: Path) -> Path:
    """Where the matrix files live."""
    return root / "docs" / "compliance"


def _text(table: dict[str, object], key: str, where: str, required: bool = True) -> str:
    value = table.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise MatrixError(f"{where}: '{key}' must be a non-empty text")
    return " ".join(value.split())


def _texts(table: dict[str, object], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MatrixError(f"{where}: '{key}' must be a list of texts")
    return tuple(value)


def load(path: Path) -> Standard:
    """A standard's matrix from its TOML file; :class:`MatrixError` when malformed."""
    try:
        data = tomllib.loads(read_bounded_text(path, MATRIX_FILE_LIMIT, what="matrix file"))
    except (InputFileError, tomllib.TOMLDecodeError) as exc:
        raise MatrixError(f"{path.name}: {exc}") from None
    head = data.get("standard")
    if not isinstance(head, dict):
        raise MatrixError(f"{path.name}: a [standard] table is needed")
    rows = data.get("requirement")
    if not isinstance(rows, list) or not rows:
        raise MatrixError(f"{path.name}: no [[requirement]] entries")
    requirements = []
    for i, row in enumerate(rows):
        where = f"{path.name} requirement {i + 1}"
        known = {"section", "title", "requirement", "how", "tests", "status", "reason", "pending"}
        unknown = sorted(set(row) - known)
        if unknown:
            raise MatrixError(f"{where}: unknown key {unknown[0]!r}")
        status = _text(row, "status", where)
        if status not in STATUSES:
            raise MatrixError(f"{where}: status {status!r} is not one of {', '.join(STATUSES)}")
        requirements.append(
            Requirement(
                section=_text(row, "section", where),
                title=_text(row, "title", where),
                requirement=_text(row, "requirement", where),
                how=_text(row, "how", where, required=False),
                tests=_texts(row, "tests", where),
                status=status,
                reason=_text(row, "reason", where, required=False),
                pending=_texts(row, "pending", where),
            )
        )
    return Standard(
        id=_text(head, "id", path.name),
        title=_text(head, "title", path.name),
        version=_text(head, "version", path.name),
        note=_text(head, "note", path.name, required=False),
        requirements=tuple(requirements),
    )


def load_all(root: Path) -> tuple[Standard, ...]:
    """Every standard's matrix under ``root``."""
    return tuple(load(compliance_dir(root) / name) for name in STANDARD_FILES)


def defined_names(source: str) -> dict[str, set[str]]:
    """Top-level functions and classes of a test module: ``{name: {method names}}``."""
    names: dict[str, set[str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.ClassDef):
            names[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            }
    return names


def missing_test(test_id: str, root: Path, cache: dict[str, dict[str, set[str]]]) -> str | None:
    """Why ``test_id`` (``path::function`` or ``path::Class::method``) names no test, or None."""
    path, *parts = test_id.split("::")
    if not path.startswith("tests/") or not path.endswith(".py") or not 1 <= len(parts) <= 2:
        return f"{test_id}: not a test id (tests/...py::test_name)"
    if path not in cache:
        file = root / path
        if not file.is_file():
            return f"{test_id}: no file {path}"
        cache[path] = defined_names(file.read_text(encoding="utf-8"))
    names = cache[path]
    if parts[0] not in names:
        return f"{test_id}: {path} defines no {parts[0]}"
    if len(parts) == 2 and parts[1] not in names[parts[0]]:
        return f"{test_id}: {parts[0]} has no method {parts[1]}"
    return None


def problems(standard: Standard, root: Path) -> list[str]:
    """Everything wrong with a matrix: unknown tests, requirements without evidence or reason."""
    found: list[str] = []
    cache: dict[str, dict[str, set[str]]] = {}
    seen: set[tuple[str, str]] = set()
    for r in standard.requirements:
        label = f"{standard.id} {r.section} {r.title}"
        if (r.section, r.title) in seen:
            found.append(f"{label}: listed twice")
        seen.add((r.section, r.title))
        if r.status in ("met", "partly met") and not r.tests:
            found.append(f"{label}: '{r.status}' without a test that shows it")
        if r.status in ("met", "partly met") and not r.how:
            found.append(f"{label}: '{r.status}' without saying how")
        if r.status != "met" and not r.reason:
            found.append(f"{label}: '{r.status}' without a reason")
        for test_id in r.tests:
            why = missing_test(test_id, root, cache)
            if why:
                found.append(f"{label}: {why}")
    return found


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render(standard: Standard) -> str:
    """The markdown page of a standard's matrix (generated: edit the TOML, not the page)."""
    counts = {s: sum(r.status == s for r in standard.requirements) for s in STATUSES}
    lines = [
        f"# {standard.id}: {standard.title} — requirement matrix",
        "",
        f"<!-- generated from {standard.slug}.toml by `python -m kiosk.app.lab.matrix`;"
        " do not edit by hand -->",
        "",
        f"Standard: {standard.id} {standard.title}, version {standard.version}.",
        "",
    ]
    if standard.note:
        lines += [standard.note, ""]
    lines += [
        "Summary: " + ", ".join(f"{counts[s]} {s}" for s in STATUSES) + ".",
        "",
        "| section | requirement (our words) | status |",
        "| --- | --- | --- |",
    ]
    for r in standard.requirements:
        lines.append(f"| {r.section} | **{_cell(r.title)}**: {_cell(r.requirement)} | {r.status} |")
    not_met = [r for r in standard.requirements if r.status in ("not met", "partly met")]
    if not_met:
        lines += ["", "## What we do not meet", ""]
        for r in not_met:
            lines.append(f"- **{r.section} {r.title}** ({r.status}): {r.reason}")
    lines += ["", "## Evidence, requirement by requirement", ""]
    for r in standard.requirements:
        lines += [f"### {r.section} {r.title} — {r.status}", "", r.requirement, ""]
        if r.how:
            lines += [f"How: {r.how}", ""]
        if r.reason:
            lines += [
                f"Why not fully: {r.reason}"
                if r.status != "not applicable"
                else f"Not applicable: {r.reason}",
                "",
            ]
        if r.tests:
            lines += ["Tests:", ""] + [f"- `{t}`" for t in r.tests] + [""]
        if r.pending:
            lines += ["Evidence to come (other branches):", ""]
            lines += [f"- {p}" for p in r.pending] + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def page_path(root: Path, standard: Standard) -> Path:
    """The rendered page of ``standard``."""
    return compliance_dir(root) / f"{standard.slug}.md"


def main(argv: list[str] | None = None) -> int:
    """Rewrite the pages (``--check``: only say which are stale, exit 1)."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.app.lab.matrix")
    parser.add_argument("--check", action="store_true", help="exit 1 when a page is stale")
    args = parser.parse_args(argv)
    root = repository_root()
    try:
        standards = load_all(root)
    except MatrixError as exc:
        print(f"matrix: {exc}", file=sys.stderr)
        return 2
    status = 0
    for standard in standards:
        for problem in problems(standard, root):
            print(f"matrix: {problem}", file=sys.stderr)
            status = 1
        page = page_path(root, standard)
        text = render(standard)
        current = page.read_text(encoding="utf-8") if page.is_file() else ""
        if current != text:
            if args.check:
                print(f"matrix: {page} is stale", file=sys.stderr)
                status = 1
            else:
                page.write_text(text, encoding="utf-8")
                print(f"wrote {page}")
    return status


if __name__ == "__main__":
    sys.exit(main())
