"""The typed money records keep the journal's bytes: an event holding them round-trips through
its JSON to an equal event, and that JSON is, byte for byte, what the previous release wrote for
the same values (its dicts, spelt out here as its core built them); the same for the snapshot.
A malformed record in a journal row is an :class:`EventDecodeError`, never a crash."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.kernel.games.base import DecisionOffer, SeatBet, WagerResult
from kiosk.terminal.core import events as e
from kiosk.terminal.core.config import TerminalConfig
from kiosk.terminal.core.records import (
    Cashout,
    Handpay,
    LastBet,
    OfferRecord,
    SeatBetRecord,
    SeatResult,
    TicketEscrow,
    Tilt,
)
from kiosk.terminal.core.state import Phase, RoundState, TerminalState

CENTS = st.integers(min_value=0, max_value=10**12)
SEAT = st.integers(min_value=0, max_value=7)
AT = st.integers(min_value=0, max_value=2**62)
SPOT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=14)
TEXT = st.text(max_size=16)  # any text: non-ASCII and control characters take the slow path
POSITIONS = st.lists(st.integers(0, 8), max_size=3, unique=True).map(tuple)
BET = st.builds(SeatBet, wagers=st.dictionaries(SPOT, CENTS, max_size=5), positions=POSITIONS)
ODDS = st.builds(Fraction, st.integers(0, 10_000), st.integers(1, 1_000))
RESULT = st.builds(WagerResult, spot=SPOT, stake=CENTS, paid=CENTS, outcome=TEXT, odds=ODDS)
SEAT_BET = st.builds(SeatBetRecord, seat=SEAT, bet=BET)
SEAT_RESULT = st.builds(
    SeatResult,
    seat=SEAT,
    stake=CENTS,
    paid=CENTS,
    handpay=st.booleans(),
    results=st.lists(RESULT, max_size=5).map(tuple),
)
DECISION = st.builds(
    DecisionOffer,
    kind=SPOT,
    choices=st.lists(SPOT, min_size=1, max_size=3).map(tuple),
    default=SPOT,
    take=SPOT,
    extra_wager=CENTS,
    spot=SPOT,
)
PAYTABLES = st.dictionaries(SPOT, SPOT, max_size=3)


def old_json(kind: str, data: dict[str, Any]) -> str:
    """The previous release's journal text: ``json.dumps`` with sorted keys, no spaces."""
    return json.dumps({"data": data, "kind": kind}, sort_keys=True, separators=(",", ":"))


def old_bet(seat: int, bet: SeatBet) -> dict[str, Any]:
    """A bet as the previous release's Deal built it."""
    return {"seat": seat, "wagers": dict(bet.wagers), "positions": list(bet.positions)}


def old_seat_result(r: SeatResult) -> dict[str, Any]:
    """A seat's settlement as the previous release's core built it."""
    return {
        "seat": r.seat,
        "stake": r.stake,
        "paid": r.paid,
        "handpay": r.handpay,
        "results": [
            {
                "spot": w.spot,
                "stake": w.stake,
                "paid": w.paid,
                "outcome": w.outcome,
                "odds": f"{w.odds.numerator}/{w.odds.denominator}",
            }
            for w in r.results
        ],
    }


@given(AT, st.integers(0, 10**9), SPOT, PAYTABLES, st.lists(SEAT_BET, max_size=4))
def test_round_started_round_trips_and_writes_the_old_bytes(at, number, edition, tables, bets):
    event = e.RoundStarted(
        at, game_number=number, edition=edition, paytables=tables, bets=tuple(bets)
    )
    text = e.encode(event)
    assert e.decode(text) == event
    old = {
        "at": at,
        "game_number": number,
        "edition": edition,
        "paytables": tables,
        "bets": [old_bet(b.seat, b.bet) for b in bets],
    }
    assert text == old_json("RoundStarted", old)


@given(AT, st.integers(0, 10**9), st.lists(SEAT_RESULT, max_size=4))
def test_round_settled_round_trips_and_writes_the_old_bytes(at, number, seats):
    event = e.RoundSettled(at, game_number=number, seats=tuple(seats))
    text = e.encode(event)
    assert e.decode(text) == event
    old = {"at": at, "game_number": number, "seats": [old_seat_result(s) for s in seats]}
    assert text == old_json("RoundSettled", old)


@given(AT, SEAT, CENTS, TEXT, st.booleans())
def test_the_other_money_events_round_trip_and_write_the_old_bytes(at, seat, value, text, flag):
    samples = [
        e.TicketEscrowAccepted(at, seat=seat, value=value, validation_number=text),
        e.CashoutStarted(at, seat=seat, value=value, validation_number=text),
        e.HandpayLocked(at, seat=seat, value=value, kind=text, game_number=7),
        e.TiltRaised(at, code=text, reason=text, needs_attendant=flag),
        e.DecisionOffered(
            at,
            seat=seat,
            kind="raise",
            choices=["raise", text],
            default=text,
            take="raise",
            extra_wager=value,
            spot="raise",
            deadline=at,
        ),
    ]
    for event in samples:
        encoded = e.encode(event)
        assert e.decode(encoded) == event
        fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
        assert encoded == old_json(event.type_name, fields)


@given(
    SEAT_BET,
    st.dictionaries(SEAT, st.builds(OfferRecord, DECISION, AT), max_size=2),
    st.lists(SEAT_RESULT, max_size=2),
    st.dictionaries(SEAT, st.builds(LastBet, SPOT, BET), max_size=2),
    st.dictionaries(SEAT, st.builds(TicketEscrow, TEXT, CENTS), max_size=2),
    st.none() | st.builds(Cashout, SEAT, CENTS, TEXT),
    st.none() | st.builds(Handpay, SEAT, CENTS, TEXT, st.integers(0, 10**6)),
    st.dictionaries(SPOT, st.builds(Tilt, TEXT, st.booleans()), max_size=3),
)
# a large snapshot's first encoding took 263-300 ms under a loaded test run: no deadline
@settings(deadline=None)
def test_a_snapshot_round_trips_and_keeps_the_old_shape(
    bet, offers, settlement, last_bets, tickets, cashout, handpay, tilts
):
    rnd = RoundState(
        game_number=4,
        edition="turbo-football",
        paytables={},
        bets=(bet,),
        credits_before=[100],
        started_at=1,
        offers=offers,
        settlement=tuple(settlement),
        settled_at=2,
    )
    state = TerminalState(
        TerminalConfig(),
        phase=Phase.RESULT,
        round=rnd,
        last_bets=last_bets,
        ticket_escrow=tickets,
        cashout=cashout,
        handpay=handpay,
        tilts=tilts,
    )
    snapshot = state.to_snapshot()
    assert snapshot["round"]["bets"] == [old_bet(bet.seat, bet.bet)]
    assert snapshot["round"]["settlement"] == [old_seat_result(s) for s in settlement]
    assert snapshot["round"]["offers"] == {
        str(seat): {
            "kind": o.decision.kind,
            "choices": list(o.decision.choices),
            "default": o.decision.default,
            "take": o.decision.take,
            "extra_wager": o.decision.extra_wager,
            "spot": o.decision.spot,
            "deadline": o.deadline,
        }
        for seat, o in offers.items()
    }
    assert snapshot["last_bets"] == {
        str(seat): {
            "edition": b.edition,
            "wagers": dict(b.bet.wagers),
            "positions": list(b.bet.positions),
        }
        for seat, b in last_bets.items()
    }
    assert snapshot["ticket_escrow"] == {
        str(seat): {"validation_number": t.validation_number, "value": t.value}
        for seat, t in tickets.items()
    }
    assert snapshot["cashout"] == (
        None
        if cashout is None
        else {
            "seat": cashout.seat,
            "value": cashout.value,
            "validation_number": cashout.validation_number,
        }
    )
    assert snapshot["handpay"] == (
        None
        if handpay is None
        else {
            "seat": handpay.seat,
            "value": handpay.value,
            "kind": handpay.kind,
            "game_number": handpay.game_number,
        }
    )
    assert snapshot["tilts"] == {
        code: {"reason": t.reason, "needs_attendant": t.needs_attendant}
        for code, t in tilts.items()
    }
    text = e.canonical(snapshot)
    again = TerminalState.from_snapshot(json.loads(text))
    assert (again.round, again.last_bets, again.ticket_escrow) == (rnd, last_bets, tickets)
    assert (again.cashout, again.handpay, again.tilts) == (cashout, handpay, tilts)
    assert e.canonical(again.to_snapshot()) == text


GOOD_RESULT = {"spot": "ante", "stake": 100, "paid": 0, "outcome": "Lose", "odds": "0/1"}
GOOD_SEAT = {"seat": 0, "stake": 100, "paid": 0, "handpay": False, "results": [GOOD_RESULT]}


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("RoundSettled", {"seats": [{**GOOD_SEAT, "stake": "100"}]}),
        ("RoundSettled", {"seats": [{**GOOD_SEAT, "stake": 1.5}]}),
        ("RoundSettled", {"seats": [{**GOOD_SEAT, "handpay": 1}]}),
        ("RoundSettled", {"seats": [{**GOOD_SEAT, "results": [{**GOOD_RESULT, "odds": "1/0"}]}]}),
        ("RoundSettled", {"seats": [{**GOOD_SEAT, "results": [{**GOOD_RESULT, "odds": "x"}]}]}),
        ("RoundSettled", {"seats": [{k: v for k, v in GOOD_SEAT.items() if k != "paid"}]}),
        ("RoundSettled", {"seats": {"0": GOOD_SEAT}}),
        ("RoundSettled", {"seats": ["seat 0"]}),
        ("RoundStarted", {"bets": [{"seat": 0, "wagers": {"ante": "5"}, "positions": []}]}),
        ("RoundStarted", {"bets": [{"seat": 0, "wagers": ["ante"], "positions": []}]}),
        ("RoundStarted", {"bets": [{"seat": 0, "wagers": {}, "positions": "048"}]}),
    ],
)
def test_a_malformed_record_in_a_row_is_a_decode_error(kind, data):
    base = {
        "RoundSettled": {"at": 1, "game_number": 1, "seats": []},
        "RoundStarted": {"at": 1, "game_number": 1, "edition": "x", "paytables": {}, "bets": []},
    }[kind]
    text = json.dumps({"kind": kind, "data": {**base, **data}})
    with pytest.raises(e.EventDecodeError):
        e.decode(text)
