"""Progressive contributions reconciled to the micro-cent after a kill campaign: a linked
progressive controller and two table controllers, each a real process, SIGKILLed at random
instants (any of the three) and restarted; at the end every round each table journaled as
settled is booked exactly once on the progressive's journal, its contribution equal to its
wagers times the rates, and the meters balance (contributed + seeded = meter + hidden +
overflow + paid).  A handful of kills in the default run; ``-m table_campaign``
(``tox -e progressive-campaign``) runs PROGRESSIVE_CAMPAIGN_KILLS (200).

Hits paid (decision 0066): a terminal with its own progressive, a real process playing, is
SIGKILLed at random instants and restarted; at the end every hit the progressive's journal
booked for it is paid once in the terminal's signed journal, to the cent and as its kind
(credits, or a handpay the attendant's key paid), the paid meters equal the awards, every
settled game is booked once, and the terminal's audit passes."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.kernel.games import progressive
from kiosk.table.core.journal import TableJournal
from kiosk.table.progressive.feed import reconcile
from kiosk.terminal.core import events as ev
from kiosk.terminal.progressive.controller import ProgressiveController
from kiosk.terminal.runtime.progressive_pay import paid_problems
from kiosk.terminal.store.audit import audit, rebuild
from kiosk.terminal.store.journal import Journal
from tests.helpers.campaign_progress import campaign_progress
from tests.helpers.progressive import pki_dir, write_frequent

ROOT = Path(__file__).resolve().parents[2]
TABLES = ("T1", "T2")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Rig:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.settings = write_frequent(tmp / "test-6cb-trips.toml")
        self.pki = pki_dir(tmp / "pki", TABLES)
        self.address = f"127.0.0.1:{_free_port()}"
        self.journal = tmp / "progressive.sqlite3"
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def args(self, who: str, *extra: str) -> list[str]:
        if who == "controller":
            return [
                "tests.progressive.server_child",
                str(self.settings),
                str(self.journal),
                str(self.pki),
                self.address,
            ]
        return [
            "tests.progressive.table_child",
            str(self.settings),
            who,
            str(self.tmp / f"{who}.sqlite3"),
            str(self.pki),
            self.address,
            *extra,
        ]

    def start(self, who: str, *extra: str) -> subprocess.Popen[bytes]:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen(
            [sys.executable, "-m", *self.args(who, *extra)],
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=env,
        )
        self.procs[who] = child
        return child

    def ready(self, who: str) -> None:
        child = self.procs[who]
        assert child.stdout is not None
        assert child.stdout.readline() == b"ready\n", f"{who} did not start"

    def kill(self, who: str) -> None:
        child = self.procs.pop(who)
        child.send_signal(signal.SIGKILL)
        child.wait()
        if child.stdout is not None:
            child.stdout.close()

    def stop_all(self) -> None:
        for who in list(self.procs):
            self.kill(who)


def run_campaign(tmp: Path, kills: int, seed: int, finish: int = 100) -> None:
    """``kills`` SIGKILLs, then each table plays ``finish`` rounds more and exits, and everything
    is reconciled.  Every seat of a Stadium round shares its cards, so a round hits the trips
    progressive on all three qualifying seats or none, 1 round in 28: ``finish`` 200 on the two
    tables leaves no hit with a chance of (27/28)**400, 5e-7 (at 50 about 0.5%: it happened)."""
    rnd = random.Random(seed)
    rig = Rig(tmp)
    try:
        rig.start("controller")
        rig.ready("controller")
        for table in TABLES:
            rig.start(table)
            rig.ready(table)
        victims = ("controller", *TABLES)
        progress = campaign_progress("progressive kill campaign", kills, "kills")
        for killed in range(kills):
            time.sleep(rnd.uniform(0.02, 0.3))
            who = rnd.choice(victims)
            rig.kill(who)
            rig.start(who)
            progress.update(killed + 1)
            if who == "controller":
                rig.ready(who)  # the tables wait for it (their rounds queue up)
            else:
                # a table waits in catch-up while the controller is down: don't block on it
                pass
        for table in TABLES:  # every table finishes: a few rounds more, all booked, exit
            rig.kill(table)
            done = rig.start(table, str(finish))
            assert done.wait(timeout=120) == 0
            rig.procs.pop(table)
        rig.kill("controller")
    finally:
        rig.stop_all()
    settings = progressive.load(str(rig.settings))
    ctl = ProgressiveController(settings, rig.journal)
    tables = {}
    for table in TABLES:
        journal = TableJournal(tmp / f"{table}.sqlite3", table, readonly=True)
        tables[f"table-{table}"] = list(journal.events())
        journal.close()
    books = reconcile(settings, tables, ctl.rounds())
    meters = ctl.meters()
    ctl.close()
    for book in books:
        assert book.balanced, book.line()
        assert book.rounds > 0
    assert meters.balanced(), meters
    assert meters.contributed == sum(b.booked for b in books)
    assert meters.hits > 0  # the campaign exercised hits, resets and the overflow


def test_a_small_kill_campaign_reconciles_to_the_cent(tmp_path: Path) -> None:
    run_campaign(tmp_path, kills=3, seed=60, finish=200)  # a hit-free run: 5e-7


@pytest.mark.table_campaign
def test_the_kill_campaign_reconciles_to_the_cent(tmp_path: Path) -> None:
    kills = int(os.environ.get("PROGRESSIVE_CAMPAIGN_KILLS", "200"))
    run_campaign(tmp_path, kills=kills, seed=int(os.environ.get("PROGRESSIVE_CAMPAIGN_SEED", "28")))


def run_terminal_campaign(tmp: Path, kills: int, seed: int) -> dict[str, int]:
    """The standalone terminal's campaign; its figures."""
    from tests.progressive.terminal_child import PAIR

    rnd = random.Random(seed)
    data = tmp / "terminal"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tests.progressive.terminal_child", str(data)]

    def start(*extra: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([*command, *extra], stdout=subprocess.PIPE, cwd=ROOT, env=env)

    progress = campaign_progress("progressive hits-paid kill campaign", kills, "kills")
    for killed in range(kills):
        child = start()
        assert child.stdout is not None
        assert child.stdout.readline() == b"ready\n", "the terminal did not start"
        time.sleep(rnd.uniform(0.1, 2.0))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        progress.update(killed + 1)
    # a last run: pays what is due, plays, exits cleanly; a pair comes 1 game in 5.9, so 80
    # games leave the campaign without a hit with a chance of (1 - 0.169)**80, 4e-7 (40: 6e-4)
    done = start("80")
    assert done.wait(timeout=300) == 0
    assert done.stdout is not None
    done.stdout.close()
    meter = ProgressiveController(PAIR, data / f"progressive-{PAIR.name}.sqlite3")
    booked = meter.rounds()
    meters = meter.meters()
    meter.close()
    journal = Journal(data, readonly=True)
    events = [row.event for row in journal.rows()]
    state, _ = rebuild(journal)
    journal.close()
    awards = [e for e in events if isinstance(e, ev.ProgressiveAwarded)]
    hits = [h for row in booked for h in row.hits]
    assert paid_problems(hits, awards, "TK-0001/") == []
    settled = [e.game_number for e in events if isinstance(e, ev.RoundSettled)]
    games = [row.game for row in booked if row.source == "TK-0001"]
    assert sorted(games) == sorted(set(settled)) and len(games) == len(set(games))
    assert meters.balanced(), meters
    report = audit(data)
    assert report.ok, report
    credited = sum(a.award for a in awards if not a.handpay)
    handpaid = sum(
        e.value for e in events if isinstance(e, ev.HandpayReset) and e.kind == "progressive"
    )
    assert state.lifetime["progressive_won"] == credited
    assert state.lifetime["handpaid_progressive"] == handpaid
    assert handpaid == sum(a.award for a in awards if a.handpay)  # the last one paid too
    figures = {
        "kills": kills,
        "games": len(settled),
        "hits": len(hits),
        "credited": sum(not a.handpay for a in awards),
        "credited_cents": credited,
        "handpays": sum(a.handpay for a in awards),
        "handpaid_cents": handpaid,
        "withdrawn_heads": sum(isinstance(e, ev.HeadWithdrawn) for e in events),
    }
    print(f"progressive hits-paid campaign: {figures}", file=sys.stderr)
    return figures


def test_a_small_hits_paid_campaign_pays_every_hit_once(tmp_path: Path) -> None:
    figures = run_terminal_campaign(tmp_path, kills=3, seed=66)
    assert figures["hits"] > 0


@pytest.mark.table_campaign
def test_the_hits_paid_campaign_pays_every_hit_once(tmp_path: Path) -> None:
    kills = int(os.environ.get("PROGRESSIVE_CAMPAIGN_KILLS", "200"))
    seed = int(os.environ.get("PROGRESSIVE_CAMPAIGN_SEED", "28"))
    figures = run_terminal_campaign(tmp_path, kills=kills, seed=seed)
    assert figures["hits"] > 0 and figures["handpays"] > 0 and figures["credited"] > 0
