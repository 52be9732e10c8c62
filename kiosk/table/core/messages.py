"""The table protocol's messages (``proto/turbokiosk/v1/table.proto``) to and from the core.

:func:`command_of` turns what a seat sends into a core command (refusing another table, an
empty message or a malformed bet with :class:`~kiosk.table.core.commands.InvalidArgumentError`);
:func:`step_for_seat` turns a journaled event into what one seat is told of it (``None`` when
the event is not that seat's business: another seat's wager, decision or cards).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Protocol

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.core import RoundRecord
from proto.turbokiosk.v1 import table_pb2 as pb

#: the largest stake one report may name, in cents (a bound on malformed input, not a limit)
MAX_CENTS = 10**9


def command_of(request: pb.SeatRequest, table_id: str) -> c.Command:
    """The core command a seat's message asks for."""
    kind = request.WhichOneof("body")
    if kind is None:
        raise c.InvalidArgumentError("an empty seat message")
    body = getattr(request, kind)
    if body.table_id != table_id:
        raise c.InvalidArgumentError(f"this is table {table_id!r}, not {body.table_id!r}")
    if kind == "join":
        return c.Join(body.seat)
    if kind == "leave":
        return c.Leave(body.seat)
    if kind == "decision":
        return c.ReportDecision(body.table_id, body.game_number, body.seat, body.choice)
    spots = [w.spot for w in body.wagers]
    if len(set(spots)) != len(spots):
        raise c.InvalidArgumentError("a bet names each spot once")
    if not all(0 < w.cents <= MAX_CENTS for w in body.wagers):
        raise c.InvalidArgumentError(f"a stake is 1..{MAX_CENTS} cents")
    bet = e.Bet(
        tuple(sorted((w.spot, w.cents) for w in body.wagers)), tuple(int(p) for p in body.positions)
    )
    return c.ReportWager(body.table_id, body.game_number, body.seat, bet)


def _wagers(bet: e.Bet) -> list[pb.Wager]:
    return [pb.Wager(spot=spot, cents=cents) for spot, cents in bet.wagers]


#: events no seat is told of: seats coming and going, the card checks and tilts (the Dealer
#: Terminal's business until the supervisor decides), the dealer's PINs and audit
NOT_FOR_SEATS = (
    e.SeatJoined
    | e.SeatLeft
    | e.DeckChecked
    | e.CardTilted
    | e.TiltCleared
    | e.DealerPinSet
    | e.DealerPinRefused
    | e.DealerAudited
)


def _pause_step(
    event: e.TablePaused | e.TableResumed,
    seq: int,
    table_id: str,
    seat: int,
    game_number: int,
    now_ms: int,
) -> pb.SeatResponse:
    out = pb.SeatResponse(table_id=table_id, game_number=game_number, seat=seat, journal_seq=seq)
    if isinstance(event, e.TablePaused):
        out.table_paused.CopyFrom(pb.TablePaused(reason=event.reason, time_left_ms=event.time_left))
    else:
        out.table_resumed.CopyFrom(
            pb.TableResumed(
                betting_deadline_ms=event.betting_deadline,
                decision_deadline_ms=event.decision_deadline,
                now_ms=now_ms,
            )
        )
    return out


def addressees(event: e.Event, seats: Collection[int]) -> Iterable[int]:
    """The ``seats`` that :func:`step_for_seat` tells something of ``event``, or a superset
    (a seat's own wager or decision is its business only; nobody's, what no seat is told)."""
    if isinstance(event, NOT_FOR_SEATS):
        return ()
    if isinstance(event, e.WagerAccepted | e.DecisionMade):
        return (event.seat,) if event.seat in seats else ()
    return seats


def step_for_seat(
    event: e.Event,
    seq: int,
    table_id: str,
    seat: int,
    now_ms: int = 0,
    *,
    game_number: int = 0,
) -> pb.SeatResponse | None:
    """What ``seat`` is told of journal row ``seq`` (``None``: nothing).  ``game_number``: the
    round in progress, for the steps of the table that belong to no round (pause, resume)."""
    if isinstance(event, NOT_FOR_SEATS):
        return None
    if isinstance(event, e.WagerAccepted | e.DecisionMade) and event.seat != seat:
        return None
    if isinstance(event, e.TablePaused | e.TableResumed):
        return _pause_step(event, seq, table_id, seat, game_number, now_ms)
    out = pb.SeatResponse(
        table_id=table_id, game_number=event.game_number, seat=seat, journal_seq=seq
    )
    if isinstance(event, e.PackLaid):
        shown = event.seat in (-1, seat)
        out.pack_laid.CopyFrom(
            pb.PackLaid(
                pack=event.pack, location=event.location, cards=event.cards if shown else ()
            )
        )
    elif isinstance(event, e.RoundOpened):
        out.round_opened.CopyFrom(
            pb.RoundOpened(betting_deadline_ms=event.betting_deadline, now_ms=now_ms)
        )
    elif isinstance(event, e.WagerAccepted):
        out.wager_accepted.CopyFrom(
            pb.WagerAccepted(wagers=_wagers(event.bet), positions=event.bet.positions)
        )
    elif isinstance(event, e.BetsClosing):
        out.bets_closing.CopyFrom(
            pb.BetsClosing(betting_deadline_ms=event.betting_deadline, now_ms=now_ms)
        )
    elif isinstance(event, e.BetsClosed):
        out.bets_closed.CopyFrom(pb.BetsClosed(seats=event.seats))
    elif isinstance(event, e.FirstDealt):
        dealt = pb.FirstDealt(
            cards=event.cards, decision_deadline_ms=event.decision_deadline, now_ms=now_ms
        )
        for offer in event.offers:
            if offer.seat == seat:
                dealt.offer.CopyFrom(
                    pb.Offer(
                        choices=offer.choices,
                        default_choice=offer.default,
                        take=offer.take,
                        extra_wager_cents=offer.extra_wager,
                    )
                )
        out.first_dealt.CopyFrom(dealt)
    elif isinstance(event, e.DecisionMade):
        out.decision_accepted.CopyFrom(pb.DecisionAccepted(choice=event.choice))
    elif isinstance(event, e.DecisionsClosed):
        default = dict(event.defaulted).get(seat)
        out.decisions_closed.CopyFrom(
            pb.DecisionsClosed(choice=default or "", defaulted=default is not None)
        )
    elif isinstance(event, e.SecondDealt):
        mine = dict(event.seat_cards).get(seat, ())
        out.second_dealt.CopyFrom(pb.SecondDealt(seat_cards=mine, shared_cards=event.shared))
    elif isinstance(event, e.RoundSettled):
        outcome = outcome_of(event.outcomes, seat)
        if outcome is None:
            return None
        out.seat_settled.CopyFrom(seat_settled(outcome))
    elif isinstance(event, e.RoundClosed):
        out.round_closed.CopyFrom(pb.RoundClosed())
    else:
        out.round_voided.CopyFrom(round_voided(event.reason, event.returns, seat))
    return out


class _Recalls(Protocol):
    def recall(self, game_number: int) -> RoundRecord | None: ...


def wager_results(outcome: e.SeatOutcome) -> list[pb.WagerResult]:
    """Each of a seat's wager lines as the protocol carries it (cents, odds)."""
    return [
        pb.WagerResult(
            spot=w.spot,
            stake_cents=w.stake,
            paid_cents=w.paid,
            outcome=w.outcome,
            odds_numerator=w.odds_num,
            odds_denominator=w.odds_den,
        )
        for w in outcome.wagers
    ]


def outcome_of(outcomes: Iterable[e.SeatOutcome], seat: int) -> e.SeatOutcome | None:
    """The seat's outcome of a round, or None when the seat had none."""
    return next((o for o in outcomes if o.seat == seat), None)


def round_voided(reason: str, returns: Iterable[tuple[int, int]], seat: int) -> pb.RoundVoided:
    """A void as ``seat`` hears it: the reason and what it gets back (cents)."""
    return pb.RoundVoided(reason=reason, returned_cents=dict(returns).get(seat, 0))


def seat_settled(outcome: e.SeatOutcome) -> pb.SeatSettled:
    """A seat's result: its wager lines and totals."""
    return pb.SeatSettled(
        results=wager_results(outcome), stake_cents=outcome.stake, paid_cents=outcome.paid
    )


def finished_round(
    recalls: _Recalls, table_id: str, seat: int, game_number: int
) -> pb.SeatResponse:
    """A finished round as ``seat`` needs it to settle after a drop (from the recall): its
    cards, choice and result, or the void and its return, or ``played=False`` when the round
    never took the seat's wager (never recorded, or without a bet of this seat)."""
    record = recalls.recall(game_number)
    out = pb.SeatResponse(table_id=table_id, game_number=game_number, seat=seat)
    done = pb.FinishedRound(played=False)
    if record is not None and seat in dict(record.bets):
        done.played = True
        done.first_cards.extend(record.first)
        done.shared_cards.extend(record.shared_second)
        if record.voided is not None:
            done.voided.CopyFrom(round_voided(record.voided, record.returns, seat))
        outcome = outcome_of(record.outcomes, seat)
        if outcome is not None:
            done.choice = outcome.choice or ""
            done.seat_cards.extend(outcome.cards)
            done.settled.CopyFrom(seat_settled(outcome))
    out.finished_round.CopyFrom(done)
    return out
