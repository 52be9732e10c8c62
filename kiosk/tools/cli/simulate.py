"""``turbokiosk simulate EDITION --games N [--seats K] [--mode table|stadium] [--jobs N]
[--paytable WAGER=NAME_OR_FILE ...] [--seed N | --seed-from-os] [--format text|json]
[--quiet]``.

Plays ``N`` random rounds of a table of ``K`` seats through the game's own settlement with the
optimal strategy, every seat betting one unit on every wager, and compares every wager's
observed house edge — pooled and at every seat — with the exact par sheet, and the observed
correlation between two seats with the exact one where it is known (docs/table-math.md).
Turbo deals in ``table`` mode (one deck, at most 8 seats; the default) or ``stadium`` mode (a
shuffle of the 49 cards per seat); Stadium Three Card Poker deals one array for all seats.
Exits 1 when a pooled wager or a checked correlation is more than 3 standard errors away, or a
seat's wager beyond the family-wise bound (3 standard errors for one seat, more for many:
:func:`kiosk.kernel.analysis.table_sim.family_bound`), 2 on bad arguments, 130 on Ctrl-C (the report
of the rounds played so far is printed first).  Standard errors come from the par sheet's exact
variances (:mod:`kiosk.kernel.analysis.fast_sim`).  ``N`` is at most :data:`MAX_GAMES`.

Rounds run in arrays on ``--jobs`` processes (default: every core); progress goes to standard
error (a bar on a terminal, a line every few seconds otherwise; ``--quiet``: none).  Cards come
from PCG64 generators, one per chunk of rounds, seeded from ``--seed`` or else from a root
drawn from the operating system's CSPRNG, which the report prints so the run can be repeated:
the same seed gives the same result whatever ``--jobs``.  A simulation is evidence about the
math, not play: the terminal's own generator (:class:`rng.Csprng`) is tested by ``turbokiosk
rng``.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import Any

from kiosk.kernel.analysis.families import par_family
from kiosk.kernel.analysis.model import fraction_json
from kiosk.kernel.analysis.simulate import SimulatedWager
from kiosk.kernel.analysis.table_math import MODES
from kiosk.kernel.analysis.table_sim import MAX_SIM_SEATS, TableSimulation
from kiosk.kernel.games.base import RuleError
from kiosk.kernel.games.paytable import PaytableError
from kiosk.kernel.progress import Progress
from kiosk.terminal.cli.args import has_numpy, int_type
from kiosk.terminal.cli.guard import EXIT_INTERRUPTED
from kiosk.tools.cli.par_sheet import add_paytable_argument, paytable_choices

#: The most rounds one run plays: well under an hour on two cores (docs/performance.md).
MAX_GAMES = 1_000_000_000
#: The most worker processes.
MAX_JOBS = 256


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
    add_table_arguments(parser, maximum=MAX_SIM_SEATS)
    add_paytable_argument(parser)
    seeding = parser.add_mutually_exclusive_group()
    seeding.add_argument(
        "--seed",
        type=int_type(0),
        metavar="N",
        help="reproducible run (numpy PCG64 chunks; not a casino RNG)",
    )
    seeding.add_argument(
        "--seed-from-os",
        action="store_true",
        help="deal from the CSPRNG seeded by the OS (default)",
    )
    parser.add_argument(
        "--jobs",
        type=int_type(1, MAX_JOBS),
        default=None,
        metavar="N",
        help="worker processes (default: every core); the result does not depend on it",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")


def add_table_arguments(parser: argparse.ArgumentParser, maximum: int) -> None:
    """``--seats K`` and ``--mode table|stadium`` (shared with ``par-sheet``)."""
    parser.add_argument(
        "--seats",
        type=int_type(1, maximum),
        default=None,
        metavar="K",
        help=f"seats at the table (1..{maximum:,}; Turbo table mode: at most 8)",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="Turbo: table = one deck for 3 community + 6 cards a seat (default); "
        "stadium = each seat completes its hand from its own shuffle of the 49 cards left",
    )


def run(args: argparse.Namespace) -> int:
    """Simulate and report; 0 when every check agrees."""
    if not has_numpy():
        print(
            "turbokiosk simulate: error: the simulator needs numpy: install the sim extra"
            " (pip install 'turbokiosk[sim]')",
            file=sys.stderr,
        )
        return 2
    if args.seed is None:
        args.drawn_seed = secrets.randbits(128)  # the run's root seed, printed in the report
    try:
        sim = _simulate(args)
    except (RuleError, PaytableError, ValueError) as exc:
        print(f"turbokiosk simulate: error: {exc}", file=sys.stderr)
        return 2
    if sim.games < 2:
        print("turbokiosk simulate: interrupted before 2 games were played", file=sys.stderr)
        return EXIT_INTERRUPTED
    ok = sim.agrees()
    if args.format == "json":
        print(json.dumps(_json(args, sim, ok), indent=2))
    else:
        print(_text(args, sim, ok))
    if sim.interrupted:
        print(
            f"turbokiosk simulate: interrupted after {sim.games:,} of {args.games:,} games",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    return 0 if ok else 1


def _seed(args: argparse.Namespace) -> int:
    seed: int = args.seed if args.seed is not None else args.drawn_seed
    return seed


def _simulate(args: argparse.Namespace) -> TableSimulation:
    paytables = paytable_choices(args.paytable)
    family = par_family(args.edition)
    seats = 1 if args.seats is None else args.seats
    with Progress("simulate", args.games, "games", enabled=not args.quiet) as progress:
        return family.simulate(
            args.edition,
            args.games,
            paytables,
            seed=_seed(args),
            seats=seats,
            mode=args.mode,
            jobs=args.jobs,
            progress=progress.update,
        )


def _row_text(name: str, row: SimulatedWager, bound: float) -> str:
    verdict = "ok" if row.agrees(bound) else "OUTSIDE"
    return (
        f"  {name:<22} {float(row.exact_edge):>11.4%} {row.observed_edge:>11.4%}"
        f" {row.std_error:>10.4%} {row.z:>7.2f}  {verdict} (|z| <= {bound:.2f},"
        f" {row.error_basis} error)"
    )


def _text(args: argparse.Namespace, sim: TableSimulation, ok: bool) -> str:
    source = (
        f"PCG64 chunks, seed {args.seed}"
        if args.seed is not None
        else f"PCG64 chunks, seed {args.drawn_seed} drawn from the OS (repeat: --seed)"
    )
    games = f"{sim.games:,} games"
    if sim.interrupted:
        games += f" (INTERRUPTED: {sim.games:,} of {args.games:,})"
    out = [
        f"{args.edition}: {games}, {sim.seats} seat(s), {sim.mode} mode, {source}",
        "  standard errors from the par sheet's exact variances (exact: with the exact"
        " covariance of two seats; bound: covariance <= variance, the largest error);"
        " z = (observed - exact) / standard error",
        f"  {sim.checks} checks (pooled wagers, checked correlations, every seat's wagers) keep"
        f" one check's false-alarm rate at 3 standard errors (0.27%) together: each within"
        f" {sim.bound:.2f}",
        f"  {'wager (all seats)':<22} {'exact edge':>11} {'observed':>11} {'std error':>10}"
        f" {'z':>7}",
    ]
    out += [_row_text(row.wager_id, row, sim.bound) for row in sim.pooled]
    if sim.seats > 1:
        bound = sim.bound
        out.append(f"  at every seat (within {bound:.2f} standard errors, the family bound):")
        for i, row in enumerate(sim.pooled):
            seat_rows = [seat[i] for seat in sim.per_seat]
            worst = max(range(sim.seats), key=lambda s: abs(seat_rows[s].z))
            within3 = sum(r.agrees() for r in seat_rows)
            within = sum(r.agrees(bound) for r in seat_rows)
            out.append(
                f"  {row.wager_id:<22} {within}/{sim.seats} seats within the bound,"
                f" {within3}/{sim.seats} within 3; worst seat {worst + 1}:"
                f" {seat_rows[worst].observed_edge:.4%} ± {seat_rows[worst].std_error:.4%}"
                f" z {seat_rows[worst].z:.2f}"
            )
        out.append(
            f"  {'correlation of 2 seats':<22} {'exact':>11} {'observed':>11} {'std error':>10}"
            f" {'z':>7}  (error: exact = Var(X1 X2) of two seats' exact law; bound = that"
            " variance bounds the mean over more pairs; jackknife = the sample's, not checked)"
        )
        for c in sim.correlations:
            exact = "n/a" if c.exact is None else f"{float(c.exact):.6f}"
            z = "n/a" if c.z is None else f"{c.z:.2f}"
            if c.exact is None:
                state = "no exact value"
            elif not c.checked:
                state = "not checked: awards rarer than the run carry its variance"
            else:
                verdict = "ok" if c.agrees(sim.bound) else "OUTSIDE"
                state = f"{verdict} (|z| <= {sim.bound:.2f}, {c.error_basis} error)"
            out.append(
                f"  {c.wager_id:<22} {exact:>11} {c.observed:>11.6f} {c.std_error:>10.6f}"
                f" {z:>7}  {state}"
            )
    out.append(
        "all wagers agree with the exact par sheet, pooled and at every seat, and every checked"
        " correlation with its exact value, within the family bound"
        if ok
        else "DISAGREEMENT: a wager or a correlation is outside its bound"
    )
    return "\n".join(out)


def _row_json(row: SimulatedWager, bound: float) -> dict[str, Any]:
    return {
        "exact_edge": fraction_json(row.exact_edge),
        "exact_edge_float": float(row.exact_edge),
        "observed_edge": row.observed_edge,
        "std_error": row.std_error,
        "z": row.z,
        "bound": bound,
        "error_basis": row.error_basis,
        "sample_std_error": row.sample_std_error,
        "agrees": row.agrees(bound),
    }


def _json(args: argparse.Namespace, sim: TableSimulation, ok: bool) -> dict[str, Any]:
    bound = sim.bound
    return {
        "edition": args.edition,
        "games": sim.games,
        "requested_games": args.games,
        "interrupted": sim.interrupted,
        "seats": sim.seats,
        "mode": sim.mode,
        "seed": _seed(args),
        "seed_drawn_from_os": args.seed is None,
        "ok": ok,
        "bound": sim.bound,
        "checks": sim.checks,
        "wagers": {row.wager_id: _row_json(row, sim.bound) for row in sim.pooled},
        "seat_bound": bound,
        "per_seat": [
            {row.wager_id: _row_json(row, bound) for row in seat} for seat in sim.per_seat
        ],
        "correlations": {
            c.wager_id: {
                "exact": None if c.exact is None else fraction_json(c.exact),
                "exact_float": None if c.exact is None else float(c.exact),
                "observed": c.observed,
                "std_error": c.std_error,
                "z": c.z,
                "error_basis": c.error_basis,
                "sample_std_error": c.sample_std_error,
                "bound": sim.bound,
                "checked": c.checked and c.exact is not None,
                "agrees": c.agrees(sim.bound),
            }
            for c in sim.correlations
        },
    }
