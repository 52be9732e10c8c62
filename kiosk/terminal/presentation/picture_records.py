"""The records of help as pictures (:mod:`kiosk.terminal.presentation.help_pictures`): a leaf that
the game families' protocol names without importing the drawing (decision 0050)."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.terminal.presentation.faces import CardFace


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
