"""Lookup tables and array deals for the vectorised simulator
(:mod:`kiosk.kernel.analysis.fast_sim`).

Every table is filled by calling the certified code once per entry: the icon scorer
(:func:`kiosk.kernel.scoring.score_turbo`, :func:`kiosk.kernel.scoring.count_icons`), the pay
tables' ``award`` / ``odds`` and :func:`kiosk.kernel.games.base.pay`, the raise advice
(:meth:`kiosk.kernel.games.turbo.TurboRules.offer` and
:func:`kiosk.kernel.games.turbo.optimal_raise`) and the poker values
(:func:`kiosk.kernel.games.poker3.value3`, ``unsuited_category``, ``suited_category``).  A round is
then settled by array look-ups, and a test compares that with the game's own ``settle`` round by
round (tests/analysis/test_fast_sim.py).

Nets are integers in units of ``1 / scale`` of a stake, ``scale`` the least common multiple
of every odds' denominator, so no pay is rounded.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import permutations
from math import lcm

import numpy as np
import numpy.typing as npt

from kiosk.kernel import scoring
from kiosk.kernel.games import icon_odds, poker3, stadium, turbo
from kiosk.kernel.games.base import SeatBet, pay

Ints = npt.NDArray[np.int64]
#: Cards in a deck.
DECK = 52
#: Ranks of a deck, and the base of the sorted-ranks index of 6 cards.
RANKS = 13
_SUITED_HAND = 5


def partial_shuffle(
    gen: np.random.Generator, deck: npt.NDArray[np.int8], start: int, stop: int
) -> None:
    """Fisher-Yates steps ``start..stop-1`` on every row of ``deck`` (rows x cards) in place:
    afterwards positions ``start..stop-1`` of a row are a uniform random draw, in order,
    from the cards that were at ``start..`` (the rest of the row keeps the undealt cards)."""
    n, size = deck.shape
    flat = deck.reshape(-1)
    base = np.arange(n, dtype=np.int64) * size
    for i in range(start, stop):
        j = base + gen.integers(i, size, size=n)
        here = base + i
        kept = flat[here]
        flat[here] = flat[j]
        flat[j] = kept


def new_decks(n: int, size: int = DECK) -> npt.NDArray[np.int8]:
    """``n`` fresh decks of ``size`` cards in order (one a row)."""
    return np.tile(np.arange(size, dtype=np.int8), (n, 1))


def _scale(odds: list[Fraction]) -> int:
    return lcm(1, *(o.denominator for o in odds))


def _net(scale: int, odds: Fraction | None) -> int:
    """Net of a stake of ``scale`` paid at ``odds`` (None: lost), via the game's ``pay``."""
    return -scale if odds is None else pay(scale, odds) - scale


@dataclass(frozen=True)
class TurboTables:
    """One configured Turbo edition as look-up tables (picklable, for worker processes)."""

    wagers: tuple[str, ...]  # the par sheet's wager ids, in the rules' spot order
    scale: int
    icons: Ints  # [card] icons of the card for the edition's suit
    rank_bit: Ints  # [card] 1 << rank for a card of the suit, else 0
    digit: Ints  # [card] 4 ** class (0 other suits, 1: 2-5, 2: 6-10, 3: J-A)
    raising: npt.NDArray[np.bool_]  # [sum of the community's digits] the optimal raise
    nets: Ints  # [wager, hand icons * 13 + community icons] net without a raise
    main: int  # the mandatory wager's row
    raised: Ints  # [hand icons * 13 + community icons] its net with the raise taken
    bonus: Ints | None  # [rank mask of suit S] the 9 Card Bonus net (None: not offered)

    def settle(self, community: npt.NDArray[np.int8], seat: npt.NDArray[np.int8]) -> Ints:
        """Nets ``[wager, round]`` of one seat's 6 cards beside the round's 3 community cards."""
        c = community.astype(np.intp)
        s = seat.astype(np.intp)
        icons = self.icons
        community_icons = icons[c].sum(axis=1)
        hand_icons = community_icons + icons[s].sum(axis=1)
        raising = self.raising[self.digit[c].sum(axis=1)]
        cell = hand_icons * (icon_odds.MAX_COMMUNITY_ICONS + 1) + community_icons
        rows = [self.nets[w][cell] for w in range(self.nets.shape[0])]
        rows[self.main] = np.where(raising, self.raised[cell], rows[self.main])
        if self.bonus is not None:
            bits = self.rank_bit
            mask = np.bitwise_or.reduce(bits[c], axis=1) | np.bitwise_or.reduce(bits[s], axis=1)
            rows.append(self.bonus[mask])
        return np.stack(rows)


def turbo_tables(rules: turbo.TurboRules) -> TurboTables:
    """The look-up tables of ``rules``."""
    edition = rules.edition
    suit = rules.suit
    odds = [t.odds for table in rules.paytables.values() for t in table.tiers]
    odds += [t.odds for t in edition.raise_rule.paytable.tiers]
    if rules.nine_card_bonus is not None:
        b = rules.nine_card_bonus
        odds += [Fraction(p) for p in (*b.pays, b.straight_flush_8 or 0, b.straight_flush_9 or 0)]
    scale = _scale(odds)
    icons = np.array([scoring.count_icons([code], suit) for code in range(DECK)], dtype=np.int64)
    rank_bit = np.array(
        [1 << (code >> 2) if code & 3 == suit else 0 for code in range(DECK)], dtype=np.int64
    )
    classes = (0, 1, 2, 0, 3)  # by icons on the card
    digit = np.array([4 ** classes[int(icons[code])] for code in range(DECK)], dtype=np.int64)
    # the optimal raise of every community, through the game's own offer and advice
    bet = SeatBet({spot.id: 1 for spot in rules.spots})
    raising = np.zeros(4**4, dtype=np.bool_)
    representative = _class_cards(suit)
    for composition in icon_odds.compositions(turbo.COMMUNITY_CARDS):
        community = tuple(
            card for cls, k in enumerate(composition) for card in representative[cls][:k]
        )
        key = sum(int(digit[card]) for card in community)
        if rules.offer(bet, community) is not None:
            raising[key] = turbo.optimal_raise(rules, community).raise_
    width = icon_odds.MAX_COMMUNITY_ICONS + 1
    cells = (icon_odds.MAX_HAND_ICONS + 1) * width
    wagers = [w.id for w in edition.wagers]
    nets = np.zeros((len(wagers), cells), dtype=np.int64)
    raised = np.zeros(cells, dtype=np.int64)
    raise_table = edition.raise_rule.paytable
    main = edition.main.id
    for hand in range(icon_odds.MAX_HAND_ICONS + 1):
        for community_icons in range(width):
            cell = hand * width + community_icons
            for w, wager_id in enumerate(wagers):
                tier = rules.paytables[wager_id].award(hand, community_icons)
                nets[w, cell] = _net(scale, None if tier is None else tier.odds)
            tier = raise_table.award(hand, community_icons)
            raised[cell] = nets[wagers.index(main), cell] + _net(
                scale, None if tier is None else tier.odds
            )
    bonus = None
    if rules.nine_card_bonus is not None:
        table = rules.nine_card_bonus
        bonus = np.zeros(1 << RANKS, dtype=np.int64)
        for mask in range(1 << RANKS):
            if mask.bit_count() > turbo.COMMUNITY_CARDS + turbo.SEAT_CARDS:
                continue  # more suit-S cards than a hand holds
            cards = [rank * 4 + suit for rank in range(RANKS) if mask >> rank & 1]
            _icons, suited, run = scoring.score_turbo(cards, suit)
            award = table.award(suited, run)
            bonus[mask] = _net(scale, None if award is None else Fraction(award[1]))
        wagers.append("nine_card_bonus")
    return TurboTables(
        tuple(wagers),
        scale,
        icons,
        rank_bit,
        digit,
        raising,
        nets,
        wagers.index(main),
        raised,
        bonus,
    )


def _class_cards(suit: int) -> tuple[list[int], ...]:
    """Cards of each icon class (other suits, 2-5, 6-10, J-A of the suit)."""
    out: tuple[list[int], ...] = ([], [], [], [])
    for code in range(DECK):
        if code & 3 != suit:
            out[0].append(code)
        else:
            out[(0, 1, 2, 0, 3)[icon_odds.ICONS_BY_RANK[code >> 2]]].append(code)
    return out


@cache
def value3_table() -> Ints:
    """``[a * 2704 + b * 52 + c]`` -> :func:`kiosk.kernel.games.poker3.value3` of 3 distinct
    cards."""
    table = np.full(DECK**3, -1, dtype=np.int64)
    for a, b, c in permutations(range(DECK), 3):
        table[(a * DECK + b) * DECK + c] = poker3.value3((a, b, c))
    return table


@cache
def unsuited_table() -> npt.NDArray[np.int8]:
    """``[sorted ranks of 6 cards, base 13]`` -> ``poker3.unsuited_category``."""
    table = np.zeros(RANKS**6, dtype=np.int8)

    def fill(start: int, left: int, ranks: list[int]) -> None:
        if left == 0:
            counts = [ranks.count(r) for r in range(RANKS)]
            if max(counts) <= 4:
                index = 0
                for r in reversed(ranks):
                    index = index * RANKS + r
                table[index] = poker3.unsuited_category(counts)
            return
        for r in range(start, RANKS):
            fill(r, left - 1, [*ranks, r])

    fill(0, 6, [])
    return table


@cache
def suited_table() -> npt.NDArray[np.int8]:
    """``[rank mask of one suit]`` -> ``poker3.suited_category`` when it holds 5 or more
    cards, else 0 (no flush)."""
    table = np.zeros(1 << RANKS, dtype=np.int8)
    for mask in range(1 << RANKS):
        if mask.bit_count() >= _SUITED_HAND:
            table[mask] = poker3.suited_category(mask)
    return table


#: Multisets of 3 ranks (of 13).
RANK_SETS = 455


@cache
def rank_set_tables() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """``[a * 2704 + b * 52 + c]`` -> the id (0..454) of the ranks of 3 cards, and
    ``[id of 3 cards * 455 + id of 3 others]`` -> ``poker3.unsuited_category`` of the 6
    (via :func:`unsuited_table`): two look-ups instead of sorting 6 ranks."""
    code = np.arange(DECK**3, dtype=np.int64)
    ranks = np.sort(np.stack((code // DECK**2, code // DECK % DECK, code % DECK), axis=1) >> 2)
    keys = (ranks[:, 2] * RANKS + ranks[:, 1]) * RANKS + ranks[:, 0]
    sets, ids = np.unique(keys, return_inverse=True)
    digits = np.stack((sets % RANKS, sets // RANKS % RANKS, sets // RANKS**2), axis=1)
    six = np.sort(
        np.concatenate(
            (np.repeat(digits, len(sets), axis=0), np.tile(digits, (len(sets), 1))), axis=1
        )
    )
    index = np.zeros(len(six), dtype=np.int64)
    for k in range(5, -1, -1):
        index = index * RANKS + six[:, k]
    return ids.astype(np.int16), unsuited_table()[index]


#: ``[card]`` -> its bit in four 13-bit suit masks (bit ``rank + 13 * suit``).
SUIT_BITS: Ints = np.array([1 << ((c >> 2) + RANKS * (c & 3)) for c in range(DECK)], np.int64)


@dataclass(frozen=True)
class StadiumTables:
    """Stadium Three Card Poker's pay tables as nets by category (picklable)."""

    scale: int
    value3: Ints
    unsuited: npt.NDArray[np.int8]
    suited: npt.NDArray[np.int8]
    ante_bonus: Ints  # [3-card category] net of the ante bonus
    pairs_plus: Ints  # [3-card category]
    six_card_bonus: Ints  # [5-card category]
    rank_sets: npt.NDArray[np.int16]  # [value3 index] rank-set id of 3 cards
    unsuited_pairs: npt.NDArray[np.int8]  # [id * 455 + id] unsuited category of the 6 cards

    wagers: tuple[str, ...] = ("ante_play", "pairs_plus", "six_card_bonus")
    #: The blind row and column wagers (spot ids), the rows of :meth:`settle_lines`.
    blind: tuple[str, ...] = tuple(
        f"{wager}_{line}" for wager in ("pairs_plus", "six_card_bonus") for line in stadium.LINES
    )

    def settle_lines(self, array: npt.NDArray[np.int8], dealer: npt.NDArray[np.int8]) -> Ints:
        """Nets ``[blind wager, round]`` of the 12 blind wagers: Pairs Plus on the three cards
        of each row and column of the 9-card array, the 6-Card Bonus on them with the
        dealer's 3 (the same for every seat of the round)."""
        a = array.astype(np.intp)
        dealer_key = self.three_key(dealer.astype(np.intp))
        pairs_plus, six = [], []
        for cells in stadium.LINES.values():
            line = a[:, list(cells)]
            code = (line[:, 0] * DECK + line[:, 1]) * DECK + line[:, 2]
            pairs_plus.append(self.pairs_plus[self.value3[code] >> 12])
            six.append(self.six_card_bonus[self.six_category(line, code, dealer_key)])
        return np.stack(pairs_plus + six)

    def three_key(self, cards: npt.NDArray[np.intp]) -> tuple[Ints, Ints]:
        """The rank-set id of each row of 3 cards (times 455) and its suit bits."""
        code = (cards[:, 0] * DECK + cards[:, 1]) * DECK + cards[:, 2]
        bits = SUIT_BITS[cards].sum(axis=1)
        return self.rank_sets[code].astype(np.int64) * RANK_SETS, bits

    def six_category(
        self, cards: npt.NDArray[np.intp], code: npt.NDArray[np.intp], other: tuple[Ints, Ints]
    ) -> npt.NDArray[np.int8]:
        """``poker3.best_five_category`` of 3 cards (``code``: their value3 index) with 3
        others (:meth:`three_key`): rank sets and suit masks by look-up, no sort."""
        other_sets, other_bits = other
        best: npt.NDArray[np.int8] = self.unsuited_pairs[other_sets + self.rank_sets[code]]
        bits = SUIT_BITS[cards].sum(axis=1) + other_bits
        for s in range(4):
            best = np.maximum(best, self.suited[bits >> (RANKS * s) & (1 << RANKS) - 1])
        return best

    def settle(self, hand: npt.NDArray[np.int8], dealer: npt.NDArray[np.int8]) -> Ints:
        """Nets ``[wager, round]`` of a seat's 3 cards against the dealer's 3 (Q-6-4)."""
        h = hand.astype(np.intp)
        d = dealer.astype(np.intp)
        player = self.value3[(h[:, 0] * DECK + h[:, 1]) * DECK + h[:, 2]]
        dealer_value = self.value3[(d[:, 0] * DECK + d[:, 1]) * DECK + d[:, 2]]
        category = player >> 12
        scale = self.scale
        showdown = np.where(
            dealer_value >= poker3.DEALER_QUALIFIER, 2 * np.sign(player - dealer_value), 1
        )
        ante_play = np.where(
            player >= poker3.Q64, showdown * scale + self.ante_bonus[category], -scale
        )
        pairs_plus = self.pairs_plus[category]
        code = (h[:, 0] * DECK + h[:, 1]) * DECK + h[:, 2]
        six = self.six_category(h, code, self.three_key(d))
        return np.stack((ante_play, pairs_plus, self.six_card_bonus[six]))

    def best_five(self, cards: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
        """``poker3.best_five_category`` of every row of 6 cards."""
        ranks = np.sort(cards >> 2, axis=1)
        index = np.zeros(len(cards), dtype=np.int64)
        for k in range(cards.shape[1] - 1, -1, -1):
            index = index * RANKS + ranks[:, k]
        best = self.unsuited[index]
        bits = np.left_shift(1, cards >> 2)
        suits = cards & 3
        for s in range(4):
            mask = np.where(suits == s, bits, 0).sum(axis=1)
            best = np.maximum(best, self.suited[mask])
        return best


def stadium_tables(rules: stadium.StadiumRules) -> StadiumTables:
    """The look-up tables of ``rules``."""
    tables = (rules.ante_bonus, rules.pairs_plus, rules.six_card_bonus)
    scale = _scale([o for t in tables for o in t.pays.values()])
    bonus = [rules.ante_bonus.odds(c) for c in range(6)]
    return StadiumTables(
        scale,
        value3_table(),
        unsuited_table(),
        suited_table(),
        np.array([pay(scale, o) - scale if o else 0 for o in bonus], dtype=np.int64),
        np.array([_net(scale, rules.pairs_plus.odds(c) or None) for c in range(6)], np.int64),
        np.array([_net(scale, rules.six_card_bonus.odds(c) or None) for c in range(10)], np.int64),
        *rank_set_tables(),
    )
