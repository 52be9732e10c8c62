"""A game's own words (title, wager names, outcomes, icons) in the player's language.

The data files give each player-visible text in English and, where written, in other
languages (:mod:`kiosk.kernel.games.paytable`); the screens and the journal keep the English text,
and
:class:`GameWords` shows it in the player's language: the game's data-file translation first,
then the standard game words of :func:`~kiosk.terminal.presentation.i18n.game_text` (poker hands,
results, the code-defined Stadium names), else the English text itself.
"""

from __future__ import annotations

from kiosk.kernel.cards import SUIT_NAMES
from kiosk.kernel.games.base import GameRules, WagerSpot
from kiosk.kernel.games.paytable import ENGLISH, Translations
from kiosk.terminal.presentation.families import table_family
from kiosk.terminal.presentation.i18n import check_language, game_text


def translations(game: GameRules | None) -> Translations:
    """Every data-file translation behind ``game``: its edition and its chosen pay tables."""
    return {} if game is None else table_family(game).translations(game)


class GameWords:
    """The words of one game (None: a game no longer shipped) in one language."""

    def __init__(self, game: GameRules | None, language: str) -> None:
        self.game = game
        self.family = table_family(game)
        self.language = check_language(language)
        found = translations(game).get(language, {}) if language != ENGLISH else {}
        self._data = dict(found)
        suit = self.family.suit(game) if game is not None else None
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
        """The icon word for ``count`` icons ("" for a game without icons)."""
        names = None if self.game is None else self.family.icon_names(self.game)
        if names is None:
            return ""
        return self(names[0] if count == 1 else names[1])

    def spot(self, spot: WagerSpot) -> str:
        """A wager spot's name (a Stadium blind spot as its wager and line: "Pairs Plus Row 1")."""
        if self.game is None:
            return self(spot.label)
        return self.family.spot_label(self.game, spot, self)
