"""The dealer's commands and the physical card sources in the table core (sans-IO, fast).

Each dealer command (close bets, lay a pack, Confirm, pause, resume, void, re-read) and each
card fault the one check catches (a misread, a duplicate card in a pack or in the round, a
short deck, a jam, a pack out of turn, an incomplete pack) are checked against the core's
state and events; replaying the events rebuilds the same state.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kiosk.kernel.games.base import SeatBet
from kiosk.kernel.games.registry import load_game
from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.core import (
    LAST_CALL_MS,
    CardSource,
    DealMode,
    Phase,
    TableConfigError,
    TableCore,
)
from kiosk.table.core.dealer_access import DealerAccess, DealerRole, LockoutPolicy, PinPolicyError
from kiosk.terminal.core.pins import KdfParams
from tests.helpers.table import STADIUM, TURBO, config, stadium_bet, turbo_bet

FAST_KDF = KdfParams(n=2**4, r=1, p=1)
DECK = tuple(range(51, -1, -1))
READ = c.DeckReading(7, DECK)


def physical(source: CardSource, edition: str = STADIUM) -> TableCore:
    return TableCore(dataclasses.replace(config(edition), card_source=source))


def step(core: TableCore, cmd: c.Command, now: int = 0) -> list[e.Event]:
    events = core.handle(cmd, now)
    core.apply(events)
    return events


def replayed(core: TableCore, events: list[e.Event]) -> TableCore:
    twin = TableCore(core.config)
    twin.apply(events)
    return twin


def bets_closed(core: TableCore, seats: int = 2, log: list[e.Event] | None = None) -> None:
    log = log if log is not None else []
    for seat in range(seats):
        log += step(core, c.Join(seat))
    log += step(core, c.OpenRound())
    for seat in range(seats):
        bet = stadium_bet() if core.config.edition == STADIUM else turbo_bet()
        log += step(core, c.ReportWager("T1", 1, seat, bet), 10)
    log += step(core, c.CloseBets(1), 20)


def lay(core: TableCore, pack: int, cards: tuple[int, ...], **kw: object) -> list[e.Event]:
    presented_as = kw.pop("presented_as", pack)
    assert isinstance(presented_as, int)
    cmd = c.LayPack(1, pack, cards, presented_as, **kw)  # type: ignore[arg-type]
    return step(core, cmd, 30 + pack)


def test_close_bets_early_closes_before_the_countdown() -> None:
    core = physical(CardSource.MANUAL)
    log: list[e.Event] = []
    bets_closed(core, log=log)
    assert core.state.phase is Phase.BETS_CLOSED
    assert log[-1] == e.BetsClosed(20, 1, (0, 1))  # the countdown ran to 1000
    with pytest.raises(c.IllegalCommandError):
        core.handle(c.CloseBets(1), 21)
    empty = physical(CardSource.MANUAL)
    step(empty, c.OpenRound())
    assert [type(x) for x in step(empty, c.CloseBets(1), 5)] == [e.BetsClosed, e.RoundClosed]
    other = physical(CardSource.MANUAL)
    step(other, c.OpenRound())
    with pytest.raises(c.StaleReportError):
        other.handle(c.CloseBets(9), 0)


def test_a_manual_stadium_round_pack_by_pack_then_confirm_settles() -> None:
    core = physical(CardSource.MANUAL)
    log: list[e.Event] = []
    bets_closed(core, log=log)
    assert [(s.pack, s.location) for s in core.pack_plan()] == [
        (1, "array 1-3"),
        (2, "array 4-6"),
        (3, "array 7-9"),
    ]
    assert core.draws_needed() == ()  # nothing is drawn from the RNG
    log += lay(core, 1, (0, 1, 2))
    log += lay(core, 2, (3, 4, 5))
    assert core.state.phase is Phase.BETS_CLOSED
    events = lay(core, 3, (6, 7, 8))
    log += events
    assert isinstance(events[0], e.PackLaid) and isinstance(events[1], e.FirstDealt)
    assert core.state.round is not None and core.state.round.first == tuple(range(9))
    log += step(core, c.ReportDecision("T1", 1, 0, "play"), 40)
    log += step(core, c.Tick(), 5000)  # seat 1 times out: folded
    assert core.state.phase is Phase.DEALING and core.state.round.timed_out == {1}
    assert [(s.pack, s.location) for s in core.pack_plan()] == [(4, "dealer")]
    with pytest.raises(c.IllegalCommandError, match="pack 4"):
        core.handle(c.CloseRound(), 50)
    log += lay(core, 4, (20, 21, 22))
    assert core.state.phase is Phase.DEALING  # laid, not settled: the dealer confirms
    events = step(core, c.CloseRound(), 60)
    log += events
    assert [type(x) for x in events] == [e.SecondDealt, e.RoundSettled, e.RoundClosed]
    game = load_game(STADIUM)
    settled = events[1]
    assert isinstance(settled, e.RoundSettled)
    for outcome, choice in zip(settled.outcomes, ["play", "fold"], strict=True):
        pure = game.settle(
            SeatBet({"ante": 100}, (0, 4, 8)), tuple(range(9)), choice, (), (20, 21, 22)
        )
        assert outcome.paid == pure.total_paid
    record = core.state.recall[-1]
    assert record.card_source == "manual" and [p.pack for p in record.packs] == [1, 2, 3, 4]
    assert repr(replayed(core, log).state) == repr(core.state)


def test_a_manual_card_already_on_the_layout_stops_the_round_and_reread_goes_on() -> None:
    core = physical(CardSource.MANUAL)
    log: list[e.Event] = []
    bets_closed(core, log=log)
    log += lay(core, 1, (0, 1, 2))
    events = lay(core, 2, (3, 1, 5))
    log += events
    (tilt,) = events
    assert isinstance(tilt, e.CardTilted) and "card 1 twice in the round" in tilt.reason
    assert core.next_pack() is None
    with pytest.raises(c.IllegalCommandError, match="supervisor"):
        core.handle(c.LayPack(1, 2, (3, 4, 5), 2), 40)
    with pytest.raises(c.InvalidArgumentError):
        core.handle(c.ReRead(1, 3), 40)
    log += step(core, c.ReRead(1, 2, "dealer-1"), 41)
    log += lay(core, 2, (3, 4, 5))
    assert [p.pack for p in core.state.round.packs] == [1, 2]  # type: ignore[union-attr]
    assert repr(replayed(core, log).state) == repr(core.state)


@pytest.mark.parametrize(
    ("cards", "deck", "presented_as", "why"),
    [
        ((0, 255, 2), READ, 1, "card 255 misread"),  # a misread
        ((0, 0, 2), READ, 1, "holds a card twice"),  # a duplicate card in the pack
        ((0, 1), READ, 1, "has 2 cards"),  # an incomplete pack
        ((3, 4, 5), READ, 2, "presented out of turn (expected 1)"),  # out of turn
        ((0, 1, 2), c.DeckReading(8, DECK[:-1]), 1, "fails its check (51 cards read"),  # short
        ((0, 1, 2), c.DeckReading(9, (0,) * 52), 1, "fails its check"),  # a card twice in a deck
    ],
)
def test_every_shuffler_fault_is_caught_by_the_one_check(
    cards: tuple[int, ...], deck: c.DeckReading, presented_as: int, why: str
) -> None:
    core = physical(CardSource.SHUFFLER)
    bets_closed(core)
    events = lay(core, 1, cards, presented_as=presented_as, deck=deck)
    tilt = events[-1]
    assert isinstance(tilt, e.CardTilted) and why in tilt.reason, events
    assert core.state.round is not None and core.state.round.packs == []
    assert core.state.round.tilt == tilt


def test_a_jam_is_a_tilt_and_the_supervisor_voids_every_wager_back() -> None:
    core = physical(CardSource.SHUFFLER)
    bets_closed(core)
    (tilt,) = step(core, c.SourceFault(1, 1, "shuffler: cards jammed"), 30)
    assert isinstance(tilt, e.CardTilted) and tilt.pack == 1
    assert step(core, c.SourceFault(1, 1, "again"), 31) == []  # one tilt at a time
    (void,) = step(core, c.VoidRound("misdeal: jammed shuffler"), 40)
    assert isinstance(void, e.RoundVoided) and void.returns == ((0, 100), (1, 100))
    record = core.state.recall[-1]
    assert record.voided == "misdeal: jammed shuffler" and record.tilts == (tilt,)


def test_the_shuffler_deck_check_is_recorded_with_the_round() -> None:
    core = physical(CardSource.SHUFFLER, TURBO)
    bets_closed(core)
    assert [s.location for s in core.pack_plan()] == ["community"]
    events = lay(core, 1, (51, 50, 49), deck=READ)
    check = events[0]
    assert isinstance(check, e.DeckChecked) and check.passed and check.cards_read == 52
    assert check.shuffle == 7 and len(check.digest) == 64
    step(core, c.Tick(), 5000)  # both seats time out: no raise
    assert [s.location for s in core.pack_plan()] == [
        "seat 0 cards 1-3",
        "seat 0 cards 4-6",
        "seat 1 cards 1-3",
        "seat 1 cards 4-6",
    ]
    for pack, start in zip(range(2, 6), range(48, 36, -3), strict=True):
        got = lay(core, pack, (start, start - 1, start - 2), deck=READ)
        assert [type(x) for x in got] == [e.PackLaid]  # checked once a shuffle
    step(core, c.CloseRound(), 100)
    assert core.state.recall[-1].deck_checks == (check,)
    assert core.state.recall[-1].outcomes[0].cards == (48, 47, 46, 45, 44, 43)


def test_a_repeated_lay_is_answered_once_and_a_pack_out_of_order_refused() -> None:
    core = physical(CardSource.MANUAL)
    bets_closed(core)
    lay(core, 1, (0, 1, 2))
    with pytest.raises(c.DuplicateReportError):
        core.handle(c.LayPack(1, 1, (0, 1, 2), 1), 40)
    with pytest.raises(c.ReportMismatchError):
        core.handle(c.LayPack(1, 1, (9, 10, 11), 1), 40)
    with pytest.raises(c.InvalidArgumentError, match="expected 2"):
        core.handle(c.LayPack(1, 3, (9, 10, 11), 3), 40)
    with pytest.raises(c.StaleReportError):
        core.handle(c.LayPack(2, 2, (9, 10, 11), 2), 40)


def test_pause_holds_the_countdown_and_resume_gives_it_back() -> None:
    core = physical(CardSource.VIRTUAL)
    log = step(core, c.Join(0)) + step(core, c.OpenRound(), 0)
    (paused,) = step(core, c.PauseTable("spill on the layout", "dealer-1"), 400)
    log.append(paused)
    assert isinstance(paused, e.TablePaused)
    assert paused.time_left == 600
    assert step(core, c.Tick(), 5000) == []  # no timer runs while paused
    for cmd in (c.ReportWager("T1", 1, 0, stadium_bet()), c.CloseBets(1), c.PauseTable("x")):
        with pytest.raises(c.IllegalCommandError, match="paused"):
            core.handle(cmd, 5000)
    (resumed,) = step(core, c.ResumeTable("dealer-1"), 10_400)
    log.append(resumed)
    assert isinstance(resumed, e.TableResumed)
    assert resumed.shift == 10_000 and resumed.betting_deadline == 11_000
    assert core.time_left(10_500) == 500
    log += step(core, c.ReportWager("T1", 1, 0, stadium_bet()), 10_900)
    assert [type(x) for x in step(core, c.Tick(), 11_000)] == [e.BetsClosed]
    with pytest.raises(c.IllegalCommandError):
        core.handle(c.ResumeTable(), 11_000)
    with pytest.raises(c.InvalidArgumentError):
        core.handle(c.PauseTable("  "), 11_000)


def test_the_decision_timer_folds_stadium_and_gives_no_raise_in_turbo() -> None:
    for edition, default in ((STADIUM, "fold"), (TURBO, "no_raise")):
        core = physical(CardSource.MANUAL, edition)
        bets_closed(core, seats=1)
        for slot in core.pack_plan():
            lay(core, slot.pack, (3 * slot.pack - 3, 3 * slot.pack - 2, 3 * slot.pack - 1))
        rnd = core.state.round
        assert rnd is not None and core.state.phase is Phase.DECIDING
        offer = rnd.offers[0]
        assert offer.default == default
        (closed,) = step(core, c.Tick(), rnd.decision_deadline)
        assert closed == e.DecisionsClosed(rnd.decision_deadline, 1, ((0, default),))


def test_physical_sources_need_one_deck_and_packs_of_three() -> None:
    cfg = dataclasses.replace(config(TURBO, DealMode.STADIUM), card_source=CardSource.SHUFFLER)
    with pytest.raises(TableConfigError, match="one-deck"):
        TableCore(cfg)
    core = physical(CardSource.VIRTUAL)
    bets_closed(core)
    with pytest.raises(c.IllegalCommandError):
        core.handle(c.LayPack(1, 1, (0, 1, 2), 1), 0)


def test_dealer_pins_lock_out_and_are_journaled() -> None:
    core = physical(CardSource.VIRTUAL)
    access = DealerAccess(FAST_KDF, LockoutPolicy())
    log: list[e.Event] = []

    def sign_in(role: DealerRole, pin: str, now: int) -> bool:
        outcome = access.sign_in(core.state, role, pin, "dealer-1", now)
        core.apply(outcome.events)
        log.extend(outcome.events)
        return outcome.ok

    first = access.sign_in(core.state, DealerRole.DEALER, "4444", "dealer-1", 0)
    assert first.ok and first.must_change
    core.apply(first.events)
    log.extend(first.events)
    with pytest.raises(PinPolicyError):
        access.change_pin(core.state, DealerRole.DEALER, "4444", "dealer-1", 1)
    changed = access.change_pin(core.state, DealerRole.DEALER, "2468", "dealer-1", 1)
    core.apply(changed)
    log.extend(changed)
    assert not any("2468" in repr(ev) for ev in log)  # only the salted hash is kept
    assert not sign_in(DealerRole.DEALER, "0000", 10)
    assert not sign_in(DealerRole.DEALER, "0000", 20)
    third = access.sign_in(core.state, DealerRole.DEALER, "0000", "dealer-1", 30)
    assert third.error == "RoleLockedOut" and third.locked_until == 30_030
    core.apply(third.events)
    log.extend(third.events)
    locked = access.sign_in(core.state, DealerRole.DEALER, "2468", "dealer-1", 40)
    assert not locked.ok and locked.error == "RoleLockedOut"  # the right PIN, not even checked
    core.apply(locked.events)
    log.extend(locked.events)
    assert sign_in(DealerRole.DEALER, "2468", 30_031)
    assert core.state.pins["dealer"].failures == 0
    assert replayed(core, log).state.pins == core.state.pins
    audits = [ev for ev in log if isinstance(ev, e.DealerAudited)]
    assert [a.outcome for a in audits] == [
        "ok",
        "ok",
        "refused",
        "refused",
        "refused",
        "refused",
        "ok",
    ]
    assert sign_in(DealerRole.SUPERVISOR, "5555", 30_040)  # its own factory PIN


def test_a_controller_restarted_mid_deal_keeps_the_packs_laid(tmp_path: Path) -> None:
    """Packs, a tilt, a pause and the dealer's PINs are journaled: a controller reopened on
    the same SQLite file has them, and the round goes on from the next pack."""
    from kiosk.table.core.controller import TableController

    cfg = dataclasses.replace(config(STADIUM), card_source=CardSource.MANUAL)
    path = tmp_path / "table.sqlite3"

    def no_deck(_: frozenset[int]) -> object:
        raise AssertionError("a manual table draws nothing")

    first = TableController(cfg, path, no_deck)  # type: ignore[arg-type]
    for seat in (0, 1):
        first.execute(c.Join(seat), 0)
    first.execute(c.OpenRound(), 0)
    for seat in (0, 1):
        first.execute(c.ReportWager("T1", 1, seat, stadium_bet()), 10)
    first.execute(c.CloseBets(1), 20)
    first.execute(c.LayPack(1, 1, (0, 1, 2), 1), 30)
    first.execute(c.LayPack(1, 2, (3, 4, 0), 2), 40)  # card 0 again: a tilt
    first.execute(c.PauseTable("supervisor called", "dealer-1"), 45)
    access = DealerAccess(FAST_KDF)
    first.record(access.sign_in(first.state, DealerRole.SUPERVISOR, "5555", "dealer-1", 50).events)
    before = repr(first.state)
    first.close()

    again = TableController(cfg, path, no_deck)  # type: ignore[arg-type]
    try:
        assert repr(again.state) == before
        rnd = again.state.round
        assert rnd is not None and rnd.tilt is not None and [p.pack for p in rnd.packs] == [1]
        assert again.state.paused is not None and "supervisor" in again.state.pins
        again.execute(c.ResumeTable("dealer-1"), 60)
        again.execute(c.ReRead(1, 2, "dealer-1"), 61)
        again.execute(c.LayPack(1, 2, (3, 4, 5), 2), 62)
        events = again.execute(c.LayPack(1, 3, (6, 7, 8), 3), 63)
        first_dealt = next(ev for ev in events if isinstance(ev, e.FirstDealt))
        assert first_dealt.cards == tuple(range(9))
        with pytest.raises(ValueError, match="only the dealer's"):
            again.record([e.RoundClosed(70, 1)])
    finally:
        again.close()


def test_an_early_close_is_a_last_call_for_the_seats_still_to_report() -> None:
    """Decision 0064: a seat at the table without a report yet gets LAST_CALL_MS to report
    what lies on its felt; bets close when it has, or when the last call runs out."""
    long = dataclasses.replace(config(STADIUM), card_source=CardSource.MANUAL, betting_ms=60_000)
    core = TableCore(long)
    log: list[e.Event] = []
    for seat in (0, 1):
        log += step(core, c.Join(seat))
    log += step(core, c.OpenRound())  # the countdown runs to 60 s
    log += step(core, c.ReportWager("T1", 1, 0, stadium_bet()), 10)
    log += step(core, c.CloseBets(1), 20)
    assert log[-1] == e.BetsClosing(20, 1, 20 + LAST_CALL_MS)
    assert core.state.phase is Phase.BETTING and core.state.round is not None
    assert step(core, c.CloseBets(1), 21) == []  # pressed again: the last call runs
    log += step(core, c.ReportWager("T1", 1, 1, stadium_bet()), 22)  # seat 1's felt
    assert log[-2:] == [
        e.WagerAccepted(22, 1, 1, stadium_bet()),
        e.BetsClosed(22, 1, (0, 1)),  # the last seat in: closed at once
    ]
    assert core.state.phase is Phase.BETS_CLOSED
    assert replayed(core, log).state == core.state

    late = TableCore(long)
    for seat in (0, 1):
        step(late, c.Join(seat))
    step(late, c.OpenRound())
    step(late, c.ReportWager("T1", 1, 0, stadium_bet()), 10)
    step(late, c.CloseBets(1), 100)
    deadline = 100 + LAST_CALL_MS
    assert step(late, c.Tick(), deadline - 1) == []
    with pytest.raises(c.IllegalCommandError, match="bets are closed"):
        late.handle(c.ReportWager("T1", 1, 1, stadium_bet()), deadline)  # too late: refused
    assert step(late, c.Tick(), deadline) == [e.BetsClosed(deadline, 1, (0,))]


def test_the_dealers_view_shows_each_seats_state_and_the_next_pack() -> None:
    from kiosk.table.core.dealer_view import table_view
    from proto.turbokiosk.v1 import dealer_pb2 as pb

    core = physical(CardSource.MANUAL)
    for seat in (0, 1, 2):
        step(core, c.Join(seat))
    step(core, c.OpenRound())
    step(core, c.ReportWager("T1", 1, 0, stadium_bet()), 10)
    step(core, c.ReportWager("T1", 1, 1, stadium_bet()), 10)
    view = table_view(core, 20, {0, 2})
    states = {s.seat: (s.state, s.online) for s in view.seats}
    assert states == {
        0: (pb.SEAT_ROUND_STATE_BET, True),
        1: (pb.SEAT_ROUND_STATE_BET, False),  # offline, its wager in the round
        2: (pb.SEAT_ROUND_STATE_BETTING, True),
    }
    assert (view.phase, view.seats_bet, view.seats_in, view.betting_deadline_ms) == (
        "betting",
        2,
        2,
        1000,
    )
    step(core, c.CloseBets(1), 30)  # seat 2 has not reported: the last call runs
    step(core, c.Tick(), 1000)  # ... to the countdown's end, which comes first
    view = table_view(core, 1000, {0, 2}, presented=(1, (5, 6, 7)))
    assert (view.next_step.pack, view.next_step.location) == (1, "array 1-3")
    assert view.next_step.presented and list(view.next_step.cards) == [5, 6, 7]
    assert (view.next_step.packs_in_deal, view.next_step.packs_in_round) == (3, 4)
    for pack in (1, 2, 3):
        lay(core, pack, (3 * pack - 3, 3 * pack - 2, 3 * pack - 1))
    step(core, c.ReportDecision("T1", 1, 0, "play"), 40)
    view = table_view(core, 40, {0, 2})
    now = {s.seat: s.state for s in view.seats}
    assert now[0] == pb.SEAT_ROUND_STATE_DECIDED and now[1] == pb.SEAT_ROUND_STATE_DECIDING
    assert list(view.first_cards) == list(range(9)) and sorted(view.choices) == ["fold", "play"]
    step(core, c.Tick(), 5000)
    view = table_view(core, 5000, {0, 2})
    last = {s.seat: s.state for s in view.seats}
    assert last[1] == pb.SEAT_ROUND_STATE_TIMED_OUT and last[2] == pb.SEAT_ROUND_STATE_WATCHING
    assert view.next_step.location == "dealer"


def test_another_deck_under_the_same_shuffle_number_is_checked_again() -> None:
    core = physical(CardSource.SHUFFLER)
    bets_closed(core)
    lay(core, 1, (51, 50, 49), deck=READ)
    short = c.DeckReading(READ.shuffle, DECK[:-1])  # a restarted shuffler reusing the number
    events = lay(core, 2, (48, 47, 46), deck=short)
    check, tilt = events
    assert isinstance(check, e.DeckChecked) and not check.passed
    assert isinstance(tilt, e.CardTilted) and "fails its check" in tilt.reason
