"""Whether a text the Dealer Terminal shows is Spanish: a text of the Spanish catalogue, its
fields Spanish, neutral (numbers, money, cards) or one of the table's names."""

from __future__ import annotations

import re

from kiosk.table.presentation.i18n_dealer import DEALER_TEXTS

FIELD = re.compile(r"\{(\w+)\}")
#: what is no language's: numbers, money, PIN dots, card ranks and suits, colour markup
NEUTRAL = re.compile(r"(\[color=\w+\])?[\d\s$.,:·—●/+\-♠♥♦♣]*(10|[2-9JQKA])?[\s♠♥♦♣]*(\[/color\])?")


def _patterns(language: str) -> list[re.Pattern[str]]:
    made = []
    for value in DEALER_TEXTS[language].values():
        parts = FIELD.split(value)  # text, field, text, field, ...
        regex = "".join(re.escape(p) if n % 2 == 0 else "(.+)" for n, p in enumerate(parts))
        made.append(re.compile(regex, re.S))
    return made


SPANISH = _patterns("es")


def spanish(shown: str, names: set[str]) -> bool:
    """``shown`` is a Spanish text of the catalogue (its fields Spanish, neutral or a name)."""
    if NEUTRAL.fullmatch(shown) or shown in names:
        return True
    for pattern in SPANISH:
        m = pattern.fullmatch(shown)
        if m and all(spanish(g, names) for g in m.groups()):
            return True
    suit_key = re.fullmatch(r"[♠♥♦♣] (.+)", shown)  # a suit key: its symbol and its name
    if suit_key:
        return spanish(suit_key.group(1), names)
    # a recalled seat's line: its parts, each Spanish (or a wager: a spot's name, money, result)
    if " · " in shown:
        return all(spanish(part, names) for part in shown.split(" · "))
    wager = re.fullmatch(r"(.+?) (\$[\d.,]+) (.+)", shown)
    return bool(wager and wager.group(1) in names and spanish(wager.group(3), names))
