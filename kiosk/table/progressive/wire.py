"""The progressive's records on the wire (``progressive.proto``) and back."""

from __future__ import annotations

from kiosk.kernel.games.progressive import Contributed, Event, Hit, MeterState
from kiosk.terminal.progressive.journal import BookedRound
from proto.turbokiosk.v1 import progressive_pb2 as pb


def meters_pb(name: str, s: MeterState) -> pb.ProgressiveMeters:
    """The meters as a message."""
    return pb.ProgressiveMeters(
        name=name,
        meter_cents=s.meter_cents,
        meter=s.meter,
        hidden=s.hidden,
        overflow=s.overflow,
        contributed=s.contributed,
        seeded=s.seeded,
        paid_cents=s.paid_cents,
        hits=s.hits,
        wagers=s.wagers,
    )


def meters_of(m: pb.ProgressiveMeters) -> MeterState:
    """The meters of a message."""
    return MeterState(
        m.meter, m.hidden, m.overflow, m.contributed, m.seeded, m.paid_cents, m.hits, m.wagers
    )


def booked_pb(row: BookedRound, name: str, meters: MeterState) -> pb.BookRoundResponse:
    """A booked round and the meters after it, as a message."""
    return pb.BookRoundResponse(
        contributions=[
            pb.ProgressiveContribution(
                key=c.key,
                wager_cents=c.wager_cents,
                to_meter=c.to_meter,
                to_hidden=c.to_hidden,
                to_overflow=c.to_overflow,
            )
            for c in row.contributions
        ],
        hits=[
            pb.ProgressiveHit(
                key=h.key,
                award_cents=h.award_cents,
                from_hidden=h.from_hidden,
                seeded=h.seeded,
                from_overflow=h.from_overflow,
                handpay=h.handpay,
            )
            for h in row.hits
        ],
        meters=meters_pb(name, meters),
    )


def booked_of(source: str, game: int, reply: pb.BookRoundResponse) -> BookedRound:
    """The booked round of a reply."""
    events: list[Event] = [
        Contributed(c.key, c.wager_cents, c.to_meter, c.to_hidden, c.to_overflow)
        for c in reply.contributions
    ]
    events += [
        Hit(h.key, h.award_cents, h.from_hidden, h.seeded, h.from_overflow, h.handpay)
        for h in reply.hits
    ]
    return BookedRound(source, game, tuple(events))
