"""The requirement matrix: one TOML file per standard in ``docs/compliance/``, its checks and
its rendered markdown page.

Each requirement names its section, the requirement in our own words, how the product meets
it, the tests that show it (pytest node ids), a status and, unless it is met, the plain reason.
Each also says whether its section number was checked against a public copy of the standard
(``verified``), which one (``source``, an id of the file's ``[[source]]`` list of URLs) and what
was seen there or why the number could not be confirmed (``check``); the standard's version
names the sources it was read from (``version_sources``).
:func:`problems` finds every test id that does not exist (read with :mod:`ast`, never run),
every requirement without evidence or reason and every verification claim without a source;
:func:`render` is the page a reader opens.
``python -m kiosk.tools.lab.matrix`` rewrites the pages (``--check``: exit 1 when one is stale).
"""

from __future__ import annotations

import argparse
import ast
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from kiosk.kernel.bounded_read import InputFileError, read_bounded_text

STATUSES = ("met", "partly met", "not met", "not applicable")
#: the standards, in the order they are shown
STANDARD_FILES = ("gli-11.toml", "gli-24.toml", "gli-12.toml")
MATRIX_FILE_LIMIT = 1 << 20


class MatrixError(ValueError):
    """A matrix file that cannot be read or has a malformed entry."""


@dataclass(frozen=True)
class Source:
    """A public copy of (part of) a standard that section numbers were checked against."""

    id: str
    url: str
    shows: str  # what that copy shows, in our words


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
    verified: bool  # the section number was seen in a public copy of the standard
    source: str  # the id of that copy (a Source), or "" when none was found
    check: str  # what was seen there, or why the number could not be confirmed


@dataclass(frozen=True)
class Standard:
    """A standard's requirement matrix."""

    id: str
    title: str
    version: str
    version_sources: tuple[str, ...]  # ids of the sources the version was read from
    checked: str  # when the section numbers were last checked against the sources
    note: str
    sources: tuple[Source, ...]
    requirements: tuple[Requirement, ...]

    def source(self, source_id: str) -> Source | None:
        """The source with this id, or None."""
        return next((s for s in self.sources if s.id == source_id), None)

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


def _flag(table: dict[str, object], key: str, where: str) -> bool:
    value = table.get(key)
    if not isinstance(value, bool):
        raise MatrixError(f"{where}: '{key}' must be true or false")
    return value


def _sources(rows: object, name: str) -> tuple[Source, ...]:
    if not isinstance(rows, list):
        raise MatrixError(f"{name}: [[source]] must be a list of tables")
    sources: list[Source] = []
    for i, row in enumerate(rows):
        where = f"{name} source {i + 1}"
        unknown = sorted(set(row) - {"id", "url", "shows"})
        if unknown:
            raise MatrixError(f"{where}: unknown key {unknown[0]!r}")
        source = Source(
            _text(row, "id", where), _text(row, "url", where), _text(row, "shows", where)
        )
        if not source.url.startswith(("https://", "http://")) or " " in source.url:
            raise MatrixError(f"{where}: url {source.url!r} is not an http(s) address")
        if any(s.id == source.id for s in sources):
            raise MatrixError(f"{where}: id {source.id!r} is listed twice")
        sources.append(source)
    return tuple(sources)


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
        known = {
            *("section", "title", "requirement", "how", "tests", "status", "reason", "pending"),
            *("verified", "source", "check"),
        }
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
                verified=_flag(row, "verified", where),
                source=_text(row, "source", where, required=False),
                check=_text(row, "check", where, required=False),
            )
        )
    return Standard(
        id=_text(head, "id", path.name),
        title=_text(head, "title", path.name),
        version=_text(head, "version", path.name),
        version_sources=_texts(head, "version_sources", path.name),
        checked=_text(head, "checked", path.name, required=False),
        note=_text(head, "note", path.name, required=False),
        sources=_sources(data.get("source", []), path.name),
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


def source_problems(standard: Standard) -> list[str]:
    """Verification claims that name no source, and sources that nothing cites."""
    found: list[str] = []
    if not standard.version_sources:
        found.append(
            f"{standard.id}: version {standard.version!r} names no source it was read from"
        )
    cited = set(standard.version_sources)
    for source_id in standard.version_sources:
        if standard.source(source_id) is None:
            found.append(f"{standard.id}: version source {source_id!r} is not a [[source]]")
    for r in standard.requirements:
        label = f"{standard.id} {r.section} {r.title}"
        cited.add(r.source)
        if r.verified and not r.source:
            found.append(f"{label}: verified without a source")
        if r.source and standard.source(r.source) is None:
            found.append(f"{label}: source {r.source!r} is not a [[source]]")
        if not r.check:
            found.append(
                f"{label}: 'verified = {str(r.verified).lower()}' without a check saying "
                + ("what was seen" if r.verified else "why the number is not confirmed")
            )
    for source in standard.sources:
        if source.id not in cited:
            found.append(f"{standard.id}: source {source.id!r} is cited by nothing")
    return found


def problems(standard: Standard, root: Path) -> list[str]:
    """Everything wrong with a matrix: unknown tests, requirements without evidence or reason,
    verification claims without a source."""
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
    return found + source_problems(standard)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _checked_cell(r: Requirement) -> str:
    return f"yes [{r.source}]" if r.verified else "**no**"


def _verification(r: Requirement, standard: Standard) -> str:
    source = standard.source(r.source) if r.source else None
    where = f" [{source.id}]({source.url})" if source else ""
    if r.verified:
        return f"Section number verified against{where}: {r.check}"
    looked = f" (looked at{where})" if source else ""
    return f"Section number NOT verified{looked}: {r.check}"


def render(standard: Standard) -> str:
    """The markdown page of a standard's matrix (generated: edit the TOML, not the page)."""
    counts = {s: sum(r.status == s for r in standard.requirements) for s in STATUSES}
    verified = sum(r.verified for r in standard.requirements)
    lines = [
        f"# {standard.id}: {standard.title} — requirement matrix",
        "",
        f"<!-- generated from {standard.slug}.toml by `python -m kiosk.tools.lab.matrix`;"
        " do not edit by hand -->",
        "",
        f"Standard: {standard.id} {standard.title}, version {standard.version}"
        f" (read from {', '.join(f'[{s}]' for s in standard.version_sources)}).",
        "",
    ]
    if standard.note:
        lines += [standard.note, ""]
    lines += [
        "Summary: " + ", ".join(f"{counts[s]} {s}" for s in STATUSES) + ".",
        "",
        f"Section numbers: {verified} of {len(standard.requirements)} verified against a public"
        " copy of the standard"
        + (f" (checked {standard.checked})" if standard.checked else "")
        + "; the others are marked **no** and listed under"
        ' "Section numbers not verified". The sources are listed at the end.',
        "",
        "| section | requirement (our words) | status | section verified |",
        "| --- | --- | --- | --- |",
    ]
    for r in standard.requirements:
        lines.append(
            f"| {r.section} | **{_cell(r.title)}**: {_cell(r.requirement)} | {r.status}"
            f" | {_checked_cell(r)} |"
        )
    not_met = [r for r in standard.requirements if r.status in ("not met", "partly met")]
    if not_met:
        lines += ["", "## What we do not meet", ""]
        for r in not_met:
            lines.append(f"- **{r.section} {r.title}** ({r.status}): {r.reason}")
    unverified = [r for r in standard.requirements if not r.verified]
    if unverified:
        lines += ["", "## Section numbers not verified", ""]
        for r in unverified:
            lines.append(f"- **{r.section} {r.title}**: {r.check}")
    lines += ["", "## Evidence, requirement by requirement", ""]
    for r in standard.requirements:
        lines += [f"### {r.section} {r.title} — {r.status}", "", r.requirement, ""]
        lines += [_verification(r, standard), ""]
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
    if standard.sources:
        lines += ["## Sources", ""]
        lines += ["Public copies read (stored copies of public web pages), in our words:", ""]
        for s in standard.sources:
            lines.append(f"- [{s.id}] <{s.url}>: {s.shows}")
    return "\n".join(lines).rstrip("\n") + "\n"


def page_path(root: Path, standard: Standard) -> Path:
    """The rendered page of ``standard``."""
    return compliance_dir(root) / f"{standard.slug}.md"


def main(argv: list[str] | None = None) -> int:
    """Rewrite the pages (``--check``: only say which are stale, exit 1; ``--unverified``: list
    the section numbers not confirmed against a public copy, write nothing)."""
    parser = argparse.ArgumentParser(
        prog="python -m kiosk.tools.lab.matrix",
        description="Check the requirement matrices in docs/compliance/ and re-render their pages.",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when a page is stale")
    parser.add_argument(
        "--unverified",
        action="store_true",
        help="list the section numbers not verified against a public copy (writes nothing)",
    )
    args = parser.parse_args(argv)
    root = repository_root()
    try:
        standards = load_all(root)
    except MatrixError as exc:
        print(f"matrix: {exc}", file=sys.stderr)
        return 2
    if args.unverified:
        for standard in standards:
            for r in standard.requirements:
                if not r.verified:
                    print(f"{standard.id} {r.section} {r.title}: {r.check}")
        return 0
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
