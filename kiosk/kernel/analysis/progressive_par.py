"""The exact math of a progressive on a side wager (``turbokiosk par-sheet --progressive``).

Per unit of the qualifying wager ``B`` (:attr:`ProgressiveSettings.qualify_cents`), with ``p``
the probability of the winning outcome and ``R`` the expected net of every other outcome of the
wager's pay table (its own line, the fixed pay the meter replaces, left out)::

    return(M)          = 1 + R + p * M / B          the return to player with the meter at M
    return at reset    = return(reset)
    break-even meter   = -R * B / p                 return(M) = 100%
    contribution return = rate                      what the visible increment gives back
    long-run return    = return(reset) + rate       every visible micro-cent is paid in time
    reset cost         = p * reset / B              what the hidden increment must cover

All exact :class:`~fractions.Fraction`; meters in cents.  The long-run return counts the overflow
meter as paid (``carry`` moves it onto the next jackpot); with ``overflow = "hidden"`` the
visible increment above the ceiling funds resets instead, so the long-run return is at most the
figure shown.  :func:`simulate_meter` plays the meter through real hands (:func:`six_card_hands`
deals 6-Card Bonus hands) and the meter pool of :mod:`kiosk.kernel.games.progressive` to confirm
it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from kiosk.kernel.analysis.model import ParSheet, WagerPar
from kiosk.kernel.games import poker3
from kiosk.kernel.games.base import RuleError
from kiosk.kernel.games.progressive import MICRO, ProgressivePool, ProgressiveSettings
from kiosk.kernel.games.stadium_paytables import StadiumPaytable

PPM = Fraction(1, MICRO)


@dataclass(frozen=True)
class ProgressivePar:
    """Exact figures of one progressive on one wager's pay table."""

    name: str
    outcome: str
    probability: Fraction  # of the winning outcome, per wager
    qualify_cents: int
    other_net: Fraction  # R: the expected net of every other outcome, per unit wager
    reset_cents: int
    rate: Fraction  # visible increment per unit wager
    hidden_rate: Fraction

    def return_at(self, meter_cents: Fraction | int) -> Fraction:
        """The return to player (stake included) with the meter at ``meter_cents``."""
        return 1 + self.other_net + self.probability * Fraction(meter_cents) / self.qualify_cents

    @property
    def return_at_reset(self) -> Fraction:
        """The return with the meter at its reset value."""
        return self.return_at(self.reset_cents)

    @property
    def break_even_meter(self) -> Fraction:
        """The meter (cents) at which the wager returns 100%."""
        return -self.other_net * self.qualify_cents / self.probability

    @property
    def long_run_return(self) -> Fraction:
        """Return at reset plus the visible increment's return."""
        return self.return_at_reset + self.rate

    @property
    def reset_cost(self) -> Fraction:
        """Per unit wager, what funding every reset costs (the hidden rate that covers it)."""
        return self.probability * self.reset_cents / self.qualify_cents

    def figures(self) -> dict[str, Any]:
        """The par sheet's ``progressive`` entry."""
        return {
            "name": self.name,
            "outcome": self.outcome,
            "probability": self.probability,
            "qualifying_wager_cents": self.qualify_cents,
            "reset_cents": self.reset_cents,
            "return_at_reset": self.return_at_reset,
            "break_even_meter_cents": f"{float(self.break_even_meter):.2f}",
            "contribution_return": self.rate,
            "hidden_rate": self.hidden_rate,
            "reset_cost": self.reset_cost,
            "long_run_return": self.long_run_return,
        }


def progressive_par(wager: WagerPar, settings: ProgressiveSettings) -> ProgressivePar:
    """The progressive's figures on ``wager`` (whose outcome lines name its outcome)."""
    lines = [line for line in wager.outcomes if line.outcome == settings.outcome]
    if len(lines) != 1:
        known = ", ".join(line.outcome for line in wager.outcomes)
        raise RuleError(
            f"progressive {settings.name}: the {wager.wager_id} pay table has no outcome "
            f"{settings.outcome!r} (outcomes: {known})"
        )
    hit = lines[0]
    other = sum(
        (line.pays * line.probability for line in wager.outcomes if line is not hit), Fraction(0)
    )
    m = settings.meter
    return ProgressivePar(
        settings.name,
        settings.outcome,
        hit.probability,
        settings.qualify_cents,
        other,
        m.reset_cents,
        m.rate_ppm * PPM,
        m.hidden_ppm * PPM,
    )


def with_progressive(sheet: ParSheet, settings: ProgressiveSettings) -> ParSheet:
    """``sheet`` with the progressive's figures on the wager it rides on."""
    wager = sheet.wagers.get(settings.wager)
    if wager is None:
        raise RuleError(
            f"progressive {settings.name} rides on {settings.wager!r}, which {sheet.edition} "
            f"does not offer (wagers: {', '.join(sheet.wagers)})"
        )
    par = progressive_par(wager, settings)
    extra = {**wager.extra, "progressive": par.figures()}
    return replace(sheet, wagers={**sheet.wagers, settings.wager: replace(wager, extra=extra)})


@dataclass(frozen=True)
class MeterSimulation:
    """A run of the meter through random hands: the observed long-run return and its error."""

    wagers: int
    hits: int
    observed: Fraction  # (pays + awards + the meter's growth) / wagered, stake included
    std_error: float  # batch means
    exact: Fraction

    @property
    def z(self) -> float:
        """Standard errors between the observation and the exact figure."""
        return abs(float(self.observed - self.exact)) / self.std_error if self.std_error else 0.0


def simulate_meter(
    settings: ProgressiveSettings,
    par: ProgressivePar,
    outcome_of: Callable[[random.Random], tuple[str, Fraction]],
    wagers: int,
    *,
    seed: int,
    batches: int = 50,
) -> MeterSimulation:
    """Bet ``qualify_cents`` ``wagers`` times through a :class:`ProgressivePool`; each hand's
    outcome (name, fixed net odds) comes from ``outcome_of``.  The return counts the stakes
    back, the fixed pays, the awards paid and what the meter and overflow meter hold above
    their start (the players' money, not yet won)."""
    if wagers < batches * 2:
        raise ValueError("need at least two wagers a batch")
    rng = random.Random(seed)
    pool = ProgressivePool(settings)
    bet = settings.qualify_cents
    start = pool.state
    returned = 0  # micro-cents back to the players (stakes included)
    per_batch = wagers // batches
    batch_returns: list[float] = []
    batch_start = 0
    for n in range(per_batch * batches):
        key = f"sim/{n}/0/{settings.wager}"
        pool.apply(pool.contribute(key, bet))
        name, odds = outcome_of(rng)
        if name == settings.outcome:
            hit = pool.hit(key, bet, None)
            pool.apply(hit)
            returned += bet * MICRO + hit.award_cents * MICRO
        elif odds > 0:
            returned += bet * MICRO + math.floor(bet * odds) * MICRO
        if (n + 1) % per_batch == 0:
            batch_returns.append((returned - batch_start) / (per_batch * bet * MICRO))
            batch_start = returned
    end = pool.state
    owed = (end.meter - start.meter) + (end.overflow - start.overflow)
    played = per_batch * batches
    observed = Fraction(returned + owed, played * bet * MICRO)
    mean = sum(batch_returns) / batches
    var = sum((x - mean) ** 2 for x in batch_returns) / (batches - 1)
    return MeterSimulation(
        played, end.hits, observed, math.sqrt(var / batches), par.long_run_return
    )


def six_card_hands(table: StadiumPaytable) -> Callable[[random.Random], tuple[str, Fraction]]:
    """Deal a real 6-Card Bonus hand (6 random cards, the best five) and name its outcome and
    the table's fixed net odds (-1 for a losing hand)."""

    def deal(rng: random.Random) -> tuple[str, Fraction]:
        category = poker3.best_five_category(rng.sample(_DECK, 6))
        return poker3.CATEGORY5_NAMES[category], table.odds(category) or Fraction(-1)

    return deal


_DECK = range(52)


def figures_by_meter(par: ProgressivePar, meters: Mapping[str, int]) -> dict[str, Fraction]:
    """``return(M)`` for each named meter (cents), for the par sheet's table of meters."""
    return {label: par.return_at(cents) for label, cents in meters.items()}
