"""Exact per-seat math of a Turbo table: every seat's house edge and the covariance between
two seats' results, in both ways of dealing a table (docs/table-math.md).

* **table** mode — one deck per round: 3 community cards, then 6 cards to each seat (at most
  :data:`MAX_TABLE_SEATS`).  Two seats' 6-card hands are disjoint.
* **stadium** mode — the 3 community cards from one shuffle, then each seat completes its hand
  from *its own* shuffle of the 49 cards the community left: given the community, seats are
  independent.

A seat's result on an icon wager, the mandatory wager with the optimal raise, and the 9 Card
Bonus without straight-flush awards depends only on the card-class *compositions*
(:mod:`kiosk.kernel.games.icon_odds`) of the community and of the seat's 6 cards (the 9 Card Bonus
counts suit-S cards, the sum of the three suit-S classes).  So the exact joint law of two
seats is a sum over (community, seat 1, seat 2) compositions, each weighted by its number of
card sets: ``C(52,3) C(49,6) C(43,6)`` equally likely deals in table mode.  The same sum gives
the exact marginal of the *second* seat, which must equal the first seat's — the par sheet's —
as the exchangeability of a shuffled deck says it does.

A 9 Card Bonus table with straight-flush awards is not a function of compositions; its
covariance is left to the simulation (:mod:`kiosk.kernel.analysis.table_sim`) and shown as ``None``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm

from kiosk.kernel.analysis.turbo_par import rules_par_sheet
from kiosk.kernel.games import icon_odds, nine_card_bonus, turbo
from kiosk.kernel.games.icon_odds import Composition
from kiosk.kernel.games.turbo_edition import should_raise

#: A Turbo table dealt from one deck per round.
TABLE = turbo.TABLE_DEAL
#: Each seat completes its hand from its own shuffle of the cards the community left.
STADIUM = turbo.STADIUM_DEAL
MODES = turbo.DEAL_MODES
#: Seats one 52-card deck can serve: 3 community cards and 6 cards each.
MAX_TABLE_SEATS = turbo.MAX_TABLE_SEATS

#: A seat's net result per unit of the initial wager, from (community, seat) compositions.
NetFunction = Callable[[Composition, Composition], Fraction]

_COMMUNITY_SETS = comb(52, icon_odds.COMMUNITY_CARDS)
_SEAT_SETS = comb(52 - icon_odds.COMMUNITY_CARDS, icon_odds.SEAT_CARDS)
_SECOND_SEAT_SETS = comb(
    52 - icon_odds.COMMUNITY_CARDS - icon_odds.SEAT_CARDS, icon_odds.SEAT_CARDS
)


@dataclass(frozen=True)
class SeatPairLaw:
    """Exact moments of one wager at two seats of the same round (per unit initial wager)."""

    seat1_mean: Fraction
    seat2_mean: Fraction
    variance: Fraction  # of one seat's result
    covariance: Fraction  # between the two seats' results
    #: ``E[X1^2 X2^2]``: the second moment of the two seats' product
    product_second_moment: Fraction = Fraction(0)

    @property
    def correlation(self) -> Fraction:
        """Covariance over variance: both seats have the same variance."""
        return self.covariance / self.variance if self.variance else Fraction(0)

    @property
    def product_variance(self) -> Fraction:
        """``Var(X1 X2)``: the variance of one round's product of the two seats' results, whose
        mean a simulation observes to estimate the correlation (its exact standard error)."""
        product_mean = self.covariance + self.seat1_mean * self.seat2_mean
        return self.product_second_moment - product_mean * product_mean


def net_functions(rules: turbo.TurboRules) -> dict[str, NetFunction]:
    """Each wager's net per unit initial wager as a function of compositions; the 9 Card Bonus
    only when its table has no straight-flush award (else it is not a function of them)."""
    edition = rules.edition
    functions: dict[str, NetFunction] = {}
    for wager in edition.wagers:
        if wager.mandatory:
            functions[wager.id] = _mandatory_net(rules, wager.id)
        else:
            functions[wager.id] = _icon_net(rules, wager.id)
    bonus = rules.nine_card_bonus
    if bonus is not None and bonus.straight_flush_8 is None and bonus.straight_flush_9 is None:
        functions[nine_card_bonus.KIND] = _bonus_net(bonus)
    return functions


def _icon_net(rules: turbo.TurboRules, wager_id: str) -> NetFunction:
    table = rules.paytables[wager_id]

    def net(c: Composition, s: Composition) -> Fraction:
        community = icon_odds.icons_of(c)
        return table.net(community + icon_odds.icons_of(s), community)

    return net


def _mandatory_net(rules: turbo.TurboRules, wager_id: str) -> NetFunction:
    table = rules.paytables[wager_id]
    rule = rules.edition.raise_rule
    raising: dict[Composition, bool] = {}

    def net(c: Composition, s: Composition) -> Fraction:
        community = icon_odds.icons_of(c)
        hand = community + icon_odds.icons_of(s)
        result = table.net(hand, community)
        if c not in raising:
            raising[c] = should_raise(rule, c)
        if raising[c]:
            result += rule.paytable.net(hand, community)
        return result

    return net


def _bonus_net(bonus: nine_card_bonus.NineCardBonusTable) -> NetFunction:
    def net(c: Composition, s: Composition) -> Fraction:
        suited = sum(c[1:]) + sum(s[1:])
        award = bonus.award(suited, 0)
        return Fraction(-1) if award is None else Fraction(award[1])

    return net


def _rest(total: Composition, taken: Composition) -> Composition:
    return (total[0] - taken[0], total[1] - taken[1], total[2] - taken[2], total[3] - taken[3])


def seat_pair_law(net: NetFunction, mode: str) -> SeatPairLaw:
    """The exact moments of two seats of one round in ``mode`` (table or stadium).

    Nets are scaled to integers by the lcm of their denominators so the sums are exact
    integers; only the final divisions make fractions."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    cells: list[tuple[int, Composition, list[tuple[Composition, int, Fraction]]]] = []
    for c, c_ways in icon_odds.community_classes():
        rest = _rest(icon_odds.CLASS_SIZES, c)
        seats = [
            (s, icon_odds.ways(s, rest), net(c, s))
            for s in icon_odds.compositions(icon_odds.SEAT_CARDS, rest)
        ]
        cells.append((c_ways, rest, seats))
    scale = lcm(*(v.denominator for _, _, seats in cells for _, _, v in seats))

    def scaled(v: Fraction) -> int:
        return int(v * scale)

    first = second_moment = cross = cross_squares = second_seat = 0
    for c_ways, rest, seats in cells:
        given = {s: scaled(v) for s, _, v in seats}
        sum1 = sum(w * given[s] for s, w, _ in seats)
        sum2 = sum(w * given[s] ** 2 for s, w, _ in seats)
        first += c_ways * sum1
        second_moment += c_ways * sum2
        if mode == STADIUM:
            cross += c_ways * sum1 * sum1
            cross_squares += c_ways * sum2 * sum2
            continue
        for s1, w1, _ in seats:
            left = _rest(rest, s1)
            inner = inner_squares = 0
            for s2 in icon_odds.compositions(icon_odds.SEAT_CARDS, left):
                ways = icon_odds.ways(s2, left)
                inner += ways * given[s2]
                inner_squares += ways * given[s2] ** 2
            weight = c_ways * w1
            cross += weight * given[s1] * inner
            cross_squares += weight * given[s1] ** 2 * inner_squares
            second_seat += weight * inner
    deals = _COMMUNITY_SETS * _SEAT_SETS
    mean1 = Fraction(first, deals * scale)
    if mode == STADIUM:
        mean2 = mean1  # the same law, drawn again from the same 49 cards
        pairs = _COMMUNITY_SETS * _SEAT_SETS * _SEAT_SETS
    else:
        mean2 = Fraction(second_seat, deals * _SECOND_SEAT_SETS * scale)
        pairs = deals * _SECOND_SEAT_SETS
    both = Fraction(cross, pairs * scale**2)
    product_second = Fraction(cross_squares, pairs * scale**4)
    variance = Fraction(second_moment, deals * scale * scale) - mean1 * mean1
    return SeatPairLaw(mean1, mean2, variance, both - mean1 * mean2, product_second)


@dataclass(frozen=True)
class WagerTableMath:
    """One wager at a table of ``seats`` seats, one unit of initial wager at every seat."""

    wager_id: str
    label: str
    house_edge: Fraction  # per seat (the single-seat par sheet's)
    variance: Fraction  # of one seat's result
    covariance: Fraction | None  # between two seats; None when not computed exactly
    correlation: float | None  # exact value when covariance is known, else the estimate
    correlation_error: float | None  # standard error of a simulated correlation; None if exact
    method: str  # how the correlation was found

    def table_hold(self, seats: int) -> Fraction:
        """The table's expected hold per round: every seat's edge."""
        return seats * self.house_edge

    def table_variance(self, seats: int) -> Fraction | None:
        """Exact variance of the table's net per round: ``n var + n (n-1) cov``."""
        if self.covariance is None:
            return None
        return seats * self.variance + seats * (seats - 1) * self.covariance

    def table_std_dev(self, seats: int) -> float | None:
        """Standard deviation of the table's net per round, from the exact variance or else
        the estimated correlation: ``sqrt(n var (1 + (n-1) corr))``."""
        exact = self.table_variance(seats)
        if exact is not None:
            return math.sqrt(exact)
        if self.correlation is None:
            return None
        return math.sqrt(seats * float(self.variance) * (1 + (seats - 1) * self.correlation))


@dataclass(frozen=True)
class TableMath:
    """The per-seat math of one edition at a table."""

    edition: str
    title: str
    seats: int
    mode: str
    wagers: tuple[WagerTableMath, ...]
    note: str

    @property
    def hold_per_round(self) -> Fraction:
        """Expected hold of the table per round, one unit on every wager at every seat."""
        return sum((w.table_hold(self.seats) for w in self.wagers), Fraction(0))

    def to_json_dict(self) -> dict[str, object]:
        """The ``table`` part of ``par-sheet --seats N --format json``."""
        return {
            "seats": self.seats,
            "mode": self.mode,
            "note": self.note,
            "hold_per_round": _fraction(self.hold_per_round),
            "wagers": {
                w.wager_id: {
                    "house_edge_per_seat": _fraction(w.house_edge),
                    "variance_per_seat": _fraction(w.variance),
                    "covariance_between_seats": (
                        None if w.covariance is None else _fraction(w.covariance)
                    ),
                    "correlation_between_seats": w.correlation,
                    "correlation_std_error": w.correlation_error,
                    "correlation_method": w.method,
                    "table_hold_per_round": _fraction(w.table_hold(self.seats)),
                    "table_std_dev_per_round": w.table_std_dev(self.seats),
                }
                for w in self.wagers
            },
        }

    def to_text(self) -> str:
        """The table section of the text par sheet."""
        out = [
            "",
            f"Table of {self.seats} seat(s), {self.mode} mode"
            " (one unit on every wager at every seat)",
            "-" * 72,
            self.note,
            f"  {'wager':<18} {'edge/seat':>10} {'hold/round':>11} {'sd/round':>10}"
            f" {'corr(2 seats)':>14}  method",
        ]
        for w in self.wagers:
            sd = w.table_std_dev(self.seats)
            corr = "n/a" if w.correlation is None else f"{w.correlation:+.6f}"
            if w.correlation_error is not None:
                corr += f" ±{w.correlation_error:.4f}"
            out.append(
                f"  {w.wager_id:<18} {float(w.house_edge):>10.4%}"
                f" {float(w.table_hold(self.seats)):>11.4f}"
                f" {'n/a' if sd is None else f'{sd:.4f}':>10} {corr:>14}  {w.method}"
            )
        out.append(f"  table hold per round (units): {float(self.hold_per_round):.6f}")
        return "\n".join(out)


def _fraction(value: Fraction) -> dict[str, object]:
    return {"exact": f"{value.numerator}/{value.denominator}", "float": float(value)}


def turbo_table_math(rules: turbo.TurboRules, seats: int, mode: str) -> TableMath:
    """The exact per-seat math of Turbo ``rules`` at ``seats`` seats in ``mode``.

    Every seat's edge is the par sheet's; the second seat's exact mean is computed too and
    must equal it (:class:`AssertionError` otherwise: a wrong count would show here)."""
    check_turbo_seats(seats, mode)
    sheet = rules_par_sheet(rules)
    functions = net_functions(rules)
    rows = []
    for wager_id, par in sheet.wagers.items():
        net = functions.get(wager_id)
        if net is None:
            rows.append(
                WagerTableMath(
                    wager_id,
                    par.label,
                    par.house_edge,
                    par.variance,
                    None,
                    None,
                    None,
                    "not a function of icon classes (straight flush): see turbokiosk simulate",
                )
            )
            continue
        law = seat_pair_law(net, mode)
        if (-law.seat1_mean, law.variance) != (par.house_edge, par.variance) or (
            law.seat2_mean != law.seat1_mean
        ):
            raise AssertionError(f"{wager_id}: a seat's exact law differs from the par sheet")
        rows.append(
            WagerTableMath(
                wager_id,
                par.label,
                par.house_edge,
                law.variance,
                law.covariance,
                float(law.correlation),
                None,
                "exact",
            )
        )
    note = (
        "one deck: 3 community cards, then 6 cards to each seat (disjoint hands)"
        if mode == TABLE
        else "each seat completes its hand from its own shuffle of the 49 cards left"
    )
    return TableMath(rules.edition.id, rules.edition.title, seats, mode, tuple(rows), note)


def check_turbo_seats(seats: int, mode: str) -> None:
    """:class:`ValueError` for a seat count ``mode`` cannot deal."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if seats < 1:
        raise ValueError(f"seats must be at least 1, got {seats}")
    if mode == TABLE and seats > MAX_TABLE_SEATS:
        raise ValueError(
            f"one deck deals at most {MAX_TABLE_SEATS} Turbo seats (3 + 6 per seat), got {seats};"
            " use --mode stadium"
        )


def exact_covariances(rules: turbo.TurboRules, mode: str) -> Mapping[str, Fraction]:
    """Wager id -> exact covariance between two seats' results (the wagers it is known for)."""
    return {w: law.covariance for w, law in seat_pair_laws(rules, mode).items()}


def seat_pair_laws(rules: turbo.TurboRules, mode: str) -> Mapping[str, SeatPairLaw]:
    """Wager id -> the exact law of two seats (the wagers it is known for)."""
    return {w: seat_pair_law(net, mode) for w, net in net_functions(rules).items()}
