"""High Card: a third game family in one package plus its data (``pays.toml``), for tests.

The dealer's card is dealt first, then each seat's own card; the higher rank wins at the
data's odds, a tie pushes.  No decision.  :func:`install` registers the family with the games
layer and its presentation and text parts with theirs, touching no layer's code: what
docs/games.md tells a new family to do.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from kiosk.kernel import cards
from kiosk.kernel.games import registry
from kiosk.kernel.games.base import (
    DecisionOffer,
    GameRules,
    RuleError,
    SeatBet,
    SeatSettlement,
    WagerResult,
    WagerSpot,
    pay,
)
from kiosk.kernel.games.family import PaytableChoice
from kiosk.terminal.core.state import RoundState
from kiosk.terminal.presentation import families as table_families
from kiosk.terminal.presentation.families import GameWordsLike, TableFamily
from kiosk.terminal.presentation.spots import odds_text
from kiosk.terminal.textui import families as text_families
from kiosk.terminal.textui.families import TextFamily

FAMILY_ID = "high-card"
EDITION_ID = "high-card"
BET = "bet"
DATA = tomllib.loads((Path(__file__).parent / "pays.toml").read_text())


class HighCardRules:
    """The rules (a :class:`~kiosk.kernel.games.base.GameRules`)."""

    game_id = EDITION_ID
    title = str(DATA["title"])
    family = FAMILY_ID
    spots = (WagerSpot(BET, "Bet", mandatory=True),)
    positions = 0
    first_deal = 1  # the dealer's card
    second_deal_per_seat = 1  # the seat's card
    second_deal_shared = 0
    odds = Fraction(str(DATA["win"]))

    def validate_bet(self, bet: SeatBet) -> None:
        """Only the bet, a positive stake."""
        if set(bet.wagers) != {BET} or bet.positions:
            raise RuleError("High Card takes one bet and no positions")
        if bet.wagers[BET] <= 0:
            raise RuleError("the bet must be a positive number of cents")

    def offer(self, bet: SeatBet, first_cards: tuple[int, ...]) -> DecisionOffer | None:
        """No decision."""
        return None

    def settle(
        self,
        bet: SeatBet,
        first_cards: tuple[int, ...],
        choice: str | None,
        seat_cards: tuple[int, ...],
        shared_second: tuple[int, ...],
    ) -> SeatSettlement:
        """The higher rank wins; a tie pushes."""
        stake = bet.wagers[BET]
        mine, dealer = cards.rank(seat_cards[0]), cards.rank(first_cards[0])
        if mine > dealer:
            result = WagerResult(BET, stake, pay(stake, self.odds), "Win", self.odds)
        elif mine == dealer:
            result = WagerResult(BET, stake, stake, "Tie: push")
        else:
            result = WagerResult(BET, stake, 0, "Lose")
        return SeatSettlement((result,))


class HighCardFamily:
    """The family as the games layer sees it."""

    id = FAMILY_ID

    def edition_ids(self) -> tuple[str, ...]:
        return (EDITION_ID,)

    def load(self, edition_id: str, paytables: Mapping[str, str]) -> GameRules:
        if paytables:
            raise RuleError("High Card has no pay tables to choose")
        return HighCardRules()

    def title(self, edition_id: str) -> str:
        return HighCardRules.title

    def paytable_choices(self, edition_id: str) -> tuple[PaytableChoice, ...]:
        return ()


class HighCardTable(TableFamily):
    """Its presentation part: the menu line, the pays, the dealer's card named."""

    id = FAMILY_ID

    def menu_text(self, game: GameRules, words: GameWordsLike) -> str:
        return words("Beat the dealer's card")

    def pays_text(self, game: GameRules, spot: WagerSpot) -> str:
        return odds_text(HighCardRules.odds)

    def hand_text(
        self, game: GameRules, first: Sequence[int], positions: Sequence[int], language: str
    ) -> str:
        return f"Dealer: {cards.names(first)}" if first else ""


class HighCardText(TextFamily):
    """Its text part: the dealer's card and the rules."""

    id = FAMILY_ID

    def first_deal_lines(self, game: GameRules | None, rnd: RoundState) -> list[str]:
        return [f"Dealer's card: {cards.names(rnd.first)}"]

    def rules_lines(self, game: GameRules | None) -> list[str]:
        return [f"Beat the dealer's card: a win pays {odds_text(HighCardRules.odds)}."]


def install() -> None:
    """Register the family with every layer that has a part for it."""
    registry.register(HighCardFamily())
    table_families.register(HighCardTable())
    text_families.register(HighCardText())


def uninstall() -> None:
    """Forget it again."""
    registry.unregister(FAMILY_ID)
    table_families.unregister(FAMILY_ID)
    text_families.unregister(FAMILY_ID)
