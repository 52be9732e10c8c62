"""Help as pictures: every pay table drawn with its icons or example hands, and one round worked
out, drawn by each game family (:mod:`kiosk.terminal.presentation.families.turbo_help`,
:mod:`kiosk.terminal.presentation.families.stadium_help`, asked through
:meth:`~kiosk.terminal.presentation.families.TableFamily.help_pictures`).

Nothing is copied: each row is read from the pay table the game pays from, and the worked
example is the game's own ``settle`` applied to named cards.
"""

from __future__ import annotations

from kiosk.kernel.games.base import GameRules, SeatSettlement
from kiosk.terminal.presentation.families import table_family
from kiosk.terminal.presentation.i18n import text
from kiosk.terminal.presentation.money import dollars
from kiosk.terminal.presentation.picture_records import ExampleStep as ExampleStep
from kiosk.terminal.presentation.picture_records import HelpPictures as HelpPictures
from kiosk.terminal.presentation.picture_records import PictureRow as PictureRow
from kiosk.terminal.presentation.picture_records import PictureTable as PictureTable
from kiosk.terminal.presentation.spots import result_line, spot_labels
from kiosk.terminal.presentation.words import GameWords


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
    return table_family(game).help_pictures(game, language)
