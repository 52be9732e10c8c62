"""A game's own words (title, wager names, outcomes, icons) in the player's language.

The data files give each player-visible text in English and, where written, in other
languages (:mod:`kiosk.games.paytable`); the screens and the journal keep the English text, and
:class:`GameWords` shows it in the player's language: the game's data-file translation first,
then the standard game words of :func:`~kiosk.presentation.i18n.game_text` (poker hands,
results, the code-defined Stadium names), else the English text itself.
"""

from __future__ import annotations

from kiosk.cards import SUIT_NAMES
from kiosk.games.base import GameRules, WagerSpot
from kiosk.games.paytable import ENGLISH, Translations, merged
from kiosk.games.stadium import StadiumRules
from kiosk.games.turbo import TurboRules
from kiosk.presentation.i18n import check_language, game_text, text


def translations(game: GameRules | None) -> Translations:
    """Every data-file translation behind ``game``: its edition and its chosen pay tables."""
    if not isinstance(game, TurboRules):
        return {}
    edition = game.edition
    tables = (table.translations for table in game.paytables.values())
    return merged(edition.translations, *tables, edition.raise_rule.paytable.translations)


class GameWords:
    """The words of one game (None: a game no longer shipped) in one language."""

    def __init__(self, game: GameRules | None, language: str) -> None:
        self.game = game
        self.language = check_language(language)
        found = translations(game).get(language, {}) if language != ENGLISH else {}
        self._data = dict(found)
        suit = game.suit if isinstance(game, TurboRules) else None
        self.suit = "" if suit is None else game_text(language, SUIT_NAMES[suit])

    def __call__(self, english: str) -> str:
        """``english`` (a text of the game's data or results) in the player's language."""
        if self.language == ENGLISH:
            return english
        found = self._data.get(english)
        return found if found is not None else game_text(self.language, english, self.suit)

    @property
    def title(self) -> str:
        """The game's name."""
        return "" if self.game is None else self(self.game.title)

    def icons(self, count: int) -> str:
        """The icon word for ``count`` icons (Turbo; "" for other games)."""
        if not isinstance(self.game, TurboRules):
            return ""
        edition = self.game.edition
        return self(edition.icon if count == 1 else edition.icons)

    def spot(self, spot: WagerSpot) -> str:
        """A wager spot's name; a Stadium blind spot as its wager and line ("Pairs Plus Row 1")."""
        if isinstance(self.game, StadiumRules) and spot.group == "blind":
            kind, line = self.blind_line(spot.id)
            return f"{kind} {line}"
        return self(spot.label)

    def blind_line(self, spot_id: str) -> tuple[str, str]:
        """A Stadium blind spot's wager name and line name, e.g. ("Pairs Plus", "Row 1")."""
        wager, line, number = spot_id.rsplit("_", 2)
        kind = "Pairs Plus" if wager == "pairs_plus" else "6-Card Bonus"
        return self(kind), text(self.language, "row" if line == "row" else "col", n=number)
