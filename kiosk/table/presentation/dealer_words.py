"""Small words of the Dealer Terminal in its language: a pack's place, a pause's or a void's
reason (codes, :mod:`kiosk.kernel.games.table_reasons`), a seat's choice, a wager spot's name."""

from __future__ import annotations

import re

from kiosk.kernel.games.table_reasons import PAUSE_REASONS, VOID_REASONS, reason_code
from kiosk.table.presentation.i18n_dealer import text
from kiosk.terminal.presentation.i18n import game_text

#: a spot on a row or a column of the Stadium array ("Pairs Plus Row 2")
_LINE_SPOT = re.compile(r"(.+) (Row|Column) (\d+)")


def location_title(location: str, lang: str = "en") -> str:
    """A pack's location in the dealer's words: ``"dealer"`` -> ``"Dealer's hand"``."""
    if location == "dealer":
        return text(lang, "place_dealer")
    if location == "community":
        return text(lang, "place_community")
    if location.startswith("array "):
        return text(lang, "place_array", cards=location.removeprefix("array "))
    return location[:1].upper() + location[1:]


def pause_reason_words(reason: str, lang: str = "en") -> str:
    """A pause reason in ``lang`` (a reason that is no code of :data:`PAUSE_REASONS` as it
    came: a dealer's own words)."""
    code = reason_code(reason)
    if code in PAUSE_REASONS:
        return text(lang, f"pause_reason_{PAUSE_REASONS.index(code)}")
    return reason


def void_reason_words(reason: str, lang: str = "en") -> str:
    """A void reason in ``lang`` (a reason that is no code of :data:`VOID_REASONS` as it came)."""
    code = reason_code(reason)
    if code in VOID_REASONS:
        return text(lang, f"void_reason_{VOID_REASONS.index(code)}")
    return reason


def choice_words(choice: str, lang: str = "en") -> str:
    """A seat's decision as the buttons name it ("play" -> "PLAY" / "JUGAR")."""
    key = f"choice_{choice.lower()}"
    return text(lang, key) if key in _CHOICES else choice.upper()


_CHOICES = frozenset({"choice_play", "choice_fold", "choice_raise", "choice_no_raise"})


def spot_words(label: str, lang: str = "en") -> str:
    """A wager spot's name as the game labels it, in ``lang`` ("Pairs Plus Row 2" ->
    "Parejas Plus fila 2"); a name the games keep in every language as it is ("Field Goal")."""
    line = _LINE_SPOT.fullmatch(label)
    if line is not None:
        key = "spot_row" if line[2] == "Row" else "spot_column"
        return text(lang, key, spot=game_text(lang, line[1]), n=line[3])
    return game_text(lang, label)
