"""``turbokiosk lab-package --out DIR [--edition E ...] [--games N] [--rng-decks N]``.

Builds the test laboratory's submission bundle (kiosk/tools/lab/bundle.py): software
identification, par sheets as PDF and JSON, simulation confirmations, RNG evidence, the
requirement matrices and the operator's configuration options.  Nothing is written unless the
whole bundle is: Ctrl-C leaves nothing behind and exits 130.  Each step is a line on standard
error, each simulation a progress bar (``--quiet``: neither).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

from kiosk.kernel.progress import Progress
from kiosk.terminal.cli.args import has_numpy, int_type
from kiosk.terminal.cli.guard import EXIT_INTERRUPTED

#: Games of each edition's confirmation by default: minutes for every edition on two cores.
DEFAULT_GAMES = 10_000_000
#: The most games of a confirmation (``turbokiosk simulate``'s limit).
MAX_GAMES = 1_000_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        metavar="DIR",
        help="new (or empty) directory for the bundle",
    )
    parser.add_argument(
        "--edition",
        action="append",
        default=[],
        metavar="E",
        help="only these editions (repeatable; default: every shipped edition)",
    )
    parser.add_argument(
        "--games",
        type=int_type(1_000, MAX_GAMES),
        default=DEFAULT_GAMES,
        metavar="N",
        help=f"games of each simulation confirmation (1,000..{MAX_GAMES:,}; default"
        f" {DEFAULT_GAMES:,}, on every core; fewer is no confirmation)",
    )
    parser.add_argument(
        "--rng-decks",
        type=int_type(100, 10_000_000),
        default=20_000,
        metavar="N",
        help="decks of the short RNG statistical runs (draws: 10 N)",
    )
    parser.add_argument(
        "--no-pdf", action="store_true", help="JSON and text only (a quick re-check, no charts)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines")


def run(args: argparse.Namespace) -> int:
    """Build the bundle; 2 on a bad argument (nothing written)."""
    from kiosk.kernel.analysis import families
    from kiosk.tools.lab import bundle, evidence, matrix

    known = families.edition_ids()
    unknown = [e for e in args.edition if e not in known]
    if unknown:
        print(
            f"turbokiosk lab-package: error: unknown edition {unknown[0]!r}"
            f" (known: {', '.join(known)})",
            file=sys.stderr,
        )
        return 2
    if not args.no_pdf and importlib.util.find_spec("matplotlib") is None:
        print(
            "turbokiosk lab-package: error: the PDF needs matplotlib: install the lab extra"
            " (pip install 'turbokiosk[lab]', or deploy/tox -e lab), or use --no-pdf",
            file=sys.stderr,
        )
        return 2
    if not has_numpy():
        print(
            "turbokiosk lab-package: error: the simulations need numpy: install the lab extra"
            " (pip install 'turbokiosk[lab]')",
            file=sys.stderr,
        )
        return 2
    editions = tuple(dict.fromkeys(args.edition)) or known
    options = bundle.BundleOptions(
        editions,
        args.games,
        evidence.RngRuns(decks=args.rng_decks, draws=10 * args.rng_decks),
        pdf=not args.no_pdf,
    )
    progress = (lambda text: None) if args.quiet else (lambda text: print(text, file=sys.stderr))
    bars: list[Progress] = []

    def rounds(edition: str, games: int) -> Callable[[int], None] | None:
        for bar in bars:
            bar.close()
        if args.quiet:
            return None
        bars.append(Progress(f"simulation of {edition}", games, "games"))
        return bars[-1].update

    try:
        built = bundle.build(args.out, options, progress=progress, rounds=rounds)
    except (bundle.BundleError, matrix.MatrixError) as exc:
        print(f"turbokiosk lab-package: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("turbokiosk lab-package: interrupted: nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        for bar in bars:
            bar.close()
    pdf = f" (par-sheets.pdf: {built.pdf_pages} pages)" if built.pdf_pages else " (no PDF)"
    print(f"wrote {len(built.files)} files to {built.out}{pdf}; check: sha256sum -c SHA256SUMS")
    return 0
