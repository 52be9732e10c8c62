"""What the Dealer Terminal is shown: the table's state as ``TableView`` and ``RecalledRound``
messages (``proto/turbokiosk/v1/dealer.proto``), built from the core's folded state.

Pure functions of the state (and of what the card source has presented): the view a dealer
sees after a step is the state that step's journaled events made.
"""

from __future__ import annotations

from collections.abc import Collection

from kiosk.table.core import events as e
from kiosk.table.core.core import Phase, RoundRecord, RoundState, TableCore
from kiosk.table.core.messages import wager_results
from proto.turbokiosk.v1 import dealer_pb2 as pb
from proto.turbokiosk.v1 import table_pb2

S = pb.SeatRoundState


def seat_state(phase: Phase, rnd: RoundState | None, seat: int) -> pb.SeatRoundState:
    """How ``seat`` stands in the round (betting, decided, timed out, ...)."""
    if rnd is None:
        return S.SEAT_ROUND_STATE_WATCHING
    if phase is Phase.BETTING:
        return S.SEAT_ROUND_STATE_BET if seat in rnd.bets else S.SEAT_ROUND_STATE_BETTING
    if seat not in rnd.bets:
        return S.SEAT_ROUND_STATE_WATCHING
    if phase is Phase.SETTLED or rnd.outcomes:
        return S.SEAT_ROUND_STATE_SETTLED
    if seat in rnd.timed_out:
        return S.SEAT_ROUND_STATE_TIMED_OUT
    if phase is Phase.DECIDING and seat in rnd.offers and seat not in rnd.decisions:
        return S.SEAT_ROUND_STATE_DECIDING
    if phase in (Phase.DECIDING, Phase.DEALING):
        return S.SEAT_ROUND_STATE_DECIDED
    return S.SEAT_ROUND_STATE_BET


def _seat(core: TableCore, seat: int, online: Collection[int]) -> pb.DealerSeat:
    rnd = core.state.round
    out = pb.DealerSeat(
        seat=seat, state=seat_state(core.state.phase, rnd, seat), online=seat in online
    )
    if rnd is None or seat not in rnd.bets:
        return out
    out.stake_cents = rnd.committed(seat)
    out.positions.extend(rnd.bets[seat].positions)
    out.choice = rnd.decisions.get(seat, "")
    outcome = next((o for o in rnd.outcomes if o.seat == seat), None)
    if outcome is not None:
        out.paid_cents = outcome.paid
        out.cards.extend(outcome.cards)
    else:
        out.cards.extend(rnd.seat_cards.get(seat, ()))
    return out


def _deck_check(check: e.DeckChecked) -> pb.DeckCheck:
    return pb.DeckCheck(
        shuffle=check.shuffle, cards_read=check.cards_read, passed=check.passed, digest=check.digest
    )


def _pack(pack: e.PackLaid) -> pb.LaidPack:
    return pb.LaidPack(pack=pack.pack, location=pack.location, cards=pack.cards)


def table_view(
    core: TableCore,
    now: int,
    online: Collection[int],
    *,
    auto_deal: bool = False,
    presented: tuple[int, tuple[int, ...]] | None = None,
    progressive: pb.ProgressiveDisplay | None = None,
) -> pb.TableView:
    """The table as the dealer sees it at ``now``; ``presented``: the pack number and cards the
    card source presents now (a shuffler's)."""
    state, cfg = core.state, core.config
    rnd = state.round
    view = pb.TableView(
        table_id=cfg.table_id,
        edition=cfg.edition,
        card_source=cfg.card_source.value,
        phase=state.phase.value,
        game_number=rnd.game_number if rnd is not None else state.last_game,
        now_ms=now,
        paused=state.paused is not None,
        pause_reason=state.paused.reason if state.paused is not None else "",
        paused_time_left_ms=core.time_left(now) if state.paused is not None else 0,
        seats_in=len(online),
        auto_deal=auto_deal,
    )
    if progressive is not None:
        view.progressive.CopyFrom(progressive)
    seats = sorted(set(state.seats) | set(online) | (set(rnd.bets) if rnd else set()))
    view.seats.extend(_seat(core, seat, online) for seat in seats)
    if rnd is None:
        last = state.recall[-1] if state.recall else None
        if last is not None and last.game_number == state.last_game and last.voided:
            view.voided_reason = last.voided  # until the next round: each seat's return
            returned = dict(last.returns)
            for row in view.seats:
                if row.seat in returned:
                    row.state = S.SEAT_ROUND_STATE_VOIDED
                    row.returned_cents = returned[row.seat]
        return view
    view.betting_deadline_ms = rnd.betting_deadline
    view.decision_deadline_ms = rnd.decision_deadline
    view.seats_bet = len(rnd.bets)
    view.first_cards.extend(rnd.first)
    view.shared_cards.extend(rnd.shared_second)
    view.packs.extend(_pack(p) for p in rnd.packs)
    choices = {choice for offer in rnd.offers.values() for choice in offer.choices}
    view.choices.extend(sorted(choices))
    if rnd.deck_checks:
        view.deck_check.CopyFrom(_deck_check(rnd.deck_checks[-1]))
    if rnd.tilt is not None:
        tilt = rnd.tilt
        view.tilt.CopyFrom(
            pb.CardTilt(reason=tilt.reason, pack=tilt.pack, cards=tilt.cards, at_ms=tilt.at)
        )
    slot = core.next_pack()
    if slot is not None:
        step = pb.DealStep(
            pack=slot.pack,
            packs_in_deal=len(core.pack_plan()),
            packs_in_round=core.packs_in_round(),
            location=slot.location,
        )
        if presented is not None and presented[0] == slot.pack:
            step.presented = True
            step.cards.extend(presented[1])
        view.next_step.CopyFrom(step)
    return view


def recalled(record: RoundRecord) -> pb.RecalledRound:
    """One finished round of the recall, for the dealer's screen."""
    out = pb.RecalledRound(
        game_number=record.game_number,
        first_cards=record.first,
        shared_cards=record.shared_second,
        voided_reason=record.voided or "",
        card_source=record.card_source,
        packs=[_pack(p) for p in record.packs],
    )
    if record.deck_checks:
        out.deck_check.CopyFrom(_deck_check(record.deck_checks[-1]))
    outcomes = {o.seat: o for o in record.outcomes}
    returns = dict(record.returns)
    for seat, bet in record.bets:
        outcome = outcomes.get(seat)
        row = pb.RecalledSeat(
            seat=seat,
            wagers=[table_pb2.Wager(spot=s, cents=v) for s, v in bet.wagers],
            positions=bet.positions,
            returned_cents=returns.get(seat, 0),
        )
        if outcome is not None:
            row.choice = outcome.choice or ""
            row.cards.extend(outcome.cards)
            row.stake_cents = outcome.stake
            row.paid_cents = outcome.paid
            row.results.extend(wager_results(outcome))
        else:
            row.stake_cents = bet.total
        out.seats.append(row)
    return out
