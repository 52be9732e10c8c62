"""Meters by the names an operator reads (docs/terminal.md, "Records"), not their keys.

``bills_in.10000`` is "Bills in $100 (notes)", ``game.icon-v2.default.in`` "Turbo Icon Games -
Version 2, default pay tables: wagered", ``wager_out.first_down`` "Paid on First Down".  The
key stays in the CSV (and in a tooltip) for machines.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from kiosk.kernel.money_text import dollars

#: the terminal's core meters (kiosk/terminal/core/meters.py) by name; counts say what they count
CORE_NAMES = {
    "coin_in": "Coin in (wagered)",
    "coin_out": "Coin out (won, stakes returned)",
    "bills_in": "Bills in",
    "bills_in_count": "Bills in (notes)",
    "tickets_in": "Tickets in",
    "tickets_in_count": "Tickets in (count)",
    "tickets_out": "Tickets out",
    "tickets_out_count": "Tickets out (count)",
    "handpaid_cancelled_credits": "Handpaid cancelled credits",
    "handpaid_jackpots": "Handpaid jackpots",
    "handpay_count": "Handpays (count)",
    "games_played": "Games played",
    "games_won": "Games won",
    "games_lost": "Games lost",
    "games_pushed": "Games pushed",
    "door_opens": "Door opens",
    "power_resets": "Power resets",
    "tilts": "Tilts",
    "voided_returns": "Voided table rounds returned",
    "games_voided": "Games voided",
}
GAME_PARTS = {"played": "games played", "in": "wagered", "out": "paid"}
SPOT_WORDS = {"td": "TD", "nine": "9", "six": "6", "col": "Column", "pairs_plus": "Pairs Plus"}


@dataclass(frozen=True)
class MeterName:
    """A meter's key, its human name and whether it counts cents."""

    key: str
    name: str
    money: bool

    def shown(self, value: int) -> str:
        """The value as the page shows it: dollars, or a count with thousands separators."""
        return dollars(value) if self.money else f"{value:,}"


def spot_name(spot: str) -> str:
    """``first_down`` -> ``First Down``; ``nine_card_bonus`` -> ``9 Card Bonus``."""
    words = [SPOT_WORDS.get(w, w.capitalize()) for w in spot.split("_")]
    return " ".join(words)


@functools.cache
def edition_title(edition: str) -> str:
    """The edition's title (``Turbo Football``), or its id when this host does not know it."""
    from kiosk.kernel.games.registry import load_game

    try:
        return str(load_game(edition).title)
    except Exception:  # an edition this host's library lacks: its id says enough
        return edition


def meter_name(key: str) -> MeterName:
    """The human name of a meter key."""
    if key in CORE_NAMES:
        money = key in {"coin_in", "coin_out", "bills_in", "tickets_in", "tickets_out"} or (
            key.startswith("handpaid_") or key == "voided_returns"
        )
        return MeterName(key, CORE_NAMES[key], money)
    head, _, rest = key.partition(".")
    if head == "bills_in" and rest.isdigit():
        return MeterName(key, f"Bills in {dollars(int(rest)).removesuffix('.00')} (notes)", False)
    if head in ("wager_in", "wager_out") and rest:
        verb = "Wagered on" if head == "wager_in" else "Paid on"
        return MeterName(key, f"{verb} {spot_name(rest)}", True)
    if head == "game" and rest.count(".") >= 2:
        edition, tables, part = rest.split(".", 1)[0], *rest.split(".", 1)[1].rsplit(".", 1)
        if part in GAME_PARTS:
            what = GAME_PARTS[part]
            name = f"{edition_title(edition)}, {tables} pay tables: {what}"
            return MeterName(key, name, part != "played")
    return MeterName(key, key.replace("_", " "), False)
