"""Each game family's presentation part, by family id (docs/decisions/0015-game-families.md).

The table view, the spots, the game's words, game recall and the help page ask the
:class:`TableFamily` of the game they show (:func:`table_family`) for what differs between
families: card icons, the deal's pauses, the hand and dealer texts, the decision prompt, the
pays summary and the help.  A family without a presentation part of its own is shown by
:class:`TableFamily` itself: its spots, its cards, a take-or-decline prompt.  The shipped
families are loaded on the first look-up; another family calls :func:`register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from kiosk.kernel.games.base import GameRules, WagerResult, WagerSpot
from kiosk.kernel.games.paytable import Translations
from kiosk.terminal.presentation.i18n import game_text, text
from kiosk.terminal.presentation.picture_records import HelpPictures

#: the per-family modules of the shipped families
BUILTIN = (
    "kiosk.terminal.presentation.families.turbo",
    "kiosk.terminal.presentation.families.stadium",
)


@dataclass(frozen=True)
class PayTable:
    """A titled two-column table: outcome, pays."""

    title: str
    rows: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class OfferLabels:
    """The decision prompt and its two buttons, in the player's language."""

    prompt: str
    take: str
    decline: str


@dataclass(frozen=True)
class HelpContent:
    """A family's rules in paragraphs, its pay tables and the icon drawn beside them."""

    paragraphs: tuple[str, ...]
    tables: tuple[PayTable, ...]
    icon: str = ""


class GameWordsLike(Protocol):
    """What a family reads of :class:`~kiosk.terminal.presentation.words.GameWords`."""

    @property
    def language(self) -> str:
        """The player's language."""
        ...

    def __call__(self, english: str) -> str:
        """``english`` (a text of the game's data or results) in the player's language."""
        ...


@dataclass(frozen=True)
class RoundCards:
    """A settled round's cards as the families read them: the first deal, the seat's own
    cards, the shared cards of the second deal, the positions played (Stadium)."""

    first: tuple[int, ...]
    own: tuple[int, ...]
    shared: tuple[int, ...]
    positions: tuple[int, ...] = ()


def odds_words(result: WagerResult, words: GameWordsLike) -> str:
    """A winning wager's odds as a dealer says them: ``"3 to 1"``, ``"3 a 2"`` (the odds it was
    paid at; for a line that records none, its net over its stake)."""
    odds = result.odds or (
        Fraction(result.paid - result.stake, result.stake) if result.stake else Fraction(0)
    )
    return text(words.language, "odds_to", win=f"{odds.numerator:,}", stake=f"{odds.denominator:,}")


class TableFamily:
    """A family's presentation part; this base shows any game plainly.

    ``words`` arguments are :class:`kiosk.terminal.presentation.words.GameWords` of the game
    (callable with an English text, giving it in the player's language; ``.language``)."""

    id = ""

    def translations(self, game: GameRules) -> Translations:
        """Every data-file translation behind ``game``."""
        return {}

    def suit(self, game: GameRules) -> int | None:
        """The suit whose cards carry icons (drawn on the faces and counted), or None."""
        return None

    def icon_names(self, game: GameRules) -> tuple[str, str] | None:
        """The icon's name, singular and plural (English), or None for a game without."""
        return None

    def card_icon(self, game: GameRules) -> str:
        """The icon drawn on the cards of :meth:`suit` ("" none)."""
        return ""

    def tile_icon(self, game: GameRules) -> str:
        """The icon of the game's menu tile and title bar ("" none)."""
        return ""

    def menu_text(self, game: GameRules, words: GameWordsLike) -> str:
        """The menu tile's one line about the game."""
        return ""

    def spot_label(self, game: GameRules, spot: WagerSpot, words: GameWordsLike) -> str:
        """A wager spot's name."""
        return words(spot.label)

    def extra_label(self, game: GameRules, spot: str, words: GameWordsLike) -> str:
        """The name of a result line that is not a spot placed before the deal."""
        return words(spot)

    def host_spot(self, game: GameRules, result_spot: str) -> str:
        """The spot a result line is shown on (a decision wager on its main spot)."""
        return result_spot

    def pays_text(self, game: GameRules, spot: WagerSpot) -> str:
        """A short summary of what a spot pays ("" none)."""
        return ""

    def line_fields(
        self, game: GameRules, spot: WagerSpot, words: GameWordsLike
    ) -> tuple[str, str, str]:
        """A spot that bets on a line of shared cards: (line, wager name, line name)."""
        return "", "", ""

    def first_deal_steps(self, game: GameRules) -> tuple[int, ...]:
        """Cumulative card counts the first deal's animation pauses at (card by card)."""
        return tuple(range(1, game.first_deal + 1))

    def hand_text(
        self, game: GameRules, first: Sequence[int], positions: Sequence[int], language: str
    ) -> str:
        """The seat's hand made of chosen positions of the first deal ("" none)."""
        return ""

    def dealer_text(self, game: GameRules, dealer: Sequence[int], language: str) -> str:
        """The shared cards of the second deal, named ("" none)."""
        return ""

    def offer_labels(
        self, game: GameRules, words: GameWordsLike, take: str, decline: str, amount: str
    ) -> OfferLabels:
        """The decision prompt for ``amount`` (dollars) and its buttons."""
        language = words.language
        take_label = game_text(language, take.replace("_", " ").capitalize()).upper()
        decline_label = game_text(language, decline.replace("_", " ").capitalize()).upper()
        return OfferLabels(f"{take_label} {amount} / {decline_label}?", take_label, decline_label)

    def help(self, game: GameRules, language: str, words: GameWordsLike) -> HelpContent:
        """The rules and pay tables (this base: the spots' names)."""
        return HelpContent(tuple(self.spot_label(game, s, words) for s in game.spots), ())

    def decision_spot(self, game: GameRules) -> tuple[str, str] | None:
        """(main spot, decision wager) when a decision wager rides on a spot of its own
        printed beside the main one (the felt), else None."""
        return None

    def help_pictures(self, game: GameRules, language: str) -> HelpPictures | None:
        """The help's pictures: pay tables drawn, a worked example (None: text only)."""
        return None

    def reasons(
        self,
        game: GameRules,
        results: Sequence[WagerResult],
        cards: RoundCards,
        label: Callable[[str], str],
        words: GameWordsLike,
    ) -> tuple[str, ...]:
        """Why the round paid what it did, one line per wager that won (``label``: a result
        line's spot id to its name): this base names the wager and its odds."""
        return tuple(
            text(words.language, "pays_line", name=label(r.spot), odds=odds_words(r, words))
            for r in results
            if r.paid > r.stake
        )

    def icon_count_text(self, game: GameRules, count: int, words: GameWordsLike) -> str:
        """``"5 footballs"`` for a game with icons, else ""."""
        names = self.icon_names(game)
        if names is None:
            return ""
        icons = words(names[0] if count == 1 else names[1])
        return text(words.language, "icon_count", count=count, icons=icons)


_REGISTRY: dict[str, TableFamily] = {}
PLAIN = TableFamily()
_loaded: list[bool] = []


def _load_builtins() -> None:
    if not _loaded:
        _loaded.append(True)
        for module in BUILTIN:
            importlib.import_module(module)


def register(family: TableFamily) -> None:
    """Make a family's presentation part known (a later registration of the same id wins)."""
    _REGISTRY[family.id] = family


def unregister(family_id: str) -> None:
    """Forget a family's presentation part (a test's own family)."""
    _REGISTRY.pop(family_id, None)


def table_family(game: GameRules | None) -> TableFamily:
    """The presentation part of ``game``'s family (:data:`PLAIN` for none registered or for
    None, a game no longer shipped)."""
    _load_builtins()
    if game is None:
        return PLAIN
    return _REGISTRY.get(game.family, PLAIN)
