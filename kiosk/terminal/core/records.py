"""Typed, frozen records of the money and the round that events and the state hold.

Each record is exact: money in int cents, times in int epoch milliseconds, odds a
:class:`~fractions.Fraction`.  Where the games layer has the type, the record wraps it (a seat's
:class:`~kiosk.kernel.games.base.SeatBet`, its :class:`~kiosk.kernel.games.base.DecisionOffer`, each
:class:`~kiosk.kernel.games.base.WagerResult`), so nothing is flattened and rebuilt at the boundary.

``to_json`` and ``from_json`` are for the two codecs only: the event codec
(kiosk/terminal/core/events.py) and the snapshot codec (kiosk/terminal/core/state.py).  Their JSON
is the previous release's dict form, key for key, so journals, chain hashes and signed snapshots
written before these records still verify (docs/decisions/0014-typed-money-records.md).
``from_json`` raises ``KeyError``, ``TypeError`` or ``ValueError`` on a malformed record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kiosk.kernel.games.base import DecisionOffer, SeatBet, WagerResult

JsonObject = dict[str, Any]


def _int(value: object, name: str) -> int:
    if type(value) is not int:
        raise TypeError(f"{name}: {value!r} is not an integer")
    return value


def _str(value: object, name: str) -> str:
    if type(value) is not str:
        raise TypeError(f"{name}: {value!r} is not a string")
    return value


def _bool(value: object, name: str) -> bool:
    if type(value) is not bool:
        raise TypeError(f"{name}: {value!r} is not true or false")
    return value


def _wagers(value: object) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise TypeError(f"wagers: {value!r} is not an object")
    return {_str(spot, "wager spot"): _int(cents, f"wager {spot}") for spot, cents in value.items()}


def _positions(value: object) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise TypeError(f"positions: {value!r} is not a list")
    return tuple(_int(p, "position") for p in value)


def _bet(d: Mapping[str, Any]) -> SeatBet:
    return SeatBet(wagers=_wagers(d["wagers"]), positions=_positions(d["positions"]))


def odds_text(odds: Fraction) -> str:
    """Odds as journaled: ``"n/d"`` in lowest terms (``"0/1"`` for a loss)."""
    if type(odds) is not Fraction:
        odds = Fraction(odds)
    return f"{odds.numerator}/{odds.denominator}"


def odds_of(text: object) -> Fraction:
    """Inverse of :func:`odds_text` (ValueError unless ``"n/d"`` with d > 0)."""
    numerator, slash, denominator = _str(text, "odds").partition("/")
    if not slash or not numerator.isdigit() or not denominator.isdigit() or int(denominator) == 0:
        raise ValueError(f"odds: {text!r} is not n/d")
    return Fraction(int(numerator), int(denominator))


@dataclass(frozen=True, slots=True)
class SeatBetRecord:
    """A seat's committed bet in a round."""

    seat: int
    bet: SeatBet

    def to_json(self) -> JsonObject:
        """``{"seat", "wagers": {spot: cents}, "positions": [...]}``."""
        return {
            "seat": self.seat,
            "wagers": dict(self.bet.wagers),
            "positions": list(self.bet.positions),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SeatBetRecord:
        """Inverse of :meth:`to_json`."""
        return cls(seat=_int(d["seat"], "seat"), bet=_bet(d))


@dataclass(frozen=True, slots=True)
class LastBet:
    """A seat's last committed bet, kept for Repeat (per edition)."""

    edition: str
    bet: SeatBet

    def to_json(self) -> JsonObject:
        """``{"edition", "wagers", "positions"}``."""
        return {
            "edition": self.edition,
            "wagers": dict(self.bet.wagers),
            "positions": list(self.bet.positions),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> LastBet:
        """Inverse of :meth:`to_json`."""
        return cls(edition=_str(d["edition"], "edition"), bet=_bet(d))


@dataclass(frozen=True, slots=True)
class OfferRecord:
    """A decision offered to a seat, and when its default is taken (epoch ms)."""

    decision: DecisionOffer
    deadline: int

    def to_json(self) -> JsonObject:
        """``{"kind", "choices", "default", "take", "extra_wager", "spot", "deadline"}``."""
        d = self.decision
        return {
            "kind": d.kind,
            "choices": list(d.choices),
            "default": d.default,
            "take": d.take,
            "extra_wager": d.extra_wager,
            "spot": d.spot,
            "deadline": self.deadline,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> OfferRecord:
        """Inverse of :meth:`to_json`."""
        choices = d["choices"]
        if not isinstance(choices, list | tuple):
            raise TypeError(f"choices: {choices!r} is not a list")
        decision = DecisionOffer(
            kind=_str(d["kind"], "kind"),
            choices=tuple(_str(x, "choice") for x in choices),
            default=_str(d["default"], "default"),
            take=_str(d["take"], "take"),
            extra_wager=_int(d["extra_wager"], "extra_wager"),
            spot=_str(d["spot"], "spot"),
        )
        return cls(decision=decision, deadline=_int(d["deadline"], "deadline"))


def _result_json(r: WagerResult) -> JsonObject:
    return {
        "spot": r.spot,
        "stake": r.stake,
        "paid": r.paid,
        "outcome": r.outcome,
        "odds": odds_text(r.odds),
    }


def _result_of(d: Mapping[str, Any]) -> WagerResult:
    return WagerResult(
        spot=_str(d["spot"], "spot"),
        stake=_int(d["stake"], "stake"),
        paid=_int(d["paid"], "paid"),
        outcome=_str(d["outcome"], "outcome"),
        odds=odds_of(d["odds"]),
    )


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How a seat's round was settled: every wager's result, the totals, and whether the win
    is paid by hand (at or above the handpay limit) instead of to the credit meter."""

    seat: int
    stake: int
    paid: int
    handpay: bool
    results: tuple[WagerResult, ...]

    def to_json(self) -> JsonObject:
        """``{"seat", "stake", "paid", "handpay", "results": [{spot, stake, paid, outcome,
        odds: "n/d"}]}``."""
        return {
            "seat": self.seat,
            "stake": self.stake,
            "paid": self.paid,
            "handpay": self.handpay,
            "results": [_result_json(r) for r in self.results],
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SeatResult:
        """Inverse of :meth:`to_json`."""
        results = d["results"]
        if not isinstance(results, list | tuple):
            raise TypeError(f"results: {results!r} is not a list")
        return cls(
            seat=_int(d["seat"], "seat"),
            stake=_int(d["stake"], "stake"),
            paid=_int(d["paid"], "paid"),
            handpay=_bool(d["handpay"], "handpay"),
            results=tuple(_result_of(r) for r in results),
        )


@dataclass(frozen=True, slots=True)
class TicketEscrow:
    """A voucher held in a seat's validator escrow, not yet credited."""

    validation_number: str
    value: int

    def to_json(self) -> JsonObject:
        """``{"validation_number", "value"}``."""
        return {"validation_number": self.validation_number, "value": self.value}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> TicketEscrow:
        """Inverse of :meth:`to_json`."""
        return cls(
            validation_number=_str(d["validation_number"], "validation_number"),
            value=_int(d["value"], "value"),
        )


@dataclass(frozen=True, slots=True)
class Cashout:
    """A voucher being printed: its credits stay on the meter until the printer confirms."""

    seat: int
    value: int
    validation_number: str

    def to_json(self) -> JsonObject:
        """``{"seat", "value", "validation_number"}``."""
        return {"seat": self.seat, "value": self.value, "validation_number": self.validation_number}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Cashout:
        """Inverse of :meth:`to_json`."""
        return cls(
            seat=_int(d["seat"], "seat"),
            value=_int(d["value"], "value"),
            validation_number=_str(d["validation_number"], "validation_number"),
        )


@dataclass(frozen=True, slots=True)
class Handpay:
    """An amount an attendant must pay by hand: a ``"jackpot"`` (of game ``game_number``), a
    ``"progressive"`` hit (of the meter ``name``, decision 0066) or ``"cancelled_credits"`` (a
    cash-out the printer cannot take; game_number 0)."""

    seat: int
    value: int
    kind: str
    game_number: int = 0
    name: str = ""  # a progressive handpay: the winning outcome the player reads

    def to_json(self) -> JsonObject:
        """``{"seat", "value", "kind", "game_number"}`` (and ``"name"`` when there is one)."""
        out: JsonObject = {
            "seat": self.seat,
            "value": self.value,
            "kind": self.kind,
            "game_number": self.game_number,
        }
        if self.name:
            out["name"] = self.name
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Handpay:
        """Inverse of :meth:`to_json`."""
        return cls(
            seat=_int(d["seat"], "seat"),
            value=_int(d["value"], "value"),
            kind=_str(d["kind"], "kind"),
            game_number=_int(d["game_number"], "game_number"),
            name=_str(d.get("name", ""), "name"),
        )


@dataclass(frozen=True, slots=True)
class Tilt:
    """An active fault (keyed by its code in the state) and whether an attendant must clear it."""

    reason: str
    needs_attendant: bool = False

    def to_json(self) -> JsonObject:
        """``{"reason", "needs_attendant"}``."""
        return {"reason": self.reason, "needs_attendant": self.needs_attendant}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Tilt:
        """Inverse of :meth:`to_json`."""
        return cls(
            reason=_str(d["reason"], "reason"),
            needs_attendant=_bool(d["needs_attendant"], "needs_attendant"),
        )


#: the kinds of electronic funds transfer (SAS AFT and legacy bonusing, docs/sas.md)
TRANSFER_KINDS = ("aft_in", "aft_bonus", "aft_out", "legacy_bonus")
#: transfers kept in the state, newest last (SAS keeps an AFT history of at most 127)
TRANSFER_HISTORY = 127


@dataclass(frozen=True, slots=True)
class TransferRecord:
    """One journaled electronic funds transfer, as the host may ask about it again.

    ``transaction_id`` is the host's (AFT) or the link's own (legacy bonus); ``position`` is
    the transfer's place in SAS's AFT history buffer (1..127, 0 for a legacy bonus).
    """

    kind: str
    transaction_id: str
    cashable: int
    requested: int
    at: int
    position: int = 0
    tax_status: int = 0
    pos_id: int = 0
    meter: int = 0  # the meter of its kind (cents) just after it: its receipt's cumulative

    @property
    def partial(self) -> bool:
        """Fewer cents moved than the host asked for (a partial transfer to the host)."""
        return self.cashable != self.requested

    def to_json(self) -> JsonObject:
        """Every field by name."""
        return {
            "kind": self.kind,
            "transaction_id": self.transaction_id,
            "cashable": self.cashable,
            "requested": self.requested,
            "at": self.at,
            "position": self.position,
            "tax_status": self.tax_status,
            "pos_id": self.pos_id,
            "meter": self.meter,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> TransferRecord:
        """Inverse of :meth:`to_json`."""
        return cls(
            kind=_str(d["kind"], "kind"),
            transaction_id=_str(d["transaction_id"], "transaction_id"),
            cashable=_int(d["cashable"], "cashable"),
            requested=_int(d["requested"], "requested"),
            at=_int(d["at"], "at"),
            position=_int(d["position"], "position"),
            tax_status=_int(d["tax_status"], "tax_status"),
            pos_id=_int(d["pos_id"], "pos_id"),
            meter=_int(d["meter"], "meter"),
        )


@dataclass(frozen=True, slots=True)
class ProgressivePaid:
    """A progressive hit the terminal paid (decision 0066): ``award`` cents of the meter
    ``progressive`` for the wager ``key`` (``source/game/seat/spot``) at ``seat``, credited or
    (``handpay``) paid by the attendant."""

    key: str
    progressive: str
    outcome: str
    seat: int
    award: int
    handpay: bool

    @property
    def game(self) -> int:
        """The game number in the key (the terminal's own, or the table's at a seat)."""
        return int(self.key.split("/")[1])

    def to_json(self) -> JsonObject:
        """Every field by name."""
        return {
            "key": self.key,
            "progressive": self.progressive,
            "outcome": self.outcome,
            "seat": self.seat,
            "award": self.award,
            "handpay": self.handpay,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ProgressivePaid:
        """Inverse of :meth:`to_json`."""
        return cls(
            key=_str(d["key"], "key"),
            progressive=_str(d["progressive"], "progressive"),
            outcome=_str(d["outcome"], "outcome"),
            seat=_int(d["seat"], "seat"),
            award=_int(d["award"], "award"),
            handpay=_bool(d["handpay"], "handpay"),
        )
