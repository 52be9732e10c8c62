"""Help as pictures: every pay table drawn with its icons or example hands, and one round worked
out, drawn by each game family (:mod:`kiosk.presentation.families.turbo_help`,
:mod:`kiosk.presentation.families.stadium_help`, asked through
:meth:`~kiosk.presentation.families.TableFamily.help_pictures`).

Nothing is copied: each row is read from the pay table the game pays from, and the worked
example is the game's own ``settle`` applied to named cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.games.base import GameRules, SeatSettlement
from kiosk.presentation.faces import CardFace
from kiosk.presentation.i18n import text
from kiosk.presentation.money import dollars
from kiosk.presentation.spots import result_line, spot_labels
from kiosk.presentation.words import GameWords


@dataclass(frozen=True)
class PictureRow:
    """One pay-table row: its picture (icons with a count, or the cards of an example hand),
    the outcome and the pays."""

    outcome: str
    pays: str
    icon: str = ""  # the edition's icon, drawn once beside ``count_text``
    count_text: str = ""  # "14+", "9"
    cards: tuple[CardFace, ...] = ()


@dataclass(frozen=True)
class PictureTable:
    """A pay table of one wager."""

    title: str
    rows: tuple[PictureRow, ...]


@dataclass(frozen=True)
class ExampleStep:
    """One line of the worked example, with the cards it speaks of."""

    text: str
    cards: tuple[CardFace, ...] = ()
    won: bool = False


@dataclass(frozen=True)
class HelpPictures:
    """What the help screen draws after the rules: pay tables, then the worked example."""

    tables: tuple[PictureTable, ...]
    example_title: str
    example: tuple[ExampleStep, ...]
    icon_values: tuple[tuple[CardFace, str], ...] = ()  # Turbo: a card of each icon value
    icon_values_title: str = ""


def result_steps(
    game: GameRules,
    settlement: SeatSettlement,
    language: str,
    staked: int,
) -> list[ExampleStep]:
    """A line per wager of the example's settlement (pays or loses), then the total."""
    words = GameWords(game, language)
    labels = spot_labels(game, words)
    steps = []
    for r in settlement.results:
        line = result_line(game, r, words, labels)
        if r.paid > r.stake:
            odds = f"{r.odds.numerator:,}:{r.odds.denominator:,}"
            message = text(
                language, "help_example_pays", spot=line.label, odds=odds, amount=dollars(r.paid)
            )
        elif r.paid == r.stake:
            message = f"{line.label}: {line.amount_text}"
        else:
            message = text(language, "help_example_loses", spot=line.label)
        steps.append(ExampleStep(message, won=r.paid > r.stake))
    total = text(
        language,
        "help_example_total",
        amount=dollars(settlement.total_paid),
        bet=dollars(staked),
    )
    steps.append(ExampleStep(total, won=settlement.total_paid > staked))
    return steps


def wager_step(game: GameRules, language: str, spot: str, amount: int) -> ExampleStep:
    """ "You bet $5.00 on First Down"."""
    label = spot_labels(game, GameWords(game, language))[spot]
    return ExampleStep(text(language, "help_example_wager", amount=dollars(amount), spot=label))


def help_pictures(game: GameRules, language: str) -> HelpPictures | None:
    """The pictures of ``game``'s help, as its family draws them (None: text only)."""
    from kiosk.presentation.families import table_family

    return table_family(game).help_pictures(game, language)
