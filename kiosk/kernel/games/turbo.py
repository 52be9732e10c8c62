"""Turbo Icon games — Turbo Football, Version 2 and their themes — as :class:`GameRules`.

A round: every seat bets (the mandatory wager, optional icon wagers and the 9 Card Bonus); 3
community cards are dealt; a seat whose community holds few enough icons may raise (double) the
mandatory wager; each seat gets its own 6 cards from the same deck; every wager is settled on
the seat's 9 cards, paying only its highest award.  Editions and pay tables are data files
(:mod:`kiosk.kernel.games.turbo_edition`, :mod:`kiosk.kernel.games.nine_card_bonus`); icon scoring
is the hot path in :mod:`kiosk.kernel.scoring`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from kiosk.kernel.games import icon_odds, nine_card_bonus
from kiosk.kernel.games.base import (
    DecisionOffer,
    RuleError,
    SeatBet,
    SeatSettlement,
    WagerResult,
    WagerSpot,
    pay,
)
from kiosk.kernel.games.family import PaytableChoice
from kiosk.kernel.games.nine_card_bonus import KIND as NINE_CARD_BONUS
from kiosk.kernel.games.nine_card_bonus import NineCardBonusTable, load_choice
from kiosk.kernel.games.pay_limits import PayLimits, SpotLimit, best, loadable
from kiosk.kernel.games.paytable import is_file_reference
from kiosk.kernel.games.turbo_edition import (
    Edition,
    IconPaytable,
    load_edition,
    load_icon_paytable,
    raise_ev,
    should_raise,
)
from kiosk.kernel.games.turbo_edition import edition_ids as _edition_ids
from kiosk.kernel.scoring import count_icons, score_turbo

FAMILY_ID = "turbo"
RAISE = "raise"
NO_RAISE = "no_raise"
COMMUNITY_CARDS = icon_odds.COMMUNITY_CARDS
SEAT_CARDS = icon_odds.SEAT_CARDS
#: How a table deals Turbo to many seats (docs/table-math.md): one deck for the community and
#: every seat's 6 cards (at most MAX_TABLE_SEATS), or each seat's 6 cards from its own shuffle
#: of the cards the community left (any number of seats).
TABLE_DEAL = "table"
STADIUM_DEAL = "stadium"
DEAL_MODES = (TABLE_DEAL, STADIUM_DEAL)
MAX_TABLE_SEATS = (52 - COMMUNITY_CARDS) // SEAT_CARDS


def edition_ids() -> tuple[str, ...]:
    """Ids of every packaged Turbo edition and theme."""
    return _edition_ids()


def load(edition_id: str, paytables: Mapping[str, str] | None = None) -> TurboRules:
    """The rules of an edition with chosen pay tables (wager id -> table name or file).

    ``nine_card_bonus=off`` removes the 9 Card Bonus.  An unknown edition or wager is a
    :class:`RuleError`; a bad table a :class:`~kiosk.kernel.games.paytable.PaytableError`.
    """
    if edition_id not in edition_ids():
        raise RuleError(f"unknown Turbo edition {edition_id!r}; known: {', '.join(edition_ids())}")
    edition = load_edition(edition_id)
    choices = dict(paytables or {})
    tables: dict[str, IconPaytable] = {}
    for wager in edition.wagers:
        choice = choices.pop(wager.id, wager.default)
        if is_file_reference(choice):
            tables[wager.id] = load_icon_paytable(Path(choice), edition, wager)
        else:
            tables[wager.id] = wager.paytable(choice)
    bonus = load_choice(choices.pop(NINE_CARD_BONUS, edition.nine_card_bonus_default))
    if choices:
        known = ", ".join([*(w.id for w in edition.wagers), NINE_CARD_BONUS])
        raise RuleError(
            f"{edition_id} has no wager {', '.join(map(repr, choices))} with a pay table; "
            f"known: {known}"
        )
    return TurboRules(edition, tables, bonus)


class TurboFamily:
    """The Turbo icon games as a :class:`~kiosk.kernel.games.family.Family`."""

    @property
    def id(self) -> str:
        """``"turbo"``."""
        return FAMILY_ID

    def edition_ids(self) -> tuple[str, ...]:
        """Every packaged edition and theme."""
        return edition_ids()

    def load(self, edition_id: str, paytables: Mapping[str, str]) -> TurboRules:
        """:func:`load`."""
        return load(edition_id, paytables)

    def title(self, edition_id: str) -> str:
        """The edition's title."""
        return load_edition(edition_id).title

    def paytable_choices(self, edition_id: str) -> tuple[PaytableChoice, ...]:
        """Each icon wager's tables, then the 9 Card Bonus tables (or off)."""
        ed = load_edition(edition_id)
        out = [
            PaytableChoice(w.id, w.label, tuple(t.name for t in w.paytables), w.default)
            for w in ed.wagers
        ]
        bonus = (*nine_card_bonus.available(), nine_card_bonus.OFF)
        out.append(
            PaytableChoice(
                NINE_CARD_BONUS, ed.nine_card_bonus_label, bonus, ed.nine_card_bonus_default
            )
        )
        return tuple(out)

    def pay_limits(self, edition_id: str) -> PayLimits:
        """Each icon wager's best tier over all its tables, the raise's, and the best 9 Card
        Bonus award of every table in the library (straight flushes included)."""
        if edition_id not in edition_ids():
            raise RuleError(f"unknown Turbo edition {edition_id!r}")
        ed = load_edition(edition_id)
        spots = {
            w.id: SpotLimit(best(t.odds for table in w.paytables for t in table.tiers))
            for w in ed.wagers
        }
        spots[RAISE] = SpotLimit(best(t.odds for t in ed.raise_rule.paytable.tiers))
        bonus = loadable(nine_card_bonus.load_table, nine_card_bonus.available())
        awards = (max(*t.pays, t.straight_flush_8 or 0, t.straight_flush_9 or 0) for t in bonus)
        spots[NINE_CARD_BONUS] = SpotLimit(best(Fraction(odds) for odds in awards))
        return PayLimits(edition_id, spots)


FAMILY = TurboFamily()


@dataclass(frozen=True)
class RaiseAdvice:
    """The optimal raise decision for a community, with the exact conditional EVs behind it.

    EVs are the expected net result per unit of the mandatory wager (the raise included when
    raising), given the 3 community cards.
    """

    raise_: bool
    ev_raise: Fraction
    ev_no_raise: Fraction


class TurboRules:
    """One configured Turbo edition: the edition and its chosen pay tables."""

    def __init__(
        self,
        edition: Edition,
        paytables: Mapping[str, IconPaytable],
        nine_card_bonus: NineCardBonusTable | None,
    ) -> None:
        self.edition = edition
        self.paytables = dict(paytables)
        self.nine_card_bonus = nine_card_bonus
        spots = [
            WagerSpot(w.id, w.label, w.mandatory, "main" if w.mandatory else "side")
            for w in edition.wagers
        ]
        if nine_card_bonus is not None:
            spots.append(WagerSpot(NINE_CARD_BONUS, edition.nine_card_bonus_label, False, "side"))
        self._spots = tuple(spots)
        self._spot_ids = frozenset(s.id for s in spots)
        self._advice: dict[icon_odds.Composition, RaiseAdvice] = {}

    @property
    def game_id(self) -> str:
        """Edition id."""
        return self.edition.id

    @property
    def title(self) -> str:
        """Display name of the edition."""
        return self.edition.title

    @property
    def family(self) -> str:
        """``"turbo"``."""
        return FAMILY_ID

    @property
    def spots(self) -> tuple[WagerSpot, ...]:
        """The wagers a seat may place before the deal (the raise comes later)."""
        return self._spots

    @property
    def positions(self) -> int:
        """Turbo has no array positions to choose."""
        return 0

    @property
    def first_deal(self) -> int:
        """The community cards."""
        return COMMUNITY_CARDS

    @property
    def second_deal_per_seat(self) -> int:
        """Each seat's own cards."""
        return SEAT_CARDS

    @property
    def second_deal_shared(self) -> int:
        """No shared cards after the decision."""
        return 0

    @property
    def suit(self) -> int:
        """Suit S, whose cards carry the icons."""
        return self.edition.suit

    @property
    def raise_label(self) -> str:
        """The edition's name for the raise ("Double", "Raise", ...)."""
        return self.edition.raise_rule.label

    def paytable_names(self) -> dict[str, str]:
        """Wager id -> name of the chosen pay table (``off`` for a 9 Card Bonus not offered)."""
        names = {wager_id: table.name for wager_id, table in self.paytables.items()}
        names[NINE_CARD_BONUS] = self.nine_card_bonus.name if self.nine_card_bonus else "off"
        return names

    def raise_advice(self, community: tuple[int, ...]) -> RaiseAdvice:
        """The optimal raise decision for these community cards (see :func:`optimal_raise`)."""
        _check_cards(community, COMMUNITY_CARDS, "community")
        composition = icon_odds.composition_of(community, self.suit)
        rule = self.edition.raise_rule
        if not rule.offered(icon_odds.icons_of(composition)):
            raise RuleError(
                f"no {rule.label} is offered on a community with more than "
                f"{rule.max_community_icons} {self.edition.icons}"
            )
        advice = self._advice.get(composition)
        if advice is None:
            main = self.paytables[self.edition.main.id]
            ev_no_raise = icon_odds.conditional_ev(main.net, composition)
            ev_raise = ev_no_raise + raise_ev(rule, composition)
            advice = RaiseAdvice(should_raise(rule, composition), ev_raise, ev_no_raise)
            self._advice[composition] = advice
        return advice

    def validate_bet(self, bet: SeatBet) -> None:
        """Refuse unknown spots, non-positive stakes and a bet without the mandatory wager."""
        for spot, stake in bet.wagers.items():
            if spot == RAISE:
                raise RuleError(f"the {self.raise_label} is placed after the community is dealt")
            if spot not in self._spot_ids:
                known = ", ".join(sorted(self._spot_ids))
                raise RuleError(f"{self.game_id} has no wager spot {spot!r}; known: {known}")
            if not isinstance(stake, int) or isinstance(stake, bool) or stake <= 0:
                raise RuleError(f"stake on {spot!r} must be a positive number of cents: {stake!r}")
        main = self.edition.main
        if main.id not in bet.wagers:
            raise RuleError(f"the {main.label} wager ({main.id!r}) is mandatory")
        if bet.positions:
            raise RuleError(f"{self.game_id} has no positions to choose")

    def offer(self, bet: SeatBet, first_cards: tuple[int, ...]) -> DecisionOffer | None:
        """The raise, when the community holds at most the edition's limit of icons."""
        self.validate_bet(bet)
        _check_cards(first_cards, COMMUNITY_CARDS, "community")
        if not self.edition.raise_rule.offered(count_icons(first_cards, self.suit)):
            return None
        return DecisionOffer(
            kind=RAISE,
            choices=(RAISE, NO_RAISE),
            default=NO_RAISE,
            take=RAISE,
            extra_wager=bet.wagers[self.edition.main.id],
            spot=RAISE,
        )

    def settle(
        self,
        bet: SeatBet,
        first_cards: tuple[int, ...],
        choice: str | None,
        seat_cards: tuple[int, ...],
        shared_second: tuple[int, ...],
    ) -> SeatSettlement:
        """Pay every wager of the seat on its 9 cards (highest award of each wager only)."""
        offer = self.offer(bet, first_cards)
        if offer is None and choice is not None:
            raise RuleError(f"no {self.raise_label} was offered, yet the choice is {choice!r}")
        if offer is not None and choice not in offer.choices:
            raise RuleError(f"the choice must be one of {offer.choices}, got {choice!r}")
        _check_cards(seat_cards, SEAT_CARDS, "seat")
        if shared_second:
            raise RuleError(f"{self.game_id} deals no shared cards after the decision")
        hand = first_cards + seat_cards
        if len(set(hand)) != len(hand):
            raise RuleError("the seat's cards repeat a community card")
        hand_icons, suited, run = score_turbo(hand, self.suit)
        community_icons = count_icons(first_cards, self.suit)
        results: list[WagerResult] = []
        for wager in self.edition.wagers:
            stake = bet.wagers.get(wager.id)
            if stake is None:
                continue
            table = self.paytables[wager.id]
            results.append(_icon_result(wager.id, stake, table, hand_icons, community_icons))
            if wager.mandatory and choice == RAISE:
                raise_table = self.edition.raise_rule.paytable
                results.append(_icon_result(RAISE, stake, raise_table, hand_icons, community_icons))
        bonus_stake = bet.wagers.get(NINE_CARD_BONUS)
        if bonus_stake is not None and self.nine_card_bonus is not None:
            award = self.nine_card_bonus.award(suited, run)
            if award is None:
                results.append(WagerResult(NINE_CARD_BONUS, bonus_stake, 0, "Lose"))
            else:
                outcome, odds = award
                paid = pay(bonus_stake, Fraction(odds))
                results.append(
                    WagerResult(NINE_CARD_BONUS, bonus_stake, paid, outcome, Fraction(odds))
                )
        return SeatSettlement(tuple(results))


def optimal_raise(rules: TurboRules, community: tuple[int, ...]) -> RaiseAdvice:
    """The exact best raise decision for these community cards (raise iff its EV > 0).

    Raises :class:`RuleError` when the community holds too many icons for a raise.
    """
    return rules.raise_advice(community)


def _icon_result(
    spot: str, stake: int, table: IconPaytable, hand_icons: int, community_icons: int
) -> WagerResult:
    tier = table.award(hand_icons, community_icons)
    if tier is None:
        return WagerResult(spot, stake, 0, "Lose")
    return WagerResult(spot, stake, pay(stake, tier.odds), tier.outcome, tier.odds)


def _check_cards(codes: tuple[int, ...], count: int, what: str) -> None:
    if len(codes) != count:
        raise RuleError(f"the {what} needs {count} cards, got {len(codes)}")
    for code in codes:
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < 52:
            raise RuleError(f"not a card code in the {what}: {code!r}")
    if len(set(codes)) != count:
        raise RuleError(f"the {what} repeats a card: {codes}")
