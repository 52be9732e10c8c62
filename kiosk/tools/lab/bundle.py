"""``turbokiosk lab-package``: the submission bundle, written whole or not at all.

Two builds give the same bytes in every file but ``COVER.txt`` (the dated cover page).
``SHA256SUMS`` lists every other file (``<sha256>  <path>``, sorted), so a lab checks the
bundle with ``sha256sum -c SHA256SUMS``.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.tools.lab import evidence, matrix

COVER = "COVER.txt"
SUMS = "SHA256SUMS"
PDF = "par-sheets.pdf"
DEFAULT_RNG_RUNS = evidence.RngRuns()


class BundleError(ValueError):
    """A bundle that cannot be built as asked (one line for the command)."""


@dataclass(frozen=True)
class BundleOptions:
    """What goes into a bundle."""

    editions: tuple[str, ...]
    games: int = 10_000_000  # on every core: minutes for every edition (docs/performance.md)
    rng_runs: evidence.RngRuns = DEFAULT_RNG_RUNS
    pdf: bool = True  # False: the JSON and text only (a quick re-check; no matplotlib)


@dataclass(frozen=True)
class BuiltBundle:
    """What was written."""

    out: Path
    files: tuple[str, ...]
    pdf_pages: int


def _json(data: Any) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


def check_out_dir(out: Path) -> None:
    """``out`` must not exist, or be an empty directory, and its parent must exist."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise BundleError(f"--out {out}: exists and is not an empty directory")
    if not out.parent.is_dir():
        raise BundleError(f"--out {out}: no directory {out.parent}")


def build(
    out: Path,
    options: BundleOptions,
    *,
    root: Path | None = None,
    today: Callable[[], datetime.date] = datetime.date.today,
    progress: Callable[[str], None] = lambda text: None,
    rounds: Callable[[str, int], Callable[[int], None] | None] = lambda edition, games: None,
) -> BuiltBundle:
    """Build the bundle in a directory beside ``out`` and move it into place when whole;
    ``progress`` is told each step, ``rounds(edition, games)`` gives what a simulation tells
    the rounds it has played."""
    check_out_dir(out)
    root = root or matrix.repository_root()
    standards = matrix.load_all(root)  # before anything is written: a bad matrix is an error
    for standard in standards:
        found = matrix.problems(standard, root)
        if found:
            raise BundleError(f"requirement matrix: {found[0]}")
    work = out.parent / f".{out.name}.partial-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        files = _write(work, options, root, standards, progress, rounds)
        pages = files.pop(PDF + "#pages")
        (work / COVER).write_text(_cover(today(), options), encoding="utf-8")
        if out.exists():
            out.rmdir()
        os.replace(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return BuiltBundle(out, tuple(sorted([*files, COVER, SUMS])), int(pages))


def _write(
    work: Path,
    options: BundleOptions,
    root: Path,
    standards: Sequence[matrix.Standard],
    progress: Callable[[str], None],
    rounds: Callable[[str, int], Callable[[int], None] | None],
) -> dict[str, str]:
    contents: dict[str, bytes] = {}
    progress("software identification")
    ident, manifest_text = evidence.software_identification()
    contents["software/identification.json"] = _json(ident)
    contents["software/manifest.txt"] = manifest_text.encode()
    sheets: list[dict[str, Any]] = []
    edges: dict[str, list[dict[str, Any]]] = {}
    for edition in options.editions:
        progress(f"par sheet of {edition}")
        sheet = evidence.par_sheet(edition).to_json_dict()
        edges[edition] = evidence.edges_by_paytable(edition)
        sheet["house_edge_by_paytable"] = edges[edition]
        sheets.append(sheet)
        contents[f"par-sheets/{edition}.json"] = _json(sheet)
    simulations = []
    for edition in options.editions:
        progress(f"simulation of {edition} ({options.games:,} games)")
        told = rounds(edition, options.games)
        simulations.append(evidence.simulation(edition, options.games, progress=told))
    contents["simulations.json"] = _json(
        {
            "what": "seeded confirmation runs (one seat, default pay tables, optimal strategy)"
            " of every edition; each wager's observed edge within 3 standard errors of the"
            " exact one (standard errors from the par sheet's exact variances); longer runs:"
            " turbokiosk simulate EDITION --games N",
            "runs": simulations,
        }
    )
    progress("RNG evidence")
    contents["rng/evidence.json"] = _json(evidence.rng_evidence(options.rng_runs))
    reports = root / "docs" / "rng-evidence"
    for report in sorted(reports.glob("*.txt")) if reports.is_dir() else []:
        contents[f"rng/{report.name}"] = report.read_bytes()
    for standard in standards:
        source = matrix.compliance_dir(root) / f"{standard.slug}.toml"
        contents[f"compliance/{standard.slug}.toml"] = source.read_bytes()
        contents[f"compliance/{standard.slug}.md"] = matrix.render(standard).encode()
    contents["configuration.json"] = _json(evidence.configuration_options())
    contents["README.txt"] = _readme(options).encode()
    for name, data in contents.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    pages = 0
    if options.pdf:
        from kiosk.tools.lab import charts  # matplotlib only when a PDF is asked for

        progress("par-sheet PDF")
        pages = charts.write_pdf(work / PDF, ident, sheets, edges, simulations)
    names = sorted([*contents, *([PDF] if options.pdf else [])])
    sums = "".join(f"{_sha256(work / name)}  {name}\n" for name in names)
    (work / SUMS).write_text(sums, encoding="utf-8")
    result = dict.fromkeys(names, "")
    result[PDF + "#pages"] = str(pages)
    return result


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _readme(options: BundleOptions) -> str:
    return f"""TurboKiosk laboratory submission package

COVER.txt                  the dated cover (the only file that changes between builds)
SHA256SUMS                 SHA-256 of every other file: sha256sum -c SHA256SUMS
software/identification.json  version, manifest digest, keyed checks for fixed seeds
software/manifest.txt      every program file: <sha256>  <size>  <path>
par-sheets.pdf             par sheets with charts: outcome distributions, hit frequencies,
                           house edge by pay table and by strategy, simulation confirmations
par-sheets/<edition>.json  the exact par sheets (fractions as "p/q"), every shipped pay table
simulations.json           seeded confirmation runs ({options.games:,} games an edition)
rng/evidence.json          known-answer tests, health-test cutoffs, statistical runs
rng/*.txt                  reports of the long statistical runs (tox -e rng-stats)
compliance/                the GLI-11 and GLI-24 requirement matrices (TOML and markdown);
                           each section number says whether it was verified against a
                           public copy of the standard, and which (the page's sources)
configuration.json         what an operator may change, defaults and limits

Editions: {", ".join(options.editions)}
"""


def _cover(day: datetime.date, options: BundleOptions) -> str:
    return (
        "TurboKiosk: submission to the test laboratory\n"
        f"Date: {day.isoformat()}\n"
        f"Editions: {', '.join(options.editions)}\n"
        "Standards: GLI-11 v3.0, GLI-24 v1.3 (compliance/)\n"
        "Check the package: sha256sum -c SHA256SUMS\n"
    )
