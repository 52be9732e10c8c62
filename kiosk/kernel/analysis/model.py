"""The par-sheet data model shared by every game, with its text and JSON renderings.

Every figure is an exact :class:`~fractions.Fraction`; JSON carries it as a ``"p/q"`` string
with a float beside it (``house_edge`` and ``house_edge_float``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

#: GLI-11: an advertised award with odds longer than this must have its odds displayed.
GLI_LONG_ODDS = 100_000_000


@dataclass(frozen=True)
class OutcomeLine:
    """One way a wager can end, with its net pay per unit of the initial wager."""

    outcome: str  # "Super TD (14+ icons)", "Pair", "Lose", ...
    pays: Fraction  # net result per unit initial wager: 4 for "4 to 1", -1 lost, 0 push
    probability: Fraction
    combinations: int | None = None  # count of equally likely deals, where meaningful


@dataclass(frozen=True)
class WagerPar:
    """Exact figures of one wager under one pay table and strategy."""

    wager_id: str
    label: str
    paytable: str
    outcomes: tuple[OutcomeLine, ...]
    house_edge: Fraction  # expected loss per unit of the initial wager, optimal strategy
    element_of_risk: Fraction  # expected loss per unit of the total amount wagered
    hit_frequency: Fraction  # probability of a win (net pay > 0)
    variance: Fraction  # of the net result per unit initial wager
    strategy: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def std_dev(self) -> float:
        """Standard deviation of the net result per unit initial wager."""
        return math.sqrt(self.variance)

    def long_odds_awards(self) -> tuple[OutcomeLine, ...]:
        """Winning outcomes whose odds are longer than 1 in 100,000,000 (GLI-11 display rule)."""
        return tuple(
            line
            for line in self.outcomes
            if line.pays > 0 and 0 < line.probability < Fraction(1, GLI_LONG_ODDS)
        )


@dataclass(frozen=True)
class ParSheet:
    """All wagers of one edition."""

    edition: str
    title: str
    wagers: Mapping[str, WagerPar]

    def to_json_dict(self) -> dict[str, Any]:
        """The documented JSON shape: ``{"edition": ..., "wagers": {id: {...}}}``."""
        return {
            "edition": self.edition,
            "title": self.title,
            "wagers": {wid: _wager_json(w) for wid, w in self.wagers.items()},
        }

    def to_json(self) -> str:
        """Pretty JSON text of :meth:`to_json_dict`."""
        return json.dumps(self.to_json_dict(), indent=2, sort_keys=False)

    def to_text(self) -> str:
        """A readable par sheet for people."""
        out = [f"{self.title} ({self.edition})", "=" * 72]
        for w in self.wagers.values():
            out.append("")
            out.append(f"{w.label} [{w.wager_id}]  pay table: {w.paytable}")
            out.append(f"  {'outcome':<34} {'pays':>8} {'probability':>14} {'1 in':>14}")
            for line in w.outcomes:
                one_in = f"{float(1 / line.probability):,.1f}" if line.probability else "never"
                out.append(
                    f"  {line.outcome:<34} {_ratio_text(line.pays):>8}"
                    f" {float(line.probability):>14.10f} {one_in:>14}"
                )
            out.append(f"  house edge        {float(w.house_edge):.6%}  ({w.house_edge})")
            out.append(f"  element of risk   {float(w.element_of_risk):.6%}")
            out.append(f"  hit frequency     {float(w.hit_frequency):.6%}")
            out.append(f"  standard deviation {w.std_dev:.6f}")
            if w.strategy:
                out.append(f"  strategy          {w.strategy}")
            for key, value in w.extra.items():
                out.append(f"  {key:<17} {_extra_text(value)}")
            for line in w.long_odds_awards():
                out.append(
                    f"  NOTE: '{line.outcome}' odds 1 in {float(1 / line.probability):,.0f} exceed "
                    f"1 in {GLI_LONG_ODDS:,}: GLI-11 requires the odds to be displayed"
                )
        return "\n".join(out)


def fraction_json(value: Fraction) -> str:
    """An exact fraction as ``"p/q"`` (``"0/1"`` for zero)."""
    return f"{value.numerator}/{value.denominator}"


def _ratio_text(pays: Fraction) -> str:
    if pays < 0:
        return "lose" if pays == -1 else f"{float(pays):g}"
    if pays == 0:
        return "push"
    return f"{pays.numerator}:{pays.denominator}"


def _extra_text(value: Any) -> str:
    if isinstance(value, Fraction):
        return f"{float(value):.6%} ({value})"
    if isinstance(value, Mapping):
        return "".join(f"\n    {k:<40} {_extra_text(v)}" for k, v in value.items())
    return str(value)


def _extra_json(value: Any) -> Any:
    if isinstance(value, Fraction):
        return {"exact": fraction_json(value), "float": float(value)}
    if isinstance(value, Mapping):
        return {str(k): _extra_json(v) for k, v in value.items()}
    return value


def _wager_json(w: WagerPar) -> dict[str, Any]:
    data: dict[str, Any] = {"label": w.label, "paytable": w.paytable, "strategy": w.strategy}
    for key in ("house_edge", "element_of_risk", "hit_frequency", "variance"):
        value: Fraction = getattr(w, key)
        data[key] = fraction_json(value)
        data[f"{key}_float"] = float(value)
    data["std_dev"] = w.std_dev
    data["outcomes"] = [
        {
            "outcome": line.outcome,
            "pays": fraction_json(line.pays),
            "probability": fraction_json(line.probability),
            "probability_float": float(line.probability),
            **({"combinations": line.combinations} if line.combinations is not None else {}),
        }
        for line in w.outcomes
    ]
    data["long_odds_awards"] = [line.outcome for line in w.long_odds_awards()]
    for key, value in w.extra.items():
        data[key] = _extra_json(value)
    return data
