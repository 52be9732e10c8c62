"""Progressive jackpots on a side wager: the settings as pay-table data and the meter (sans-IO).

A progressive is one data file, ``paytables/progressive/NAME.toml`` (or an operator's file, as
every pay table: :mod:`kiosk.kernel.games.paytable`)::

    name = "stadium-6cb-royal"          # must equal the file name
    family = "stadium"                  # the game family whose wager it rides on
    wager = "six_card_bonus"            # the wager spot it rides on (the seat's own spot)
    outcome = "Royal flush"             # the settled outcome that wins the meter
    qualify_cents = 500                 # the wager that wins the whole meter
    mode = "table"                      # standalone | table | linked (operator setting)

    [meter]                             # operator settings
    reset_cents = 1000000               # where the meter starts again after a hit
    rate_ppm = 20000                    # visible increment: parts per million of each wager
    hidden_ppm = 5000                   # hidden increment: funds the next reset
    ceiling_cents = 5000000             # the meter never shows more
    overflow = "carry"                  # above the ceiling: "carry" (the overflow meter,
                                        # added at the next reset) or "hidden"

**Exact money.**  A contribution of ``wager`` cents at ``rate_ppm`` is ``wager * rate_ppm``
micro-cents (a millionth of a cent): an integer, so no rounding ever happens on the way in.
Only an award is a whole number of cents: the meter's fraction of a cent stays on the meter.
At every instant, with everything in micro-cents::

    contributed + seeded == meter + hidden + overflow + paid

(:meth:`MeterState.balanced`), where ``seeded`` is what the operator advanced: the first reset
and any reset the hidden meter could not fund.  A wager below ``qualify_cents`` contributes
but wins the pay table's fixed odds, not the meter.

:class:`ProgressivePool` is the sans-IO meter: :meth:`~ProgressivePool.contribute` and
:meth:`~ProgressivePool.hit` return the event, :meth:`~ProgressivePool.apply` folds it in, so
replaying a journal rebuilds the same meter.  Every event carries the key of the wager
(``source/game/seat/spot``) that caused it; a key seen before returns the recorded event and
changes nothing (exactly once across retries and restarts).  A winning wager has both a
contribution and a hit under its key.

**Retiring a meter** (decision 0066) moves its whole liability (meter, hidden and overflow) to a
named successor: :meth:`ProgressivePool.transfer_out` empties the retired meter (an outgoing
:class:`Transferred`), :meth:`ProgressivePool.transfer_in` books the same micro-cents on the
successor (its meter up to its ceiling, the rest as its own overflow rule says; the hidden to
its hidden).  Both keep the balance with the transfer counted::

    contributed + seeded + transferred_in == meter + hidden + overflow + paid + transferred_out
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from kiosk.kernel.games.paytable import (
    FieldReader,
    PaytableError,
    is_file_reference,
    locate,
    read_toml,
    table_names,
)

KIND = "progressive"
#: micro-cents in a cent: a contribution is ``wager cents * parts per million``
MICRO = 1_000_000
#: the most a rate may be (a progressive taking the whole wager is refused)
MAX_PPM = 500_000
#: the largest meter setting, in cents (ten digits of BCD on SAS: 99,999,999.99)
MAX_CENTS = 9_999_999_999


class Mode(Enum):
    """Where the meter lives."""

    STANDALONE = "standalone"  # one terminal, in its own store
    TABLE = "table"  # every seat of one table, in the table controller
    LINKED = "linked"  # several tables, in the progressive controller


class Overflow(Enum):
    """What the visible increment does while the meter is at its ceiling."""

    CARRY = "carry"  # the overflow meter, moved onto the meter after the next hit
    HIDDEN = "hidden"  # the hidden meter, which funds resets


class ProgressiveError(ValueError):
    """A contribution or hit the pool refuses (nothing changes)."""


@dataclass(frozen=True)
class MeterSettings:
    """The operator's settings of one meter."""

    reset_cents: int
    rate_ppm: int
    hidden_ppm: int
    ceiling_cents: int
    overflow: Overflow


@dataclass(frozen=True)
class ProgressiveSettings:
    """A checked progressive file."""

    name: str
    family: str
    wager: str
    outcome: str
    qualify_cents: int
    mode: Mode
    meter: MeterSettings
    source: str = ""

    def with_meter(self, **changes: Any) -> ProgressiveSettings:
        """These settings with some meter settings changed (checked again)."""
        meter = replace(self.meter, **changes)
        check_meter(meter, FieldReader(self.source))
        return replace(self, meter=meter)


def check_meter(meter: MeterSettings, reader: FieldReader) -> None:
    """Refuse settings a meter cannot run with."""
    if not 0 < meter.reset_cents <= meter.ceiling_cents <= MAX_CENTS:
        raise reader.error(
            "meter", "needs 0 < reset_cents <= ceiling_cents <= 9999999999 (99,999,999.99)"
        )
    if meter.rate_ppm + meter.hidden_ppm > MAX_PPM:
        raise reader.error("meter", "rate_ppm + hidden_ppm may be at most 500000 (half a wager)")


def load(name_or_file: str, environ: Mapping[str, str] | None = None) -> ProgressiveSettings:
    """Read and check a progressive by name or file; :class:`PaytableError` when unusable."""
    path, source = locate(KIND, name_or_file, environ)
    settings = parse(read_toml(path, source), source)
    if not is_file_reference(name_or_file) and settings.name != name_or_file:
        raise PaytableError(
            source, "name", f"is {settings.name!r} but the file is named {name_or_file!r}"
        )
    return settings


def available(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Names of every progressive file."""
    return table_names(KIND, environ)


def parse(data: Mapping[str, Any], source: str) -> ProgressiveSettings:
    """Check parsed TOML ``data`` as a progressive; errors name ``source`` and the field."""
    read = FieldReader(source)
    read.keys(data, "", ("name", "family", "wager", "outcome", "qualify_cents", "meter"), ("mode",))
    mode_text = read.text(data.get("mode", Mode.STANDALONE.value), "mode")
    modes = {m.value: m for m in Mode}
    if mode_text not in modes:
        raise read.error("mode", f"is one of {', '.join(modes)}, not {mode_text!r}")
    meter_data = read.table(data["meter"], "meter")
    fields = ("reset_cents", "rate_ppm", "hidden_ppm", "ceiling_cents", "overflow")
    read.keys(meter_data, "meter", fields)
    overflows = {o.value: o for o in Overflow}
    overflow = read.text(meter_data["overflow"], "meter.overflow")
    if overflow not in overflows:
        raise read.error("meter.overflow", f"is one of {', '.join(overflows)}, not {overflow!r}")
    meter = MeterSettings(
        read.positive_integer(meter_data["reset_cents"], "meter.reset_cents"),
        read.integer(meter_data["rate_ppm"], "meter.rate_ppm", 0, MAX_PPM),
        read.integer(meter_data["hidden_ppm"], "meter.hidden_ppm", 0, MAX_PPM),
        read.positive_integer(meter_data["ceiling_cents"], "meter.ceiling_cents"),
        overflows[overflow],
    )
    check_meter(meter, read)
    return ProgressiveSettings(
        read.name(data["name"], "name"),
        read.name(data["family"], "family"),
        read.name(data["wager"], "wager"),
        read.text(data["outcome"], "outcome"),
        read.positive_integer(data["qualify_cents"], "qualify_cents"),
        modes[mode_text],
        meter,
        source,
    )


# --- the meter ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Contributed:
    """One wager's contribution, split as it was booked (micro-cents)."""

    key: str  # "source/game/seat/spot"
    wager_cents: int
    to_meter: int
    to_hidden: int
    to_overflow: int

    @property
    def total(self) -> int:
        """Everything the wager contributed, in micro-cents."""
        return self.to_meter + self.to_hidden + self.to_overflow


@dataclass(frozen=True)
class Hit:
    """A winning wager: the award and how the meter started again (micro-cents but the award)."""

    key: str
    award_cents: int
    from_hidden: int  # the part of the reset the hidden meter funded
    seeded: int  # the part the operator advanced
    from_overflow: int  # carried from the overflow meter onto the new meter
    handpay: bool  # above the handpay limit: the attendant pays it


@dataclass(frozen=True)
class Transferred:
    """A retired meter's liability moved to its successor (micro-cents): in the retired
    meter's journal what left each of its meters (``outgoing``), in the successor's what
    reached each of its meters; the same total in both.  ``by`` and ``reason``: the operator's."""

    key: str  # "transfer/<retired>/<successor>"
    retired: str
    successor: str
    to_meter: int
    to_hidden: int
    to_overflow: int
    outgoing: bool
    by: str
    reason: str

    @property
    def total(self) -> int:
        """Everything moved, in micro-cents."""
        return self.to_meter + self.to_hidden + self.to_overflow


Event = Contributed | Hit | Transferred


@dataclass(frozen=True)
class MeterState:
    """The meters of one progressive (micro-cents; ``paid_cents`` in cents)."""

    meter: int
    hidden: int = 0
    overflow: int = 0
    contributed: int = 0
    seeded: int = 0
    paid_cents: int = 0
    hits: int = 0
    wagers: int = 0
    transferred_in: int = 0  # from retired meters (micro-cents)
    transferred_out: int = 0  # to the successor, when this meter was retired
    retired_to: str = ""  # the successor's name once retired ("" while in play)

    @property
    def meter_cents(self) -> int:
        """What the meter shows: whole cents (the fraction stays on it)."""
        return self.meter // MICRO

    def balanced(self) -> bool:
        """Whether every micro-cent is accounted for (see the module docstring)."""
        return (
            self.contributed + self.seeded + self.transferred_in
            == self.meter
            + self.hidden
            + self.overflow
            + self.paid_cents * MICRO
            + self.transferred_out
        )


class ProgressivePool:
    """One progressive's meter: events out, state folded from events."""

    def __init__(self, settings: ProgressiveSettings) -> None:
        self.settings = settings
        reset = settings.meter.reset_cents * MICRO
        self.state = MeterState(meter=reset, seeded=reset)
        self._seen: dict[tuple[str, str], Event] = {}

    def recorded(self, kind: type[Event], key: str) -> Event | None:
        """The event of ``kind`` already booked for ``key``, if any."""
        return self._seen.get((kind.__name__, key))

    def contribute(self, key: str, wager_cents: int) -> Contributed:
        """The contribution of a wager of ``wager_cents`` (the recorded one for a known key)."""
        seen = self._seen.get(("Contributed", key))
        if isinstance(seen, Contributed):
            if seen.wager_cents != wager_cents:
                raise ProgressiveError(
                    f"{key} contributed on {seen.wager_cents} cents, not {wager_cents}"
                )
            return seen
        if wager_cents <= 0:
            raise ProgressiveError(f"{key}: a wager of {wager_cents} cents contributes nothing")
        m = self.settings.meter
        visible = wager_cents * m.rate_ppm
        room = max(m.ceiling_cents * MICRO - self.state.meter, 0)
        to_meter = min(visible, room)
        excess = visible - to_meter
        carry = m.overflow is Overflow.CARRY
        hidden = wager_cents * m.hidden_ppm + (0 if carry else excess)
        return Contributed(key, wager_cents, to_meter, hidden, excess if carry else 0)

    def hit(self, key: str, wager_cents: int, handpay_limit_cents: int | None) -> Hit:
        """The award of a winning wager: the whole meter for a qualifying wager (the recorded
        hit for a known key); :class:`ProgressiveError` for a wager too small to win it."""
        seen = self._seen.get(("Hit", key))
        if isinstance(seen, Hit):
            return seen
        if wager_cents < self.settings.qualify_cents:
            raise ProgressiveError(
                f"{key}: {wager_cents} cents is less than the {self.settings.qualify_cents} "
                "that win the meter"
            )
        s, m = self.state, self.settings.meter
        award = s.meter // MICRO
        left = s.meter - award * MICRO
        reset = m.reset_cents * MICRO
        from_hidden = min(max(s.hidden, 0), reset)
        room = max(m.ceiling_cents * MICRO - (left + reset), 0)
        carried = min(s.overflow, room)
        handpay = handpay_limit_cents is not None and award >= handpay_limit_cents
        return Hit(key, award, from_hidden, reset - from_hidden, carried, handpay)

    def transfer_out(self, successor: str, by: str, reason: str) -> Transferred:
        """Retire this meter to ``successor``: everything on it leaves (the recorded transfer
        when it was retired before; :class:`ProgressiveError` when retired to another)."""
        if not successor or successor == self.settings.name or "/" in successor:
            raise ProgressiveError(f"a meter is retired to another progressive, not {successor!r}")
        if not by.strip():
            raise ProgressiveError("a retirement names the operator who made it")
        key = transfer_key(self.settings.name, successor)
        if self.state.retired_to:
            seen = self._seen.get(("Transferred", key))
            if not isinstance(seen, Transferred):
                raise ProgressiveError(
                    f"{self.settings.name} was retired to {self.state.retired_to} already"
                )
            return seen
        s = self.state
        return Transferred(
            key, self.settings.name, successor, s.meter, s.hidden, s.overflow, True, by, reason
        )

    def transfer_in(self, out: Transferred) -> Transferred:
        """Book a retired meter's outgoing transfer on this one, its successor (the recorded
        one for a transfer seen before)."""
        if not out.outgoing or out.successor != self.settings.name:
            raise ProgressiveError(f"{out.key} is not a transfer to {self.settings.name}")
        if self.state.retired_to:
            raise ProgressiveError(
                f"{self.settings.name} is retired (to {self.state.retired_to}): it takes nothing"
            )
        seen = self._seen.get(("Transferred", out.key))
        if isinstance(seen, Transferred):
            return seen
        m = self.settings.meter
        visible = out.to_meter + out.to_overflow
        room = max(m.ceiling_cents * MICRO - self.state.meter, 0)
        to_meter = min(visible, room)
        excess = visible - to_meter
        carry = m.overflow is Overflow.CARRY
        return Transferred(
            out.key,
            out.retired,
            out.successor,
            to_meter,
            out.to_hidden + (0 if carry else excess),
            excess if carry else 0,
            False,
            out.by,
            out.reason,
        )

    def apply(self, event: Event) -> None:
        """Fold a journaled event in (a key already folded is ignored: replay is idempotent)."""
        slot = (type(event).__name__, event.key)
        if slot in self._seen:
            return
        self._seen[slot] = event
        s = self.state
        if isinstance(event, Transferred):
            sign = -1 if event.outgoing else 1
            self.state = replace(
                s,
                meter=s.meter + sign * event.to_meter,
                hidden=s.hidden + sign * event.to_hidden,
                overflow=s.overflow + sign * event.to_overflow,
                transferred_in=s.transferred_in + (0 if event.outgoing else event.total),
                transferred_out=s.transferred_out + (event.total if event.outgoing else 0),
                retired_to=event.successor if event.outgoing else s.retired_to,
            )
            return
        if isinstance(event, Contributed):
            self.state = replace(
                s,
                meter=s.meter + event.to_meter,
                hidden=s.hidden + event.to_hidden,
                overflow=s.overflow + event.to_overflow,
                contributed=s.contributed + event.total,
                wagers=s.wagers + 1,
            )
            return
        left = s.meter - event.award_cents * MICRO
        reset = event.from_hidden + event.seeded
        self.state = replace(
            s,
            meter=left + reset + event.from_overflow,
            hidden=s.hidden - event.from_hidden,
            overflow=s.overflow - event.from_overflow,
            seeded=s.seeded + event.seeded,
            paid_cents=s.paid_cents + event.award_cents,
            hits=s.hits + 1,
        )


def transfer_key(retired: str, successor: str) -> str:
    """The one key of a retirement: ``transfer/<retired>/<successor>``."""
    return f"transfer/{retired}/{successor}"


def wager_key(source: str, game: int, seat: int, spot: str) -> str:
    """The one key of a wager: ``source/game/seat/spot`` (a terminal or table id)."""
    if not source or "/" in source or "/" in spot:
        raise ProgressiveError(f"a wager key's source and spot have no '/': {source!r}, {spot!r}")
    return f"{source}/{game}/{seat}/{spot}"


@dataclass(frozen=True)
class LevelAmount:
    """A progressive level's amount as SAS carries it (long polls 80, 86, 84, 85, 87)."""

    group: int  # the progressive group (1..255)
    level: int  # the level in the group (1..32)
    cents: int


@dataclass(frozen=True)
class Win:
    """A progressive win of this machine, as journaled (``seq``: its order, from 1)."""

    seq: int
    key: str
    amount: LevelAmount
    handpay: bool
