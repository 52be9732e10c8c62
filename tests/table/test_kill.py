"""Kill a real controller process at random instants; the journal it leaves always recovers:
the chain verifies, no wager or decision is doubled, no card dealt twice, every result is the
pure rules' result, the cards already drawn stay the round's cards, and play goes on."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.table.core import commands as c
from kiosk.table.core import events as e
from kiosk.table.core.controller import TableController
from kiosk.table.core.core import DealMode, Phase
from kiosk.terminal.runtime.deck import RngDeckFactory
from rng import Csprng
from tests.helpers.table import STADIUM, TURBO, check_journal, config

ROOT = Path(__file__).resolve().parents[2]


def kill_at_random(path: Path, edition: str, mode: DealMode, rnd: random.Random) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.table.kill_child", str(path), edition, mode.value],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == b"ready\n"
        time.sleep(rnd.uniform(0.0, 0.25))
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        if child.stdout is not None:
            child.stdout.close()


@pytest.mark.parametrize(
    ("edition", "mode"),
    [  # one table in the default run; the others in `tox -e slow` (the default run's time)
        pytest.param(STADIUM, DealMode.SHARED, marks=pytest.mark.slow),
        pytest.param(TURBO, DealMode.SHARED, marks=pytest.mark.slow),
        (TURBO, DealMode.STADIUM),
    ],
)
def test_a_controller_killed_at_random_instants_recovers(
    tmp_path: Path, edition: str, mode: DealMode
) -> None:
    path = tmp_path / "table.sqlite3"
    rnd = random.Random(14)
    cfg = config(edition, mode)
    rounds_seen = 0
    for _ in range(4):
        kill_at_random(path, edition, mode, rnd)
        ctl = TableController(cfg, path, RngDeckFactory(Csprng()))
        events = list(ctl.journal.events())
        check_journal(cfg, events)
        rnd_state = ctl.state.round
        first = rnd_state.first if rnd_state is not None else ()
        now = max(ev.at for ev in events) + 1
        ctl.resume(now)
        if first and ctl.state.round is not None:
            assert ctl.state.round.first == first  # never drawn again
        ctl.execute(c.Tick(), now + 10_000)  # the timers run out: the round finishes
        ctl.execute(c.Tick(), now + 20_000)
        if ctl.state.phase is Phase.SETTLED:
            ctl.execute(c.CloseRound(), now + 20_001)
        assert ctl.state.phase in (Phase.IDLE, Phase.BETTING)
        check_journal(cfg, list(ctl.journal.events()))
        rounds_seen = sum(isinstance(ev, e.RoundSettled) for ev in ctl.journal.events())
        ctl.close()
    assert rounds_seen > 0
