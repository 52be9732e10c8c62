"""Robot seats (``turbokiosk table serve --robots N``) in a real process on a real socket: they
play both families for some rounds, and every robot's credits reconcile with the controller's
recall to the cent."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from kiosk.table.core import events as e
from kiosk.table.core.journal import TableJournal
from kiosk.terminal.hostlink import pki
from tests.helpers.table_cli import CREDITS, SUMMARY, env, turbokiosk

ROBOTS = 4
#: what the robots must have played before the table is stopped: finished rounds, seat results
ROUNDS, RESULTS = 3, 3 * ROBOTS // 2


def played_so_far(path: Path) -> tuple[int, int]:
    """(finished rounds, seat results journaled) of the running table, read-only."""
    if not path.exists():
        return 0, 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (finished,) = db.execute("SELECT COUNT(*) FROM recall").fetchone()
        rows = db.execute("SELECT kind, body FROM journal WHERE kind = 'RoundSettled'")
        results = 0
        for kind, body in rows:
            settled = e.decode(kind, body)
            assert isinstance(settled, e.RoundSettled)
            results += len(settled.outcomes)
    except sqlite3.OperationalError:  # the table is creating its journal
        return 0, 0
    finally:
        db.close()
    return int(finished), results


@pytest.mark.parametrize(
    ("edition", "mode"),
    [
        # one table in the default run; the others in `tox -e slow` (the default run's time)
        pytest.param("stadium-3cp", "one-deck", marks=pytest.mark.slow),
        pytest.param("turbo-football", "one-deck", marks=pytest.mark.slow),
        ("turbo-football", "seat-shuffles"),
    ],
)
def test_robots_play_and_reconcile_with_the_recall(edition: str, mode: str, tmp_path: Path) -> None:
    pki.ensure_pki(tmp_path / "pki", ())  # the CA and the host's certificate (host init-ca)
    data = ["table", "--data-dir", str(tmp_path / "table")]
    serve = [
        *["serve", "--edition", edition, "--mode", mode, "--pki-dir", str(tmp_path / "pki")],
        *["--listen", "127.0.0.1:0", "--betting-seconds", "0.3", "--decision-seconds", "0.3"],
        *["--auto-deal", "0.1", "--robots", str(ROBOTS)],
    ]
    server = subprocess.Popen(
        turbokiosk(*data, *serve),
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    assert server.stdout.readline().startswith("table T1: serving on ")
    # play until enough rounds took the robots' wagers (a loaded machine makes robots miss some
    # 0.3 s betting windows: it takes longer, it proves the same)
    path = tmp_path / "table" / "table-T1.sqlite3"
    deadline = time.monotonic() + 120
    while (done := played_so_far(path))[0] < ROUNDS or done[1] < RESULTS:
        assert server.poll() is None, server.communicate()
        assert time.monotonic() < deadline, f"the robots played only {done} in 120 s"
        time.sleep(0.1)
    server.send_signal(signal.SIGTERM)
    out, err = server.communicate(timeout=30)
    assert server.returncode == 0 and "Traceback" not in err, err
    books = {int(m[1]): tuple(map(int, m.groups()[1:])) for m in SUMMARY.finditer(out)}
    assert sorted(books) == list(range(ROBOTS)), out
    journal = TableJournal(tmp_path / "table" / "table-T1.sqlite3", "T1")
    try:
        events = list(journal.events())
        games = [ev.game_number for ev in events if isinstance(ev, e.RoundOpened)]
        net = dict.fromkeys(range(ROBOTS), 0)
        played = dict.fromkeys(range(ROBOTS), 0)
        finished = 0
        settled = {ev.game_number: ev.outcomes for ev in events if isinstance(ev, e.RoundSettled)}
        for game in games:
            record = journal.recall(game)
            if record is not None:
                finished += 1
                assert record.voided is None
                outcomes = record.outcomes
            else:  # only the last round may be unfinished (settled, not yet confirmed)
                assert game == games[-1]
                outcomes = settled.get(game, ())
            for outcome in outcomes:
                net[outcome.seat] += outcome.paid - outcome.stake
                played[outcome.seat] += 1
    finally:
        journal.close()
    assert finished >= ROUNDS, out
    assert sum(played.values()) >= RESULTS
    for seat, (credits, at_stake, rounds, voided, _refused, disagreements) in books.items():
        assert disagreements == 0 and voided == 0
        assert rounds == played[seat]
        assert credits + at_stake == CREDITS + net[seat], (seat, out)
