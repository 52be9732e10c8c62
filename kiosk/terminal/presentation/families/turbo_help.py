"""Turbo's help pictures: the icons each card carries, every icon pay table with the icon and
its count, the 9 Card Bonus with its suit, and one round worked out by the rules."""

from __future__ import annotations

from fractions import Fraction

from kiosk.kernel.cards import RANKS, SUIT_NAMES
from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.turbo import TurboRules
from kiosk.kernel.games.turbo_edition import IconPaytable
from kiosk.kernel.scoring import count_icons
from kiosk.terminal.presentation.faces import CardFace, face
from kiosk.terminal.presentation.help_pictures import (
    ExampleStep,
    HelpPictures,
    PictureRow,
    PictureTable,
    result_steps,
    wager_step,
)
from kiosk.terminal.presentation.i18n import game_text, text
from kiosk.terminal.presentation.spots import odds_text
from kiosk.terminal.presentation.words import GameWords

#: the example round, by rank; "S" is the edition's suit (the icons), "x"/"y" two others
EXAMPLE_COMMUNITY = (("J", "S"), ("4", "x"), ("9", "y"))
EXAMPLE_OWN = (("A", "S"), ("Q", "S"), ("8", "S"), ("3", "S"), ("2", "y"), ("T", "x"))
#: the example's stakes in cents: the main wager, then the next wager of the edition
EXAMPLE_MAIN, EXAMPLE_SIDE = 500, 100


def _card(rank: str, which: str, suit: int) -> int:
    offset = {"S": 0, "x": 1, "y": 2}[which]
    return RANKS.index(rank) * 4 + (suit + offset) % 4


def _tier_rows(table: IconPaytable, words: GameWords, icon: str) -> tuple[PictureRow, ...]:
    tiers = sorted(table.tiers, key=lambda t: t.odds, reverse=True)
    return tuple(
        PictureRow(words(t.outcome), odds_text(t.odds), icon=icon, count_text=f"{t.min_icons}+")
        for t in tiers
    )


def _bonus_rows(game: TurboRules, language: str) -> tuple[PictureRow, ...]:
    bonus = game.nine_card_bonus
    if bonus is None:
        return ()
    suit = game.suit
    suit_word = game_text(language, SUIT_NAMES[suit])
    run = tuple(face(_card(r, "S", suit), suit) for r in ("7", "8", "9"))
    one = (face(_card("A", "S", suit), suit),)
    rows = []
    for n, sf in ((9, bonus.straight_flush_9), (8, bonus.straight_flush_8)):
        if sf is not None:
            outcome = text(language, "help_sf", n=n, suit=suit_word)
            rows.append(PictureRow(outcome, odds_text(Fraction(sf)), count_text=str(n), cards=run))
    for n in range(9, 3, -1):
        outcome = text(language, "help_nine_suited", n=n, suit=suit_word)
        pays = odds_text(Fraction(bonus.pays[n - 4]))
        rows.append(PictureRow(outcome, pays, count_text=str(n), cards=one))
    return tuple(rows)


def pay_tables(game: TurboRules, language: str) -> tuple[PictureTable, ...]:
    """Every pay table of the edition, in the help page's order (main, decision, others,
    the 9 Card Bonus)."""
    ed = game.edition
    words = GameWords(game, language)
    tables = [
        PictureTable(words(w.label), _tier_rows(game.paytables[w.id], words, ed.icon))
        for w in ed.wagers
    ]
    rule = ed.raise_rule
    raise_title = text(
        language,
        "help_raise_table",
        label=words(rule.label),
        max=rule.max_community_icons,
        icons=words(ed.icons),
    )
    tables.insert(1, PictureTable(raise_title, _tier_rows(rule.paytable, words, ed.icon)))
    bonus = _bonus_rows(game, language)
    if bonus:
        tables.append(PictureTable(words(ed.nine_card_bonus_label), bonus))
    return tuple(tables)


def example(game: TurboRules, language: str) -> tuple[ExampleStep, ...]:
    """One round, settled by the rules: the main wager and the next one, the nine cards, the
    icons counted, what each wager pays."""
    ed, suit = game.edition, game.suit
    words = GameWords(game, language)
    community = tuple(_card(r, w, suit) for r, w in EXAMPLE_COMMUNITY)
    own = tuple(_card(r, w, suit) for r, w in EXAMPLE_OWN)
    side = next(w for w in ed.wagers if not w.mandatory)
    bet = SeatBet({ed.main.id: EXAMPLE_MAIN, side.id: EXAMPLE_SIDE})
    offer = game.offer(bet, community)
    choice = offer.default if offer is not None else None
    settlement = game.settle(bet, community, choice, own, ())
    icons = count_icons(community + own, suit)
    main_result = settlement.results[0]
    faces: tuple[CardFace, ...] = tuple(face(code, suit) for code in community + own)
    steps = [
        wager_step(game, language, ed.main.id, EXAMPLE_MAIN),
        wager_step(game, language, side.id, EXAMPLE_SIDE),
        ExampleStep(text(language, "help_example_cards"), cards=faces),
        ExampleStep(
            text(
                language,
                "help_example_count",
                count=icons,
                icons=words.icons(icons),
                outcome=words(main_result.outcome),
            )
        ),
    ]
    steps += result_steps(game, settlement, language, bet.total)
    return tuple(steps)


def icon_values(game: TurboRules) -> tuple[tuple[CardFace, str], ...]:
    """A card of each icon value of the edition's suit, with its count ("5: ×1", "10: ×2")."""
    suit = game.suit
    values = []
    for rank in ("5", "T", "K"):
        card = face(_card(rank, "S", suit), suit)
        values.append((card, f"{card.rank}: ×{card.icons}"))
    return tuple(values)


def pictures(game: TurboRules, language: str) -> HelpPictures:
    """The Turbo help's pictures."""
    suit = game_text(language, SUIT_NAMES[game.suit])
    return HelpPictures(
        tables=pay_tables(game, language),
        example_title=text(language, "help_example_title"),
        example=example(game, language),
        icon_values=icon_values(game),
        icon_values_title=text(language, "help_icon_values", suit=suit),
    )
