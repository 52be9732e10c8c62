"""Physical cards under any sequence of dealer inputs (hypothesis, sans-IO, fast): whatever
packs a shuffler or a dealer gives, in any order, with re-reads, pauses and voids, no card is
ever twice in a round, every laid pack passed the one check, every tilt stops the round until
a re-read or a void, and a replay of the events rebuilds the same state.  Also what each seat
is told of a pack, a pause and a resume."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.core import CardSource, Phase, TableCore
from kiosk.table.core.messages import step_for_seat
from tests.helpers.table import STADIUM, TURBO, config, stadium_bet, turbo_bet

#: (which, a pack-number offset, random cards): which < 60 lays the next pack in turn (offset
#: 0) or out of turn, < 68 lays random cards, then re-read, tick, pause/resume, void, Confirm,
#: a source fault
ACTIONS = st.lists(
    st.tuples(
        st.integers(0, 99),
        st.sampled_from([0, 0, 0, 0, 0, 1, -1]),
        st.lists(st.integers(0, 60), max_size=4),
    ),
    min_size=30,
    max_size=80,
)


def _kind(which: int) -> str:
    for bound, kind in (
        (60, "lay-turn"),
        (68, "lay"),
        (78, "reread"),
        (86, "tick"),
        (90, "pause"),
        (92, "void"),
        (97, "confirm"),
    ):
        if which < bound:
            return kind
    return "fault"


@settings(max_examples=20, deadline=None)  # the default run's time: 1-2 s
@given(edition=st.sampled_from([STADIUM, TURBO]), actions=ACTIONS)
def test_no_card_twice_and_a_replay_rebuilds_the_state(
    edition: str, actions: list[tuple[int, int, list[int]]]
) -> None:
    core = TableCore(dataclasses.replace(config(edition), card_source=CardSource.MANUAL))
    log: list[e.Event] = []
    now = 0

    def step(cmd: c.Command) -> None:
        nonlocal now
        now += 100
        try:
            events = core.handle(cmd, now)
        except c.TableCommandError:
            return
        core.apply(events)
        log.extend(events)

    for seat in (0, 1):
        step(c.Join(seat))
    step(c.OpenRound())
    for seat in (0, 1):
        bet = stadium_bet() if edition == STADIUM else turbo_bet()
        step(c.ReportWager("T1", 1, seat, bet))
    step(c.CloseBets(1))
    fresh = iter(range(52))
    for which, offset, cards in actions:
        kind = _kind(which)
        rnd = core.state.round
        slot = core.next_pack()
        pack = slot.pack if slot is not None else 1
        if kind == "lay":
            step(c.LayPack(1, pack, tuple(cards), pack))
        elif kind == "lay-turn":
            good = tuple(next(fresh, 0) for _ in range(3))
            step(c.LayPack(1, pack, good, pack + offset))
        elif kind == "reread" and rnd is not None and rnd.tilt is not None:
            step(c.ReRead(1, rnd.tilt.pack))
        elif kind == "fault":
            step(c.SourceFault(1, pack, "shuffler: jam"))
        elif kind == "tick":
            now += 20_000
            step(c.Tick())
        elif kind == "pause":
            step(c.PauseTable("x") if core.state.paused is None else c.ResumeTable())
        elif kind == "void":
            step(c.VoidRound("misdeal"))
        elif kind == "confirm":
            step(c.CloseRound())
        rnd = core.state.round
        if rnd is not None:
            laid = [x for p in rnd.packs for x in p.cards]
            assert len(laid) == len(set(laid)) and all(0 <= x < 52 for x in laid)
            assert all(len(p.cards) == 3 for p in rnd.packs)
            if rnd.tilt is not None:
                assert core.next_pack() is None
    for record in core.state.recall:
        cards = [x for p in record.packs for x in p.cards]
        assert len(cards) == len(set(cards))
        if record.voided is None:
            assert record.first == tuple(cards[: len(record.first)])
    twin = TableCore(core.config)
    twin.apply(log)
    assert repr(twin.state) == repr(core.state)
    assert core.state.phase in set(Phase)


def test_each_seat_is_told_of_the_packs_and_the_pause() -> None:
    shared = e.PackLaid(10, 1, 1, "community", -1, (1, 2, 3))
    mine = e.PackLaid(11, 1, 2, "seat 4 cards 1-3", 4, (5, 6, 7))
    seen = step_for_seat(shared, 1, "T1", 9)
    assert seen is not None and list(seen.pack_laid.cards) == [1, 2, 3]
    own = step_for_seat(mine, 2, "T1", 4)
    other = step_for_seat(mine, 2, "T1", 9)
    assert own is not None and list(own.pack_laid.cards) == [5, 6, 7]
    assert other is not None and list(other.pack_laid.cards) == []  # not another seat's cards
    assert other.pack_laid.location == "seat 4 cards 1-3"
    paused = step_for_seat(e.TablePaused(20, "spill", "dealer-1", 4000), 3, "T1", 9, game_number=1)
    assert paused is not None and paused.game_number == 1
    assert (paused.table_paused.reason, paused.table_paused.time_left_ms) == ("spill", 4000)
    resumed = step_for_seat(e.TableResumed(30, 10, "dealer-1", 5000, 0), 4, "T1", 9, 30)
    assert resumed is not None and resumed.table_resumed.betting_deadline_ms == 5000
    for hidden in (
        e.CardTilted(1, 1, 1, "x", ()),
        e.DeckChecked(1, 1, 1, 52, "d", True),
        e.DealerAudited(1, "dealer-1", "dealer", "new_game", "ok", ""),
    ):
        assert step_for_seat(hidden, 5, "T1", 9) is None
