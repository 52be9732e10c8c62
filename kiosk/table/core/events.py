"""What happened at a table: frozen records, journaled in order, folded into the state.

Every event names the table's game number where it belongs to a round; :func:`encode` and
:func:`decode` turn an event into the journal's JSON body and back (exactly: a decoded event
equals the one encoded).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass
from typing import Any, Union


@dataclass(frozen=True)
class Bet:
    """One seat's wagers (spot -> cents, sorted by spot) and Stadium positions."""

    wagers: tuple[tuple[str, int], ...]
    positions: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        """All cents of the bet."""
        return sum(stake for _, stake in self.wagers)


@dataclass(frozen=True)
class SeatOffer:
    """The decision offered to a seat after the first deal."""

    seat: int
    choices: tuple[str, ...]
    default: str
    take: str
    extra_wager: int


@dataclass(frozen=True)
class WagerOutcome:
    """How one wager of a seat ended (odds as a fraction ``odds_num/odds_den``)."""

    spot: str
    stake: int
    paid: int
    outcome: str
    odds_num: int = 0
    odds_den: int = 1


@dataclass(frozen=True)
class SeatOutcome:
    """Every wager result of one seat, from the pure game rules."""

    seat: int
    choice: str | None
    cards: tuple[int, ...]
    wagers: tuple[WagerOutcome, ...]

    @property
    def stake(self) -> int:
        """All cents the seat wagered, decision wager included."""
        return sum(w.stake for w in self.wagers)

    @property
    def paid(self) -> int:
        """All cents returned to the seat."""
        return sum(w.paid for w in self.wagers)


@dataclass(frozen=True)
class SeatJoined:
    at: int
    seat: int


@dataclass(frozen=True)
class SeatLeft:
    at: int
    seat: int


@dataclass(frozen=True)
class RoundOpened:
    at: int
    game_number: int
    betting_deadline: int


@dataclass(frozen=True)
class WagerAccepted:
    at: int
    game_number: int
    seat: int
    bet: Bet


@dataclass(frozen=True)
class BetsClosing:
    """The dealer closed bets early: the seats' last chips are awaited until ``betting_deadline``
    (the last call, decision 0064); bets close then, or as soon as every seat has reported."""

    at: int
    game_number: int
    betting_deadline: int


@dataclass(frozen=True)
class BetsClosed:
    at: int
    game_number: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class FirstDealt:
    at: int
    game_number: int
    cards: tuple[int, ...]
    offers: tuple[SeatOffer, ...]
    decision_deadline: int


@dataclass(frozen=True)
class DecisionMade:
    at: int
    game_number: int
    seat: int
    choice: str


@dataclass(frozen=True)
class DecisionsClosed:
    """The decision window ended: ``defaulted`` seats got the offer's default."""

    at: int
    game_number: int
    defaulted: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class SecondDealt:
    at: int
    game_number: int
    shared: tuple[int, ...]
    seat_cards: tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True)
class RoundSettled:
    at: int
    game_number: int
    outcomes: tuple[SeatOutcome, ...]


@dataclass(frozen=True)
class RoundClosed:
    at: int
    game_number: int


@dataclass(frozen=True)
class RoundVoided:
    """The round cannot be finished: every seat gets back all it wagered (``returns``)."""

    at: int
    game_number: int
    reason: str
    returns: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class PackLaid:
    """The dealer laid a pack of a physical card source (``seat`` -1: a shared pack)."""

    at: int
    game_number: int
    pack: int
    location: str
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class DeckChecked:
    """The check of the deck a shuffler reported (``passed``: 52 distinct codes 0..51)."""

    at: int
    game_number: int
    shuffle: int
    cards_read: int
    digest: str
    passed: bool


@dataclass(frozen=True)
class CardTilted:
    """The round stopped on its cards: the supervisor re-reads ``pack`` or voids the round."""

    at: int
    game_number: int
    pack: int
    reason: str
    cards: tuple[int, ...]


@dataclass(frozen=True)
class TiltCleared:
    """The supervisor had ``pack`` read again."""

    at: int
    game_number: int
    pack: int
    by: str


@dataclass(frozen=True)
class TablePaused:
    """The table is paused; the running window (if any) had ``time_left`` ms."""

    at: int
    reason: str
    by: str
    time_left: int = 0


@dataclass(frozen=True)
class TableResumed:
    """The table runs again; the running window's deadline moves by ``shift`` ms (the round's
    deadlines after it: ``betting_deadline``, ``decision_deadline``; 0 without a round)."""

    at: int
    shift: int
    by: str
    betting_deadline: int = 0
    decision_deadline: int = 0


@dataclass(frozen=True)
class PinHash:
    """A salted scrypt hash of a dealer role's PIN (never the PIN)."""

    kdf: str
    n: int
    r: int
    p: int
    salt: str
    hash: str


@dataclass(frozen=True)
class DealerPinSet:
    at: int
    role: str
    pin: PinHash
    must_change: bool
    by: str


@dataclass(frozen=True)
class DealerPinRefused:
    """A wrong PIN for ``role`` (``failures`` in a row; locked until ``locked_until``, or 0)."""

    at: int
    role: str
    failures: int
    locked_until: int
    by: str


@dataclass(frozen=True)
class DealerAudited:
    """One audit record of the Dealer Terminal: who (its certificate name), which role, what,
    and how it ended (``ok``, ``refused``, ``repeated``)."""

    at: int
    by: str
    role: str
    action: str
    outcome: str
    detail: str


Event = (
    SeatJoined
    | SeatLeft
    | RoundOpened
    | WagerAccepted
    | BetsClosing
    | BetsClosed
    | FirstDealt
    | DecisionMade
    | DecisionsClosed
    | SecondDealt
    | RoundSettled
    | RoundClosed
    | RoundVoided
    | PackLaid
    | DeckChecked
    | CardTilted
    | TiltCleared
    | TablePaused
    | TableResumed
    | DealerPinSet
    | DealerPinRefused
    | DealerAudited
)

KINDS: dict[str, type[Any]] = {cls.__name__: cls for cls in typing.get_args(Event)}


class EventDecodeError(ValueError):
    """A journal body that is not a table event."""


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data: what :func:`dataclasses.asdict` gives (tuples as lists),
    without its deep copy of every leaf (5x faster on a 100-seat round)."""
    names = getattr(type(value), "__dataclass_fields__", None)
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def encode(event: Event) -> tuple[str, str]:
    """The event's kind and canonical JSON body."""
    body = json.dumps(plain(event), sort_keys=True, separators=(",", ":"))
    return type(event).__name__, body


def decode(kind: str, body: str) -> Event:
    """The event a journal row holds; :class:`EventDecodeError` if it holds none."""
    cls = KINDS.get(kind)
    if cls is None:
        raise EventDecodeError(f"unknown table event kind {kind!r}")
    try:
        event: Event = build(cls, json.loads(body))
    except (TypeError, ValueError, KeyError) as exc:
        raise EventDecodeError(f"bad {kind} body: {exc}") from exc
    return event


def build(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(value, dict):
            raise TypeError(f"{tp.__name__} needs an object")
        hints = typing.get_type_hints(tp)
        fields = [
            f
            for f in dataclasses.fields(tp)
            if f.name in value or f.default is dataclasses.MISSING  # older rows lack new fields
        ]
        return tp(**{f.name: build(hints[f.name], value[f.name]) for f in fields})
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(value, list):
            raise TypeError("a tuple needs a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(build(args[0], v) for v in value)
        if len(args) != len(value):
            raise TypeError("tuple of the wrong length")
        return tuple(build(a, v) for a, v in zip(args, value, strict=True))
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return build(inner, value)
    if tp is bool:
        if type(value) is not bool:
            raise TypeError(f"expected bool, got {value!r}")
        return value
    if tp in (int, str):
        if type(value) is not tp:
            raise TypeError(f"expected {tp.__name__}, got {value!r}")
        return value
    raise TypeError(f"cannot decode {tp!r}")
