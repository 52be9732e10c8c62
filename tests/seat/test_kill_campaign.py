"""The kill campaign (``tox -e table-campaign``): a table controller and seat terminals, real
processes on real gRPC, SIGKILLed at random instants and restarted; after each kill the killed
side's journal holds nothing doubled or dealt twice, and at the end both journals reconcile
to the cent (every seat's credits and meters, every settled round card for card).

``TABLE_CAMPAIGN_KILLS`` (default 200) is the number of kills of each kind."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

from kiosk.table.core import events as te
from kiosk.table.core.journal import TableJournal
from kiosk.terminal.core import events as e
from kiosk.terminal.store.journal import Journal
from kiosk.terminal.store.reader import read_transaction
from tests.helpers.campaign_progress import campaign_progress
from tests.helpers.seat_table import Table, reconcile


def _controller_whole(table: Table) -> None:
    if not table.journal_path.exists():
        return  # killed before it opened its journal
    journal = TableJournal(table.journal_path, "T1")  # opening checks the hash chain
    try:
        events = list(journal.events())
    finally:
        journal.close()
    opened = [ev.game_number for ev in events if isinstance(ev, te.RoundOpened)]
    assert len(opened) == len(set(opened))
    for kind in (te.FirstDealt, te.SecondDealt, te.RoundSettled, te.RoundVoided):
        counts = Counter(ev.game_number for ev in events if isinstance(ev, kind))
        assert all(n == 1 for n in counts.values()), kind
    wagers = Counter((ev.game_number, ev.seat) for ev in events if isinstance(ev, te.WagerAccepted))
    assert all(n == 1 for n in wagers.values())


def _seat_whole(table: Table, n: int) -> None:
    if not table.seat_dir(n).exists():
        return
    journal = Journal(table.seat_dir(n), readonly=True)
    try:
        with read_transaction(journal):
            rows = [row.event for row in journal.rows(after=0)]
    finally:
        journal.close()
    started = Counter(ev.table_game for ev in rows if isinstance(ev, e.TableRoundJoined))
    assert all(v == 1 for v in started.values()), f"seat {n}: a table game bet twice"
    ended = Counter(ev.game_number for ev in rows if isinstance(ev, e.RoundSettled | e.RoundVoided))
    assert all(v == 1 for v in ended.values()), f"seat {n}: a round paid or returned twice"


def _kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)


@pytest.mark.table_campaign
@pytest.mark.timeout(4 * 3600)  # the campaign, not the default run's 300 s per test
@pytest.mark.parametrize("edition", ["stadium-3cp", "turbo-football"])
def test_controller_and_seat_kills_lose_and_double_nothing(edition: str, tmp_path: Path) -> None:
    kills = int(os.environ.get("TABLE_CAMPAIGN_KILLS", "200"))
    rand = random.Random(14)
    table = Table(tmp_path, edition, seats=3, betting=0.5, decision=0.3)
    controller = table.serve()
    seats = {n: table.seat(n, seed=n) for n in range(table.seats)}
    done = Counter[str]()
    started = time.monotonic()
    progress = campaign_progress(f"table kill campaign {edition}", 2 * kills, "kills")
    try:
        while done["controller"] < kills or done["seat"] < kills:
            progress.update(done.total())
            time.sleep(rand.uniform(0.5, 3.5))  # long enough that rounds get played between kills
            if done["seat"] >= kills or (done["controller"] < kills and rand.random() < 0.5):
                _kill(controller)
                _controller_whole(table)
                done["controller"] += 1
                controller = table.serve()
            else:
                n = rand.randrange(table.seats)
                _kill(seats[n])
                _seat_whole(table, n)
                done["seat"] += 1
                seats[n] = table.seat(n, seed=rand.randrange(1 << 30))
        # the end: each seat finishes what it has in play and one more round, then stops
        for n, process in seats.items():
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
            seats[n] = table.seat(n, rounds=1, seed=n)
        for process in seats.values():
            _, err = process.communicate(timeout=300)
            assert process.returncode == 0 and "Traceback" not in err, err
    finally:
        progress.close()
        for process in [controller, *seats.values()]:
            if process.poll() is None:
                process.kill()
                process.wait()
    books = reconcile(table)
    minutes = (time.monotonic() - started) / 60
    print(
        f"\nkill campaign {edition}: {done['controller']} controller kills, {done['seat']} seat "
        f"kills in {minutes:.1f} min; {books}"
    )
    assert books.settled_seat_rounds > 0
