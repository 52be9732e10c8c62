"""The par-sheet PDF of a lab package, drawn with matplotlib (Agg) into PdfPages.

Reproducible: a fixed font (DejaVu Sans, shipped with matplotlib), ``svg.hashsalt``, no
creation date in the metadata, and pages drawn only from the package's JSON data.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

PAGE = (11.69, 8.27)  # A4 landscape, inches
STYLE: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "svg.hashsalt": "turbokiosk-lab-package",
    "pdf.fonttype": 42,
    "axes.grid": True,
    "grid.alpha": 0.3,
}
METADATA = {
    "Title": "TurboKiosk par sheets",
    "Author": "TurboKiosk engineering",
    "Subject": "Par sheets, charts and simulation confirmations for the test laboratory",
    "Creator": "turbokiosk lab-package",
    "Producer": "matplotlib",
    "CreationDate": None,
}


def _text_page(title: str, lines: Sequence[str]) -> Figure:
    fig = plt.figure(figsize=PAGE)
    fig.text(0.05, 0.94, title, fontsize=16, weight="bold", va="top")
    fig.text(0.05, 0.88, "\n".join(lines), fontsize=9, va="top", family="DejaVu Sans Mono")
    return fig


def _pct(value: float) -> str:
    return f"{value:.4%}"


def _summary_page(sheet: Mapping[str, Any]) -> Figure:
    fig = plt.figure(figsize=PAGE)
    fig.suptitle(
        f"{sheet['title']} ({sheet['edition']}): house edge and hit frequency",
        x=0.05,
        ha="left",
        fontsize=13,
        weight="bold",
    )
    wagers = list(sheet["wagers"].items())
    rows = [
        [
            w["label"],
            w["paytable"],
            _pct(w["house_edge_float"]),
            _pct(w["element_of_risk_float"]),
            _pct(w["hit_frequency_float"]),
            f"{w['std_dev']:.4f}",
        ]
        for _wid, w in wagers
    ]
    table_ax = fig.add_axes((0.05, 0.55, 0.9, 0.35))
    table_ax.axis("off")
    table = table_ax.table(
        cellText=rows,
        colLabels=[
            "wager",
            "pay table",
            "house edge",
            "element of risk",
            "hit frequency",
            "std dev",
        ],
        loc="upper left",
        cellLoc="left",
    )
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    table.scale(1, 1.4)
    strategies = [f"{w['label']}: {w['strategy']}" for _wid, w in wagers if w["strategy"]]
    if strategies:
        wrapped = "\n".join(textwrap.fill(s, 160) for s in strategies)
        fig.text(0.05, 0.53, "Strategy (optimal)\n" + wrapped, fontsize=8, va="top")
    labels = [w["label"] for _wid, w in wagers]
    edge_ax = fig.add_axes((0.12, 0.08, 0.36, 0.3))
    edge_ax.barh(labels, [100 * w["house_edge_float"] for _wid, w in wagers], color="#8a2be2")
    edge_ax.set_xlabel("house edge (%)")
    edge_ax.invert_yaxis()
    hit_ax = fig.add_axes((0.58, 0.08, 0.38, 0.3))
    hit_ax.barh(labels, [100 * w["hit_frequency_float"] for _wid, w in wagers], color="#2e8b57")
    hit_ax.set_xlabel("hit frequency (%)")
    hit_ax.invert_yaxis()
    hit_ax.set_yticklabels([])
    return fig


def _outcomes_page(sheet: Mapping[str, Any]) -> Figure:
    wagers = list(sheet["wagers"].values())
    cols = 3 if len(wagers) > 4 else 2
    rows = (len(wagers) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=PAGE, squeeze=False)
    fig.suptitle(
        f"{sheet['title']}: outcome distributions (probability, log scale; pays per"
        " unit of the initial wager)",
        x=0.05,
        ha="left",
        fontsize=12,
        weight="bold",
    )
    for ax, w in zip(axes.flat, wagers, strict=False):
        lines = [o for o in w["outcomes"] if o["probability_float"] > 0]
        names = [f"{textwrap.shorten(o['outcome'], 44)} [{o['pays']}]" for o in lines]
        values = [o["probability_float"] for o in lines]
        colours = [
            "#2e8b57" if not o["pays"].startswith("-") and o["pays"] != "0/1" else "#b22222"
            for o in lines
        ]
        ax.barh(names, values, color=colours)
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.invert_yaxis()
        ax.tick_params(axis="y", labelsize=6)
        ax.set_title(f"{w['label']} ({w['paytable']})", fontsize=9)
    for ax in list(axes.flat)[len(wagers) :]:
        ax.axis("off")
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    return fig


def _edges_page(sheet: Mapping[str, Any], by_table: Sequence[Mapping[str, Any]]) -> Figure:
    counts = Counter(row["wager"] for row in by_table)
    wagers = sorted(w for w, n in counts.items() if n > 1)  # a wager with one table: its page 1
    strategies = [
        (w["label"], w["house_edge_float"], w["house_edge_full_information"]["estimate"])
        for w in sheet["wagers"].values()
        if isinstance(w.get("house_edge_full_information"), Mapping)
    ]
    panels = len(wagers) + (1 if strategies else 0)
    fig, axes = plt.subplots(max(panels, 1), 1, figsize=PAGE, squeeze=False)
    fig.suptitle(
        f"{sheet['title']}: house edge by pay table and by strategy",
        x=0.05,
        ha="left",
        fontsize=12,
        weight="bold",
    )
    for ax, wager in zip(axes.flat, wagers, strict=False):
        rows = [r for r in by_table if r["wager"] == wager]
        bars = ax.barh(
            [r["paytable"] + (" (default)" if r["default"] else "") for r in rows],
            [100 * r["house_edge_float"] for r in rows],
            color=["#8a2be2" if r["default"] else "#9999cc" for r in rows],
        )
        ax.bar_label(bars, labels=[_pct(r["house_edge_float"]) for r in rows], fontsize=6)
        ax.invert_yaxis()
        ax.tick_params(axis="y", labelsize=6)
        ax.set_xlabel("house edge (%)")
        ax.set_title(rows[0]["label"], fontsize=9)
    if strategies:
        ax = list(axes.flat)[len(wagers)]
        names, optimal, full = zip(*strategies, strict=True)
        ax.barh(
            [f"{n}: optimal own-cards" for n in names], [100 * v for v in optimal], color="#8a2be2"
        )
        ax.barh(
            [f"{n}: seeing every card (estimate)" for n in names],
            [100 * v for v in full],
            color="#cc9999",
        )
        ax.invert_yaxis()
        ax.set_xlabel("house edge (%)")
        ax.set_title("by strategy", fontsize=9)
    if not panels:
        axes[0][0].axis("off")
        axes[0][0].text(0, 0.5, "no wager of this edition has a choice of pay table")
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    return fig


def _simulations_page(runs: Sequence[Mapping[str, Any]]) -> Figure:
    fig, ax = plt.subplots(figsize=PAGE)
    fig.suptitle(
        "Simulation confirmations: observed house edge +/- 3 standard errors"
        " against the exact edge (x)",
        x=0.05,
        ha="left",
        fontsize=12,
        weight="bold",
    )
    labels, observed, errors, exact = [], [], [], []
    for run in runs:
        for w in run["wagers"]:
            labels.append(f"{run['edition']} {w['wager']} ({run['games']:,} games)")
            observed.append(100 * w["observed_edge"])
            errors.append(300 * w["standard_error"])
            exact.append(100 * w["exact_edge_float"])
    positions = list(range(len(labels)))
    ax.errorbar(observed, positions, xerr=errors, fmt="o", color="#2e8b57", capsize=3)
    ax.scatter(exact, positions, marker="x", color="#b22222", zorder=3)
    ax.set_yticks(positions, labels, fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("house edge (%)")
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    return fig


def write_pdf(
    path: Path,
    identification: Mapping[str, Any],
    sheets: Sequence[Mapping[str, Any]],
    edges: Mapping[str, Sequence[Mapping[str, Any]]],
    simulations: Sequence[Mapping[str, Any]],
) -> int:
    """Write the par-sheet PDF; the number of pages."""
    pages = 0
    with plt.rc_context(cast(Any, STYLE)), PdfPages(path, metadata=METADATA) as pdf:
        cover = [
            f"TurboKiosk {identification['version']}",
            f"software manifest SHA-256: {identification['manifest_sha256']}",
            f"program files: {identification['files']}",
            "",
            "Contents: for each edition, its par sheet (house edge, element of risk, hit",
            "frequency, standard deviation, optimal strategy), its outcome distributions and",
            "its house edge by pay table and by strategy; then the simulation confirmations.",
            "Exact figures: par-sheets/<edition>.json of this package.",
            "",
            "Editions: " + ", ".join(s["edition"] for s in sheets),
        ]
        figures = [_text_page("TurboKiosk par sheets", cover)]
        for sheet in sheets:
            figures += [
                _summary_page(sheet),
                _outcomes_page(sheet),
                _edges_page(sheet, edges[sheet["edition"]]),
            ]
        figures.append(_simulations_page(simulations))
        for fig in figures:
            pdf.savefig(fig)
            plt.close(fig)
            pages += 1
    return pages
