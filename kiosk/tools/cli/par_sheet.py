"""``turbokiosk par-sheet EDITION [--paytable WAGER=NAME_OR_FILE ...] [--seats N
[--mode table|stadium]] [--progressive NAME_OR_FILE] [--format text|json]``.

Prints the exact par sheet of any edition: the Turbo editions and themes
(:mod:`kiosk.kernel.analysis.turbo_par`) and Stadium Three Card Poker
(:mod:`kiosk.kernel.analysis.stadium_par`).  With ``--seats`` it adds the per-seat math of a table
of ``N`` seats dealt in ``--mode`` (docs/table-math.md): each wager's house edge per seat, the
table's hold per round and the correlation between two seats.
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.kernel.analysis import families
from kiosk.kernel.analysis.families import ParSheetFunction
from kiosk.kernel.analysis.progressive_par import with_progressive
from kiosk.kernel.analysis.table_math import MODES, TableMath
from kiosk.kernel.games import progressive
from kiosk.kernel.games.base import RuleError
from kiosk.kernel.games.paytable import PaytableError
from kiosk.terminal.cli.args import int_type


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    parser.add_argument("edition", metavar="EDITION", help="edition id, e.g. turbo-football")
    add_paytable_argument(parser)
    parser.add_argument(
        "--seats",
        type=int_type(1, MAX_TABLE_SEATS),
        default=None,
        metavar="N",
        help=f"add the per-seat math of a table of N seats (1..{MAX_TABLE_SEATS:,};"
        " Turbo table mode: at most 8)",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="with --seats, Turbo: table = one deck, 3 community + 6 cards a seat (default);"
        " stadium = each seat completes its hand from its own shuffle of the 49 cards left",
    )
    parser.add_argument(
        "--progressive",
        default=None,
        metavar="NAME_OR_FILE",
        help="add a progressive's figures to the wager it rides on (docs/math.md): "
        "return at reset, break-even meter, contribution return",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")


def add_paytable_argument(parser: argparse.ArgumentParser) -> None:
    """``--paytable WAGER=NAME_OR_FILE``, repeatable (shared with ``simulate``)."""
    parser.add_argument(
        "--paytable",
        action="append",
        default=[],
        metavar="WAGER=NAME_OR_FILE",
        help="pay table of a wager: a table name or a .toml file (repeatable); "
        "nine_card_bonus=off drops the 9 Card Bonus",
    )


def paytable_choices(items: list[str]) -> dict[str, str]:
    """``["bet_b=flat", ...]`` as ``{"bet_b": "flat"}``; a malformed item is a RuleError."""
    choices: dict[str, str] = {}
    for item in items:
        wager, sep, name = item.partition("=")
        if not sep or not wager or not name:
            raise RuleError(f"--paytable wants WAGER=NAME_OR_FILE, got {item!r}")
        if wager in choices:
            raise RuleError(f"--paytable names {wager!r} twice")
        choices[wager] = name
    return choices


def edition_ids() -> tuple[str, ...]:
    """Every edition the command knows (each family's par-sheet part:
    kiosk.kernel.analysis.families)."""
    return families.edition_ids()


def par_sheet_function(edition: str) -> ParSheetFunction:
    """How to compute the par sheet of ``edition``; :class:`RuleError` for an unknown one."""
    return families.par_family(edition).par_sheet_function(edition)


#: The most seats ``--seats`` accepts (a stadium of any size; Turbo table mode: 8).
MAX_TABLE_SEATS = 10_000


def run(args: argparse.Namespace) -> int:
    """Print the par sheet; 2 on a bad edition, wager, pay table, seat count or mode."""
    try:
        if args.mode is not None and args.seats is None:
            raise RuleError("--mode needs --seats N")
        choices = paytable_choices(args.paytable)
        table: TableMath | None = None
        if args.seats is not None:  # first: a bad seat count or mode fails fast
            family = families.par_family(args.edition)
            table = family.table_math(args.edition, choices, seats=args.seats, mode=args.mode)
        sheet = par_sheet_function(args.edition)(choices)
        if args.progressive is not None:
            sheet = with_progressive(sheet, progressive.load(args.progressive))
    except (RuleError, PaytableError) as exc:
        print(f"turbokiosk par-sheet: error: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        data = sheet.to_json_dict()
        if table is not None:
            data["table"] = table.to_json_dict()
        print(json.dumps(data, indent=2))
    else:
        print(sheet.to_text() + ("" if table is None else "\n" + table.to_text()))
    return 0
