"""Seats' reports arriving together are journaled as one signed commit (decision 0070): the
same rows in the same order as one report after another, each answered only once journaled."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.controller import TableController, TableLockedError
from kiosk.table.core.core import Phase
from kiosk.table.core.messages import addressees, step_for_seat
from kiosk.table.core.record import table_signer
from kiosk.table.core.server import TableServer
from kiosk.terminal.hostlink import pki
from kiosk.terminal.signer.client import SocketSigner
from kiosk.terminal.store.critmem import StoreSigner
from proto.turbokiosk.v1 import table_pb2 as pb
from tests.helpers.table import SeatClient, config, stadium_bet, wait_for

SEATS_N = 4
SEATS = tuple(f"seat-{n}" for n in range(SEATS_N))


class InOrderDeck:
    """A deck that deals the lowest cards not excluded (two tables deal the same cards)."""

    def __init__(self, excluded: frozenset[int]) -> None:
        self.left = [card for card in range(52) if card not in excluded]

    def deal(self, n: int) -> tuple[int, ...]:
        cards, self.left = tuple(self.left[:n]), self.left[n:]
        return cards


def signed(where: Path) -> TableController:
    """A table whose journal is signed by its development signer."""
    where.mkdir(exist_ok=True)
    return TableController(
        config(), where / "table-T1.sqlite3", InOrderDeck, table_signer(where, "T1")
    )


def betting(ctl: TableController) -> None:
    for seat in range(SEATS_N):
        ctl.execute(c.Join(seat), 0)
    ctl.execute(c.OpenRound(), 0)


def rows(ctl: TableController) -> list[tuple[str, str]]:
    return [tuple(r) for r in ctl.journal.db.execute("SELECT kind, body FROM journal ORDER BY seq")]


def heads(ctl: TableController) -> int:
    return int(ctl.journal.db.execute("SELECT count(*) FROM heads").fetchone()[0])


#: wagers of every seat with a refused, a repeated and a conflicting report among them
WAGERS: list[c.Command] = [
    c.ReportWager("T1", 1, 0, stadium_bet(ante=100)),
    c.ReportWager("T1", 9, 1, stadium_bet(ante=100)),  # another round: refused
    c.ReportWager("T1", 1, 1, stadium_bet(ante=101)),
    c.ReportWager("T1", 1, 0, stadium_bet(ante=100)),  # a retry: already journaled
    c.ReportWager("T1", 1, 2, stadium_bet(ante=102)),
    c.ReportWager("T1", 1, 2, stadium_bet(ante=999)),  # another bet for the same key
    c.ReportWager("T1", 1, 3, stadium_bet(ante=103)),
]


def one_by_one(ctl: TableController, cmds: list[c.Command], now: int) -> list[object]:
    out: list[object] = []
    for cmd in cmds:
        try:
            out.append(ctl.execute(cmd, now))
        except c.TableCommandError as exc:
            out.append(type(exc))
    return out


def test_reports_together_journal_every_report_once_in_order_in_one_signed_commit(
    tmp_path: Path,
) -> None:
    serial, grouped = signed(tmp_path / "a"), signed(tmp_path / "b")
    try:
        for ctl in (serial, grouped):
            betting(ctl)
        expected = one_by_one(serial, WAGERS, 10)
        before = heads(grouped)
        got = grouped.execute_reports(WAGERS, 10)
        assert [r if isinstance(r, list) else type(r) for r in got] == expected
        assert isinstance(got[3], c.DuplicateReportError)
        assert rows(grouped) == rows(serial)  # the same rows, in the same order
        accepted = [ev.seat for ev in grouped.journal.events() if isinstance(ev, e.WagerAccepted)]
        assert accepted == [0, 1, 2, 3]
        assert heads(grouped) == before + 1  # one signed head for the run
        assert grouped.state == serial.state
        # all bets in: the bets close at once, as one by one
        assert grouped.state.phase is serial.state.phase
    finally:
        serial.close()
        grouped.close()
    again = signed(tmp_path / "b")  # opening verifies the chain, the signed head, the anchor
    try:
        assert again.state.round is not None and sorted(again.state.round.bets) == [0, 1, 2, 3]
    finally:
        again.close()


def test_a_report_that_makes_the_table_draw_ends_the_run(tmp_path: Path) -> None:
    """The last decision closes the window: its cards are drawn and journaled before the
    reports after it are carried out (as one by one), and they come with its events."""
    serial, grouped = signed(tmp_path / "a"), signed(tmp_path / "b")
    try:
        for ctl in (serial, grouped):
            betting(ctl)
            ctl.execute_reports([c.ReportWager("T1", 1, s, stadium_bet()) for s in range(4)], 10)
            ctl.execute(c.Tick(), 1000)
            assert ctl.state.phase is Phase.DECIDING
        decisions: list[c.Command] = [
            c.ReportDecision("T1", 1, seat, "play") for seat in range(SEATS_N)
        ]
        late: list[c.Command] = [c.ReportDecision("T1", 1, 0, "fold")]
        expected = one_by_one(serial, decisions + late, 1100)
        got = grouped.execute_reports(decisions + late, 1100)
        assert [r if isinstance(r, list) else type(r) for r in got] == expected
        last = got[SEATS_N - 1]
        assert isinstance(last, list) and any(isinstance(ev, e.SecondDealt) for ev in last)
        assert isinstance(got[-1], c.TableCommandError)  # after the window: refused
        assert rows(grouped) == rows(serial)
        assert grouped.state.phase is Phase.SETTLED
    finally:
        serial.close()
        grouped.close()


def test_a_run_that_cannot_be_signed_is_refused_whole_and_locks_the_table(
    tmp_path: Path,
) -> None:
    ctl = signed(tmp_path)
    try:
        betting(ctl)
        head = ctl.journal.head
        assert ctl.journal.signer is not None
        gone = SocketSigner(tmp_path / "gone.sock", timeout=1)
        ctl.journal.signer = StoreSigner(gone, ctl.journal.signer.epoch)
        got = ctl.execute_reports(WAGERS[:3], 10)
        assert isinstance(got[0], TableLockedError) and isinstance(got[2], TableLockedError)
        assert isinstance(got[1], c.TableCommandError)  # refused on its own, before the commit
        assert not isinstance(got[1], TableLockedError)
        assert ctl.journal.head == head and ctl.fault is not None  # nothing written
        later = ctl.execute_reports([WAGERS[4]], 10)
        assert isinstance(later[0], TableLockedError)
    finally:
        ctl.close()


def test_a_seat_is_told_only_its_own_wager_and_decision() -> None:
    wager = e.WagerAccepted(0, 1, 2, stadium_bet())
    made = e.DecisionMade(0, 1, 2, "play")
    seats = {0: None, 1: None, 2: None}
    for event in (wager, made):
        assert list(addressees(event, seats)) == [2]
        assert list(addressees(event, {0: None})) == []
        told = {s for s in range(3) if step_for_seat(event, 5, "T1", s) is not None}
        assert told == {2}
    assert list(addressees(e.SeatJoined(0, 1), seats)) == []
    opened = e.RoundOpened(0, 1, 1000)
    assert list(addressees(opened, seats)) == [0, 1, 2]


@pytest.fixture(scope="module")
def pki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("pki")
    pki.ensure_pki(where, ("table-T1", *SEATS[:SEATS_N]))
    return where


def test_seats_reporting_together_are_answered_in_order_after_one_commit(
    pki_dir: Path, tmp_path: Path
) -> None:
    """Over gRPC: while the table is busy (its lock held), four seats' wagers wait; the first
    reader to get the lock journals all four in one signed commit, and every seat gets its
    acknowledgement with its journal row, and every step in journal order."""
    controller = signed(tmp_path)
    server = TableServer(controller, pki.credentials(pki_dir, "table-T1")).start()
    seats = [SeatClient(server.address, pki.credentials(pki_dir, n)) for n in SEATS[:SEATS_N]]
    try:
        for n, seat in enumerate(seats):
            seat.send(join=pb.JoinTable(table_id="T1", seat=n))
        wait_for(lambda: controller.state.seats == set(range(SEATS_N)))
        server.open_round()
        opened = [seat.next("round_opened") for seat in seats]
        with server.lock:
            for n, seat in enumerate(seats):
                seat.send(wager=wager(n))
            deadline = time.monotonic() + 10
            while len(server._reports) < SEATS_N and time.monotonic() < deadline:
                time.sleep(0.01)
            assert len(server._reports) == SEATS_N
        told = [steps_until(seat, "first_dealt") for seat in seats]
        journaled = {
            ev.seat: seq
            for seq, ev in enumerate(controller.journal.events(), 1)
            if isinstance(ev, e.WagerAccepted)
        }
        first, last = min(journaled.values()), max(journaled.values())
        signed_between = controller.journal.db.execute(
            "SELECT count(*) FROM heads WHERE seq >= ? AND seq < ?", (first, last)
        ).fetchone()[0]
        assert last - first == SEATS_N - 1 and signed_between == 0  # one commit, one head
        for n, steps in enumerate(told):
            acks = [s.journal_seq for s in steps if s.WhichOneof("body") == "wager_accepted"]
            assert acks == [journaled[n]]
            seqs = [opened[n].journal_seq] + [s.journal_seq for s in steps]
            assert seqs == sorted(set(seqs))  # every step once, in journal order
    finally:
        for seat in seats:
            seat.close()
        server.stop()
        controller.close()


def steps_until(seat: SeatClient, kind: str) -> list[pb.SeatResponse]:
    """Every step a seat is told, in order, up to the first of ``kind``."""
    out = []
    while True:
        step = seat.responses.get(timeout=10)
        assert isinstance(step, pb.SeatResponse), step
        out.append(step)
        if step.WhichOneof("body") == kind:
            return out


def wager(seat: int) -> pb.ReportWager:
    """A seat's ante on round 1 (the positions Stadium's array allows)."""
    stake = [pb.Wager(spot="ante", cents=100 + seat)]
    return pb.ReportWager(
        table_id="T1", game_number=1, seat=seat, wagers=stake, positions=[0, 4, 8]
    )


def test_each_commit_is_told_as_soon_as_it_is_journaled_before_the_cards_are_drawn(
    tmp_path: Path,
) -> None:
    """The bets' close is told (journaled) before the first deal is drawn: a server sends it
    while the cards are drawn and journaled; the steps come once each, in journal order."""
    told: list[tuple[list[str], int]] = []
    draws_seen: list[int] = []

    def deck(excluded: frozenset[int]) -> InOrderDeck:
        draws_seen.append(len(told))
        return InOrderDeck(excluded)

    where = tmp_path / "t"
    where.mkdir()
    ctl = TableController(config(), where / "table-T1.sqlite3", deck, table_signer(where, "T1"))
    try:
        ctl.execute(c.Join(0), 0)
        ctl.execute(c.Join(1), 0)
        ctl.execute(c.OpenRound(), 0)
        ctl.execute(c.ReportWager("T1", 1, 0, stadium_bet()), 10)

        def journaled(events: list[e.Event]) -> None:
            told.append(([type(ev).__name__ for ev in events], ctl.journal.head[0]))

        events = ctl.execute(c.Tick(), 1000, journaled=journaled)
        assert [kinds for kinds, _ in told] == [["BetsClosed"], ["FirstDealt"]]
        assert draws_seen == [1]  # the deck was asked after the bets' close was told
        assert [type(ev).__name__ for ev in events] == ["BetsClosed", "FirstDealt"]
        seqs = [seq for _, seq in told]
        assert seqs == sorted(set(seqs)) and seqs[-1] == ctl.journal.head[0]
    finally:
        ctl.close()
