"""Real processes for the seat tests: a table controller (``turbokiosk table serve``), seated
terminals (``turbokiosk seat``), and the reconciliation of both journals to the cent."""

from __future__ import annotations

import socket
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.table.core import events as te
from kiosk.table.core.core import DealMode, TableConfig, TableCore
from kiosk.table.core.journal import TableJournal
from kiosk.table.core.meters import SeatMeters, table_meters
from kiosk.terminal.core import events as e
from kiosk.terminal.hostlink import pki
from kiosk.terminal.store.journal import Journal
from kiosk.terminal.store.reader import current_state, read_transaction
from tests.helpers.table_cli import env, turbokiosk


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Table:
    """One table and its seats' data directories under ``root``."""

    root: Path
    edition: str
    mode: str = "one-deck"
    seats: int = 2
    betting: float = 0.4
    decision: float = 0.3
    auto_deal: float = 0.1
    port: int = field(default_factory=free_port)

    def __post_init__(self) -> None:
        pki.ensure_pki(self.pki, ("table-T1", *(f"seat-{n}" for n in range(self.seats))))

    @property
    def pki(self) -> Path:
        return self.root / "pki"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def journal_path(self) -> Path:
        return self.root / "table" / "table-T1.sqlite3"

    def seat_dir(self, n: int) -> Path:
        return self.root / f"seat-{n}" / "data"

    def serve(self) -> subprocess.Popen[str]:
        args = [
            *["table", "--data-dir", str(self.root / "table"), "serve"],
            *["--edition", self.edition, "--mode", self.mode, "--pki-dir", str(self.pki)],
            *["--listen", self.address, "--betting-seconds", str(self.betting)],
            *["--decision-seconds", str(self.decision), "--auto-deal", str(self.auto_deal)],
        ]
        return subprocess.Popen(
            turbokiosk(*args),
            env=env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )

    def seat(self, n: int, rounds: int = 0, seed: int | None = None) -> subprocess.Popen[str]:
        args = [
            *["seat", "--data-dir", str(self.seat_dir(n)), "--table", self.address],
            *["--seat", str(n), "--pki-dir", str(self.pki), "--edition", self.edition],
            *["--rounds", str(rounds)],
            *(["--seed", str(seed)] if seed is not None else []),
        ]
        return subprocess.Popen(
            turbokiosk(*args), env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )


@dataclass
class Books:
    """What the reconciliation found (counts, for the report)."""

    settled_seat_rounds: int = 0
    voided_seat_rounds: int = 0
    returned_not_taken: int = 0
    games: int = 0


def reconcile(table: Table) -> Books:
    """Both journals agree: every seat's credits and meters to the cent, every settled round
    card for card, no wager or win doubled, no card dealt twice in a round."""
    books = Books()
    journal = TableJournal(table.journal_path, "T1")
    try:
        events = list(journal.events())
        opened = [ev.game_number for ev in events if isinstance(ev, te.RoundOpened)]
        assert len(opened) == len(set(opened)), "a game number opened twice"
        books.games = len(opened)
        for kind in (te.FirstDealt, te.SecondDealt, te.RoundSettled):
            dealt = Counter(ev.game_number for ev in events if isinstance(ev, kind))
            assert all(n == 1 for n in dealt.values()), f"{kind.__name__} twice in a round"
        bets = Counter(
            (ev.game_number, ev.seat) for ev in events if isinstance(ev, te.WagerAccepted)
        )
        assert all(n == 1 for n in bets.values()), "a wager journaled twice by the controller"
        settled = {
            (ev.game_number, o.seat): (ev.game_number, o)
            for ev in events
            if isinstance(ev, te.RoundSettled)
            for o in ev.outcomes
        }
        voided = {
            (ev.game_number, seat): cents
            for ev in events
            if isinstance(ev, te.RoundVoided)
            for seat, cents in ev.returns
        }
        records = {g: journal.recall(g) for g in opened}
    finally:
        journal.close()
    meters = table_meters(events)
    core = TableCore(TableConfig("T1", table.edition, mode=DealMode(table.mode)))
    core.apply(events)
    assert core.state.meters == meters.table, "the meters command folds as the core does"
    for n in range(table.seats):
        seat = Journal(table.seat_dir(n), readonly=True)
        try:
            with read_transaction(seat):
                state = current_state(seat).state
                rows = [row.event for row in seat.rows(after=0)]
                recall = {
                    r["table_game"]: r for r in seat.recall(last=10**6) if r.get("table_game")
                }
        finally:
            seat.close()
        started = Counter(ev.table_game for ev in rows if isinstance(ev, e.TableRoundJoined))
        assert all(k and v == 1 for k, v in started.items()), f"seat {n}: a table game bet twice"
        assert state.round is None or state.round.settlement or state.round.voided, (
            f"seat {n} stopped with a round in progress"
        )
        mine = {g: o for (g, s), (_, o) in settled.items() if s == n}
        stake = sum(o.stake for o in mine.values())
        paid = sum(o.paid for o in mine.values())
        for game, outcome in mine.items():
            rec = recall.get(game)
            assert rec is not None, f"seat {n}: table game {game} settled on the controller only"
            (result,) = rec["settlement"]
            assert (result["stake"], result["paid"]) == (outcome.stake, outcome.paid)
            table_record = records[game]
            first = table_record.first if table_record else None
            if table_record is not None:  # closed: the recall; else the settled round
                assert rec["first"] == list(first or ()), f"seat {n} game {game}: first deal"
                assert rec["second_shared"] == list(table_record.shared_second)
            assert rec["seat_cards"] == [list(outcome.cards)], f"seat {n} game {game}: cards"
            books.settled_seat_rounds += 1
        for game, rec in recall.items():
            if rec.get("voided"):
                returned = voided.get((game, n))
                if returned is not None:
                    books.voided_seat_rounds += 1
                    back = sum(sum(b["wagers"].values()) for b in rec["bets"])
                    assert returned == back + sum(rec["extra"].values()), f"seat {n} game {game}"
                else:
                    assert (game, n) not in bets, f"seat {n}: game {game} taken yet returned"
                    books.returned_not_taken += 1
            else:
                assert game in mine, f"seat {n}: table game {game} settled on the seat only"
        m = state.lifetime
        at_table = meters.seats.get(n, SeatMeters())
        assert (at_table.wagered, at_table.paid, at_table.rounds) == (stake, paid, len(mine))
        not_taken = sum(
            sum(sum(b["wagers"].values()) for b in rec["bets"])
            for g, rec in recall.items()
            if rec.get("voided") and (g, n) not in voided
        )
        assert m["voided_returns"] == at_table.returned + not_taken, f"seat {n}: returned"
        assert m["coin_in"] - m["voided_returns"] == stake, f"seat {n}: wagered"
        assert m["coin_out"] + m["handpaid_jackpots"] == paid, f"seat {n}: paid"
        assert state.credits[0] == m["bills_in"] - stake + paid - m["handpaid_jackpots"], n
    return books
