"""``turbokiosk simulate EDITION --games N [--seats K] [--paytable WAGER=NAME_OR_FILE ...]
[--seed N | --seed-from-os] [--format text|json]``.

Plays ``N`` random rounds through the game's own settlement with the optimal strategy and
compares every wager's observed house edge with the exact par sheet.  Exits 1 when a wager is
more than 3 standard errors away, 2 on bad arguments.  ``N`` is at most :data:`MAX_GAMES`
(hours of one core; a longer campaign is several runs).

Cards come from the terminal's generator (:class:`rng.Csprng`, seeded from the operating
system) unless ``--seed`` asks for a reproducible run, which uses Python's Mersenne Twister
(for tests and investigations only; it is not a casino RNG).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from kiosk.analysis import simulate
from kiosk.analysis.families import par_family
from kiosk.analysis.model import fraction_json
from kiosk.cli.args import int_type
from kiosk.cli.par_sheet import add_paytable_argument, paytable_choices
from kiosk.games.base import RuleError
from kiosk.games.paytable import PaytableError

#: The most rounds one run plays: about 7 hours of one core for a Turbo edition (40,000
#: rounds a second), 40 for Stadium (7,000).
MAX_GAMES = 1_000_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    parser.add_argument("edition", metavar="EDITION", help="edition id, e.g. turbo-football")
    parser.add_argument(
        "--games",
        type=int_type(1, MAX_GAMES),
        required=True,
        metavar="N",
        help=f"rounds to play (1 to {MAX_GAMES:,})",
    )
    parser.add_argument(
        "--seats",
        type=int_type(),
        default=1,
        metavar="K",
        help=f"Turbo: seats sharing each round's community cards (1..{simulate.MAX_SEATS})",
    )
    add_paytable_argument(parser)
    seeding = parser.add_mutually_exclusive_group()
    seeding.add_argument(
        "--seed",
        type=int_type(0),
        metavar="N",
        help="reproducible run (Mersenne Twister; not a casino RNG)",
    )
    seeding.add_argument(
        "--seed-from-os",
        action="store_true",
        help="deal from the CSPRNG seeded by the OS (default)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    """Simulate and report; 0 when every wager agrees within 3 standard errors."""
    try:
        rows = _simulate(args)
    except (RuleError, PaytableError, ValueError) as exc:
        print(f"turbokiosk simulate: error: {exc}", file=sys.stderr)
        return 2
    ok = all(row.agrees() for row in rows)
    if args.format == "json":
        print(json.dumps(_json(args, rows, ok), indent=2))
    else:
        print(_text(args, rows, ok))
    return 0 if ok else 1


def _simulate(args: argparse.Namespace) -> Sequence[simulate.SimulatedWager]:
    paytables = paytable_choices(args.paytable)
    family = par_family(args.edition)
    return family.simulate(args.edition, args.games, paytables, seed=args.seed, seats=args.seats)


def _text(args: argparse.Namespace, rows: Sequence[simulate.SimulatedWager], ok: bool) -> str:
    source = "CSPRNG (OS-seeded)" if args.seed is None else f"Mersenne Twister, seed {args.seed}"
    out = [
        f"{args.edition}: {args.games:,} games, {args.seats} seat(s), {source}",
        f"  {'wager':<22} {'exact edge':>11} {'observed':>11} {'std error':>10} {'z':>7}",
    ]
    for row in rows:
        out.append(
            f"  {row.wager_id:<22} {float(row.exact_edge):>11.4%} {row.observed_edge:>11.4%}"
            f" {row.std_error:>10.4%} {row.z:>7.2f}  {'ok' if row.agrees() else 'OUTSIDE 3 SE'}"
        )
    out.append(
        "all wagers agree with the exact par sheet within 3 standard errors"
        if ok
        else "DISAGREEMENT: a wager is more than 3 standard errors from its exact edge"
    )
    return "\n".join(out)


def _json(
    args: argparse.Namespace, rows: Sequence[simulate.SimulatedWager], ok: bool
) -> dict[str, Any]:
    return {
        "edition": args.edition,
        "games": args.games,
        "seats": args.seats,
        "seed": args.seed,
        "ok": ok,
        "wagers": {
            row.wager_id: {
                "exact_edge": fraction_json(row.exact_edge),
                "exact_edge_float": float(row.exact_edge),
                "observed_edge": row.observed_edge,
                "std_error": row.std_error,
                "z": row.z,
                "agrees": row.agrees(),
            }
            for row in rows
        },
    }
