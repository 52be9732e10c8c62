"""Exact par sheets of the Turbo Icon editions.

Everything is counted, nothing sampled:

* icon wagers — over every deal of 3 community cards and the seat's 6 cards
  (``C(52,3) * C(49,6)`` equally likely deals), grouped by card-class compositions
  (:mod:`kiosk.kernel.games.icon_odds`); a wager that looks only at the 9 cards is reported over the
  ``C(52,9)`` 9-card hands;
* the mandatory wager — with the optimal raise: for each of the 20 community compositions the
  raise's exact conditional EV decides, and the figures are per unit of the initial wager
  (house edge) and per unit of the average total wagered (element of risk);
* the 9 Card Bonus — over the ``C(52,9)`` hands by number of suit-S cards, the suit-S rank sets
  of 8 and 9 cards enumerated for straight flushes (:mod:`kiosk.kernel.games.nine_card_bonus`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction

from kiosk.kernel.analysis.model import OutcomeLine, ParSheet, WagerPar
from kiosk.kernel.games import icon_odds, nine_card_bonus, turbo
from kiosk.kernel.games.nine_card_bonus import NineCardBonusTable
from kiosk.kernel.games.turbo_edition import Edition, IconPaytable, IconWager, should_raise

#: Equally likely deals of (community, seat cards): C(52,3) * C(49,6).
ALL_DEALS = 22100 * 13983816
#: Community/seat splits of one 9-card hand: C(9,3).
SPLITS_PER_HAND = 84


def par_sheet(edition_id: str, paytables: Mapping[str, str] | None = None) -> ParSheet:
    """The exact par sheet of a Turbo edition with the chosen pay tables."""
    return rules_par_sheet(turbo.load(edition_id, paytables))


def rules_par_sheet(rules: turbo.TurboRules) -> ParSheet:
    """The exact par sheet of configured rules."""
    edition = rules.edition
    wagers: dict[str, WagerPar] = {}
    for wager in edition.wagers:
        table = rules.paytables[wager.id]
        if wager.mandatory:
            wagers[wager.id] = mandatory_wager_par(edition, wager, table)
        else:
            wagers[wager.id] = icon_wager_par(wager, table)
    if rules.nine_card_bonus is not None:
        wagers[nine_card_bonus.KIND] = nine_card_bonus_par(
            rules.nine_card_bonus, edition.nine_card_bonus_label, edition.suit_name
        )
    return ParSheet(edition.id, edition.title, wagers)


def icon_wager_par(wager: IconWager, table: IconPaytable) -> WagerPar:
    """An optional icon wager: one line per tier and the loss."""
    if all(tier.scope == "hand" for tier in table.tiers):
        cells = ((icons, icons, count) for icons, count in icon_odds.hand_icon_counts().items())
        lines = _lines(cells, lambda h, c: _tier_key(table, h, c), total_unit="hand")
    else:
        lines = _lines(_deal_cells(), lambda h, c: _tier_key(table, h, c), total_unit="deal")
    return _wager_par(wager.id, wager.label, table.name, lines, extra_wagered=Fraction(0))


def mandatory_wager_par(edition: Edition, wager: IconWager, table: IconPaytable) -> WagerPar:
    """The mandatory wager with the optimal raise, per unit of the initial wager."""
    rule = edition.raise_rule
    raise_label = rule.label
    counts: dict[tuple[str, Fraction], int] = {}
    raised_deals = 0
    decisions: dict[int, set[str]] = {}
    for community, count in icon_odds.community_classes():
        community_icons = icon_odds.icons_of(community)
        offered = rule.offered(community_icons)
        raising = should_raise(rule, community)
        state = "raise" if raising else ("no_raise" if offered else "not_offered")
        decisions.setdefault(community_icons, set()).add(state)
        for seat_icons, seat_count in icon_odds.seat_icon_counts(community).items():
            hand_icons = community_icons + seat_icons
            tier = table.award(hand_icons, community_icons)
            net = table.net(hand_icons, community_icons)
            outcome = tier.outcome if tier else "Lose"
            if raising:
                raise_tier = rule.paytable.award(hand_icons, community_icons)
                net += rule.paytable.net(hand_icons, community_icons)
                raise_outcome = raise_tier.outcome if raise_tier else "Lose"
                label = f"{outcome} (with {raise_label}" + (
                    ")" if raise_outcome == outcome else f": {raise_outcome})"
                )
                raised_deals += count * seat_count
            elif offered:
                label = f"{outcome} (no {raise_label})"
            else:
                label = f"{outcome} ({raise_label} not offered)"
            key = (label, net)
            counts[key] = counts.get(key, 0) + count * seat_count
    lines = _outcome_lines(counts, ALL_DEALS)
    raise_frequency = Fraction(raised_deals, ALL_DEALS)
    rule_by_icons = {
        f"{icons} {edition.icons if icons != 1 else edition.icon}": _decision_text(
            states, raise_label
        )
        for icons, states in sorted(decisions.items())
    }
    strategy = _strategy_text(decisions, raise_label, edition.icons)
    return _wager_par(
        wager.id,
        wager.label,
        table.name,
        lines,
        extra_wagered=raise_frequency,
        strategy=strategy,
        extra={"raise_frequency": raise_frequency, "raise_rule": rule_by_icons},
    )


def nine_card_bonus_par(table: NineCardBonusTable, label: str, suit_name: str) -> WagerPar:
    """The 9 Card Bonus under one table, with the house edge of every table on offer."""
    lines = tuple(
        OutcomeLine(
            outcome.replace("suited cards", suit_name),
            Fraction(odds),
            Fraction(count, nine_card_bonus.ALL_HANDS),
            count,
        )
        for outcome, odds, count in table.outcomes()
    )
    library = {
        name: nine_card_bonus.load_table(name).house_edge() for name in nine_card_bonus.available()
    }
    return _wager_par(
        nine_card_bonus.KIND,
        label,
        table.name,
        lines,
        extra_wagered=Fraction(0),
        extra={"pays": table.describe_pays(), "house_edge_by_paytable": library},
    )


def _deal_cells() -> Iterable[tuple[int, int, int]]:
    """``(hand icons, community icons, deals)`` over every (community, seat cards) deal."""
    for community, count in icon_odds.community_classes():
        community_icons = icon_odds.icons_of(community)
        for seat_icons, seat_count in icon_odds.seat_icon_counts(community).items():
            yield community_icons + seat_icons, community_icons, count * seat_count


def _tier_key(table: IconPaytable, hand_icons: int, community_icons: int) -> tuple[str, Fraction]:
    tier = table.award(hand_icons, community_icons)
    return (tier.outcome, tier.odds) if tier else ("Lose", Fraction(-1))


def _lines(
    cells: Iterable[tuple[int, int, int]],
    key: Callable[[int, int], tuple[str, Fraction]],
    total_unit: str,
) -> tuple[OutcomeLine, ...]:
    counts: dict[tuple[str, Fraction], int] = {}
    for hand_icons, community_icons, n in cells:
        k = key(hand_icons, community_icons)
        counts[k] = counts.get(k, 0) + n
    return _outcome_lines(counts, nine_card_bonus.ALL_HANDS if total_unit == "hand" else ALL_DEALS)


def _outcome_lines(
    counts: Mapping[tuple[str, Fraction], int], total: int
) -> tuple[OutcomeLine, ...]:
    """Outcome lines from ``(outcome, net) -> count``, best pay first."""
    return tuple(
        OutcomeLine(outcome, net, Fraction(n, total), n)
        for (outcome, net), n in sorted(counts.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
    )


def _wager_par(
    wager_id: str,
    label: str,
    paytable: str,
    lines: tuple[OutcomeLine, ...],
    extra_wagered: Fraction,
    strategy: str = "",
    extra: Mapping[str, object] | None = None,
) -> WagerPar:
    mean = sum((line.pays * line.probability for line in lines), Fraction(0))
    second = sum((line.pays**2 * line.probability for line in lines), Fraction(0))
    house_edge = -mean
    return WagerPar(
        wager_id=wager_id,
        label=label,
        paytable=paytable,
        outcomes=lines,
        house_edge=house_edge,
        element_of_risk=house_edge / (1 + extra_wagered),
        hit_frequency=sum((line.probability for line in lines if line.pays > 0), Fraction(0)),
        variance=second - mean**2,
        strategy=strategy,
        extra=dict(extra or {}),
    )


def _decision_text(states: set[str], raise_label: str) -> str:
    words = {"raise": raise_label, "no_raise": f"no {raise_label}", "not_offered": "not offered"}
    return " / ".join(words[s] for s in sorted(states))


def _strategy_text(decisions: Mapping[int, set[str]], raise_label: str, icons: str) -> str:
    """The optimal raise rule in words, e.g. "Double with 3-5 footballs in the community"."""
    raise_at = [i for i, states in decisions.items() if states == {"raise"}]
    mixed = [i for i, states in decisions.items() if len(states) > 1]
    if mixed:
        return (
            f"{raise_label} exactly when its conditional EV given the community composition is "
            f"positive; the decision depends on more than the icon count at {mixed} {icons}"
        )
    if not raise_at:
        return f"never {raise_label} (the {raise_label} never has a positive EV)"
    return (
        f"{raise_label} exactly when the 3 community cards hold {_ranges(raise_at)} {icons} "
        f"(the {raise_label}'s exact conditional EV is positive just then)"
    )


def _ranges(values: list[int]) -> str:
    values = sorted(values)
    parts: list[str] = []
    start = prev = values[0]
    for v in values[1:]:
        if v != prev + 1:
            parts.append(f"{start}-{prev}" if start != prev else str(start))
            start = v
        prev = v
    parts.append(f"{start}-{prev}" if start != prev else str(start))
    return ", ".join(parts)
