"""``turbokiosk par-sheet EDITION [--paytable WAGER=NAME_OR_FILE ...] [--format text|json]``.

Prints the exact par sheet of any edition: the Turbo editions and themes
(:mod:`kiosk.analysis.turbo_par`) and Stadium Three Card Poker
(:mod:`kiosk.analysis.stadium_par`).
"""

from __future__ import annotations

import argparse
import sys

from kiosk.analysis import families
from kiosk.analysis.families import ParSheetFunction
from kiosk.games.base import RuleError
from kiosk.games.paytable import PaytableError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    parser.add_argument("edition", metavar="EDITION", help="edition id, e.g. turbo-football")
    add_paytable_argument(parser)
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
    """Every edition the command knows (each family's par-sheet part: kiosk.analysis.families)."""
    return families.edition_ids()


def par_sheet_function(edition: str) -> ParSheetFunction:
    """How to compute the par sheet of ``edition``; :class:`RuleError` for an unknown one."""
    return families.par_family(edition).par_sheet_function(edition)


def run(args: argparse.Namespace) -> int:
    """Print the par sheet; 2 on a bad edition, wager or pay table."""
    try:
        sheet = par_sheet_function(args.edition)(paytable_choices(args.paytable))
    except (RuleError, PaytableError) as exc:
        print(f"turbokiosk par-sheet: error: {exc}", file=sys.stderr)
        return 2
    print(sheet.to_json() if args.format == "json" else sheet.to_text())
    return 0
