"""Property tests: random streams of seat commands, timer ticks and controller kills.

Over every stream, checked from the journal: no wager or decision is ever doubled, no card is
dealt twice within a round (one deck) or within a seat's hand (stadium mode), every seat's
result equals the pure game rules' result for its cards, and a controller killed after any
step and replayed has exactly the state it had, and never draws again the cards it drew.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import DealMode, Phase, TableConfig, TableState
from tests.helpers.table import (
    STADIUM,
    TURBO,
    SeededDecks,
    check_journal,
    config,
    stadium_bet,
    turbo_bet,
)

TABLES = {
    "stadium": config(STADIUM),
    "turbo-one-deck": config(TURBO),
    "turbo-stadium-mode": config(TURBO, DealMode.STADIUM),
}
SEATS = st.integers(0, 9)
WAGER = st.tuples(st.just("wager"), SEATS, st.integers(1, 500))
DECIDE = st.tuples(st.just("decide"), SEATS, st.booleans())
TICK = st.tuples(st.just("tick"), st.sampled_from([0, 100, 250, 500, 1000]))
OPEN = st.tuples(st.just("open"), st.just(0))
CLOSE = st.tuples(st.just("close"), st.just(0))
OPS = st.lists(
    st.one_of(  # repeated entries weigh the draw towards rounds that run to the end
        WAGER,
        WAGER,
        WAGER,
        WAGER,
        WAGER,
        DECIDE,
        DECIDE,
        DECIDE,
        TICK,
        TICK,
        OPEN,
        CLOSE,
        st.tuples(st.just("join"), SEATS),
        st.tuples(st.just("leave"), SEATS),
        st.tuples(st.just("retry"), SEATS),
        st.tuples(st.just("kill"), st.just(0)),
    ),
    min_size=30,
    max_size=90,
)


@contextmanager
def scratch_dir() -> Iterator[Path]:
    """A temporary directory, in memory where the machine has one (fsync is then free)."""
    where = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=where) as name:
        yield Path(name)


def bet_for(cfg: TableConfig, seat: int, stake: int) -> e.Bet:
    if cfg.edition == STADIUM:
        first = seat % 7
        return stadium_bet(stake, (first, first + 1, first + 2), pairs=stake % 3)
    return turbo_bet(stake, bonus=stake % 4)


class Run:
    """One stream played on a controller, with the state after every step."""

    def __init__(self, cfg: TableConfig, path: Path, seed: int) -> None:
        self.cfg, self.path, self.decks = cfg, path, SeededDecks(seed)
        self.ctl = TableController(cfg, path, self.decks)
        self.now = 0
        self.sent: dict[tuple[int, int], e.Bet] = {}
        self.boundaries: list[tuple[int, TableState]] = [(0, self._copy())]

    def _copy(self) -> TableState:
        return self.ctl.core.copy().state

    def play(self, op: tuple[object, ...]) -> None:
        kind = op[0]
        state = self.ctl.state
        game = state.round.game_number if state.round else state.last_game
        try:
            if kind == "join":
                self.ctl.execute(c.Join(int(op[1])), self.now)  # type: ignore[call-overload]
            elif kind == "leave":
                self.ctl.execute(c.Leave(int(op[1])), self.now)  # type: ignore[call-overload]
            elif kind == "open":
                self.ctl.execute(c.OpenRound(), self.now)
            elif kind == "wager":
                seat, stake = int(op[1]), int(op[2])  # type: ignore[call-overload]
                bet = bet_for(self.cfg, seat, stake)
                self.ctl.execute(c.ReportWager("T1", game, seat, bet), self.now)
                self.sent[(game, seat)] = bet
            elif kind == "retry":
                seat = int(op[1])  # type: ignore[call-overload]
                if (game, seat) in self.sent:
                    with pytest.raises(c.DuplicateReportError):
                        self.ctl.execute(
                            c.ReportWager("T1", game, seat, self.sent[(game, seat)]), self.now
                        )
            elif kind == "decide":
                seat = int(op[1])  # type: ignore[call-overload]
                offer = state.round.offers.get(seat) if state.round else None
                choice = offer.choices[int(bool(op[2]))] if offer else "play"
                self.ctl.execute(c.ReportDecision("T1", game, seat, choice), self.now)
            elif kind == "tick":
                self.now += int(op[1])  # type: ignore[call-overload]
                self.ctl.execute(c.Tick(), self.now)
            elif kind == "close":
                self.ctl.execute(c.CloseRound(), self.now)
            elif kind == "kill":
                self.kill_and_recover()
        except c.TableCommandError:
            pass
        self.boundaries.append((self.ctl.journal.head[0], self._copy()))

    def kill_and_recover(self) -> None:
        before = self._copy()
        dealt = self.decks.dealt
        self.ctl.close()
        self.ctl = TableController(self.cfg, self.path, self.decks)
        assert self.ctl.state == before
        assert self.decks.dealt == dealt  # replay draws nothing
        self.ctl.resume(self.now)
        if before.round is not None and before.round.first and self.ctl.state.round is not None:
            assert self.ctl.state.round.first == before.round.first


def check_kill_points(run: Run, tmp: Path, picks: list[int]) -> None:
    """The journal cut after a step (a kill there) replays to the state of that step; the
    steps are drawn by hypothesis (any step of the stream may be drawn), plus the last one."""
    chosen = {p % len(run.boundaries) for p in picks} | {len(run.boundaries) - 1}
    for n in sorted(chosen):
        seq, state = run.boundaries[n]
        copy = tmp / f"cut{n}.sqlite3"
        dst = sqlite3.connect(copy)
        run.ctl.journal.db.backup(dst)
        dst.execute("DELETE FROM journal WHERE seq > ?", (seq,))
        # a kill loses a step's recall with its rows (one transaction): the recall is checked
        dst.execute(
            "DELETE FROM recall WHERE game_number NOT IN (SELECT json_extract(body, "
            "'$.game_number') FROM journal WHERE kind IN ('RoundClosed', 'RoundVoided'))"
        )
        dst.commit()
        dst.close()
        decks = SeededDecks(n)
        revived = TableController(run.cfg, copy, decks)
        assert revived.state == state
        assert decks.dealt == 0
        revived.close()
        copy.unlink()


STREAMS = {
    "seated": st.integers(1, 10),
    "ops": OPS,
    "seed": st.integers(0, 2**32),
    "kills": st.lists(st.integers(0, 10**6), min_size=1, max_size=12),
}


@pytest.mark.parametrize("table", sorted(TABLES))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STREAMS)
def test_streams_of_seat_commands_ticks_and_kills(
    table: str, seated: int, ops: list[tuple[object, ...]], seed: int, kills: list[int]
) -> None:
    """20 streams a table in the default run; the 300 of ``tox -e slow`` below."""
    _stream(TABLES[table], seated, ops, seed, kills)


@pytest.mark.slow
@pytest.mark.parametrize("table", sorted(TABLES))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STREAMS)
def test_many_streams_of_seat_commands_ticks_and_kills(
    table: str, seated: int, ops: list[tuple[object, ...]], seed: int, kills: list[int]
) -> None:
    _stream(TABLES[table], seated, ops, seed, kills)


def _stream(
    cfg: TableConfig, seated: int, ops: list[tuple[object, ...]], seed: int, kills: list[int]
) -> None:
    """One stream played on a fresh controller, checked from its journal and at kill points."""
    with scratch_dir() as tmp:
        run = Run(cfg, tmp / "table.sqlite3", seed)
        for seat in range(seated):
            run.play(("join", seat))
        for op in ops:
            run.play(op)
        events = list(run.ctl.journal.events())
        check_journal(cfg, events)
        check_kill_points(run, tmp, kills)
        meters = run.ctl.state.meters
        settled = [o for ev in events if isinstance(ev, e.RoundSettled) for o in ev.outcomes]
        assert meters.wagered == sum(o.stake for o in settled)
        assert meters.paid == sum(o.paid for o in settled)
        run.ctl.close()


def test_streams_reach_every_phase() -> None:
    """The stream strategy is not vacuous: a plain round reaches every phase."""
    with scratch_dir() as tmp:
        run = Run(TABLES["stadium"], tmp / "t.sqlite3", 1)
        seen = set()
        script = [("join", 0), ("open", 0), ("wager", 0, 10), ("retry", 0), ("tick", 1000)]
        script += [("kill", 0), ("decide", 0, True), ("tick", 1000), ("close", 0)]
        for op in script:
            run.play(op)
            seen.add(run.ctl.state.phase)
        # bets-closed and dealing last only while the controller draws (inside one step)
        assert seen == {Phase.IDLE, Phase.BETTING, Phase.DECIDING, Phase.SETTLED}
        run.ctl.close()
