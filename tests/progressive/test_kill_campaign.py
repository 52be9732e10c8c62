"""Progressive contributions reconciled to the micro-cent after a kill campaign: a linked
progressive controller and two table controllers, each a real process, SIGKILLed at random
instants (any of the three) and restarted; at the end every round each table journaled as
settled is booked exactly once on the progressive's journal, its contribution equal to its
wagers times the rates, and the meters balance (contributed + seeded = meter + hidden +
overflow + paid).  A handful of kills in the default run; ``-m table_campaign``
(``tox -e progressive-campaign``) runs PROGRESSIVE_CAMPAIGN_KILLS (200)."""

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
from kiosk.terminal.progressive.controller import ProgressiveController
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


def run_campaign(tmp: Path, kills: int, seed: int) -> None:
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
            done = rig.start(table, "100")  # about 11 hits a table: never none
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
    run_campaign(tmp_path, kills=3, seed=60)


@pytest.mark.table_campaign
def test_the_kill_campaign_reconciles_to_the_cent(tmp_path: Path) -> None:
    kills = int(os.environ.get("PROGRESSIVE_CAMPAIGN_KILLS", "200"))
    run_campaign(tmp_path, kills=kills, seed=int(os.environ.get("PROGRESSIVE_CAMPAIGN_SEED", "28")))
