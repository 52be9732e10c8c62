"""Accounting meters: lifetime and resettable period sets, 12 digits with roll-over.

Meters are named counters (cents or counts).  A meter rolls over to zero past
``METER_MODULUS - 1`` as an electromechanical meter would, so every comparison between meters
is done modulo ``METER_MODULUS``.  Names are stable strings, also used on the host link:

- money (cents): ``coin_in`` (total wagered), ``coin_out`` (total won, stake returned
  included), ``bills_in``, ``tickets_in``, ``tickets_out``, ``handpaid_cancelled_credits``,
  ``handpaid_jackpots``;
- counts: ``games_played``, ``games_won``, ``games_lost``, ``games_pushed``,
  ``bills_in_count``, ``tickets_in_count``, ``tickets_out_count``, ``handpay_count``,
  ``door_opens``, ``power_resets``, ``tilts``;
- per denomination of note: ``bills_in.<cents>`` (count);
- a seat of a table (kiosk/terminal/seat): ``voided_returns`` (cents of voided rounds' wagers given
  back: credits count them like money in), ``games_voided`` (count);
- electronic funds transfers (SAS, docs/sas.md): ``aft_in``, ``aft_bonus``, ``aft_out``,
  ``legacy_bonus`` (cents, money in or out like notes and tickets) with their ``_count``s,
  ``legacy_bonus.<tax status>`` (cents) and ``aft_transfers`` (every AFT transfer, counted);
- progressive hits (decision 0066): ``progressive_won`` (cents credited, money in like a
  bonus) and ``progressive_won_count``; ``handpaid_progressive`` (cents the attendant paid,
  never on the credits) and ``handpaid_progressive_count``;
- per wager spot: ``wager_in.<spot>``, ``wager_out.<spot>``;
- per edition and pay table: ``game.<edition>.<key>.played|in|out`` where key names the
  pay tables in force.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

METER_DIGITS = 12
METER_MODULUS: int = 10**METER_DIGITS

MONEY_IN = ("bills_in", "tickets_in")
MONEY_OUT = ("tickets_out", "handpaid_cancelled_credits")
#: electronic funds transfers (SAS AFT and legacy bonusing), kept once the first one is made
TRANSFER_IN = ("aft_in", "aft_bonus", "legacy_bonus")
#: a progressive hit credited (decision 0066): won outside the pay table, so not coin out
PROGRESSIVE_IN = "progressive_won"
TRANSFER_OUT = ("aft_out",)

CORE_METERS = (
    "coin_in",
    "coin_out",
    "bills_in",
    "bills_in_count",
    "tickets_in",
    "tickets_in_count",
    "tickets_out",
    "tickets_out_count",
    "handpaid_cancelled_credits",
    "handpaid_jackpots",
    "handpay_count",
    "games_played",
    "games_won",
    "games_lost",
    "games_pushed",
    "door_opens",
    "power_resets",
    "tilts",
)


class Meters:
    """A set of rolling meters; missing meters read as zero."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, int] | None = None) -> None:
        self._values: dict[str, int] = dict.fromkeys(CORE_METERS, 0)
        if values:
            for name, value in values.items():
                self._values[name] = value % METER_MODULUS

    def __getitem__(self, name: str) -> int:
        return self._values.get(name, 0)

    def add(self, name: str, amount: int) -> None:
        """Advance a meter (never backwards), rolling over at the modulus."""
        if amount < 0:
            raise ValueError(f"meter {name}: cannot advance by a negative amount {amount}")
        self._values[name] = (self._values.get(name, 0) + amount) % METER_MODULUS

    def names(self) -> Iterable[str]:
        """Meter names in a stable order: the core meters first, then the rest sorted."""
        rest = sorted(n for n in self._values if n not in CORE_METERS)
        return (*CORE_METERS, *rest)

    def as_dict(self) -> dict[str, int]:
        """All meters, for snapshots and reports."""
        return {name: self._values.get(name, 0) for name in self.names()}

    def copy(self) -> Meters:
        """An independent copy."""
        return Meters(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meters) and self.as_dict() == other.as_dict()

    __hash__ = None  # type: ignore[assignment]


def advance(name: str, amount: int, *sets: Meters) -> None:
    """Advance the same meter in several sets (lifetime and period), as :meth:`Meters.add`."""
    if amount < 0:
        raise ValueError(f"meter {name}: cannot advance by a negative amount {amount}")
    for meters in sets:
        values = meters._values
        values[name] = (values.get(name, 0) + amount) % METER_MODULUS


def expected_credits(meters: Meters) -> int:
    """Credits the meters say the terminal must hold (modulo the meter modulus).

    credits = money in - money out - wagered + won + progressive hits credited (jackpot and
    progressive handpays never reach credits).
    """
    values = meters._values  # every core meter is always there
    balance = values["coin_out"] - values["coin_in"]
    for name in MONEY_IN:
        balance += values[name]
    for name in MONEY_OUT:
        balance -= values[name]
    balance += values.get("voided_returns", 0)  # a voided table round's wagers, returned
    balance += sum(values.get(name, 0) for name in TRANSFER_IN)
    balance += values.get(PROGRESSIVE_IN, 0)
    balance -= sum(values.get(name, 0) for name in TRANSFER_OUT)
    return balance % METER_MODULUS
