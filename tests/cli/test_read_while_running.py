"""The records commands on the data directory of a terminal that is running."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.terminal.app.wiring import build_terminal
from kiosk.terminal.core import commands as c
from kiosk.terminal.robot import Robot
from kiosk.terminal.store.audit import audit
from kiosk.terminal.store.reader import current_state, open_readonly
from kiosk.terminal.store.verdict import refusal
from tests.helpers.cli_process import turbokiosk


def test_records_of_a_terminal_holding_its_store_open_mid_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "terminal"
    terminal = build_terminal(data_dir)
    rt = terminal.runtime
    rt.power_up()
    try:
        assert terminal.simulated.validator.insert(2000)
        rt.pump()
        for command in (
            c.SelectEdition("stadium-3cp"),
            c.SelectPositions((0, 1, 2)),
            c.PlaceWager("ante", 500),
            c.Deal(),
        ):
            rt.execute(command)  # the round now waits for Play / Fold

        meters = turbokiosk("meters", "--data-dir", str(data_dir), "--json")
        assert meters.returncode == 0, meters.stderr
        life = json.loads(meters.stdout)["lifetime"]
        assert (life["bills_in"], life["coin_in"], life["games_played"]) == (2000, 500, 0)

        recall = turbokiosk("recall", "--data-dir", str(data_dir), "--json")
        assert recall.returncode == 0, recall.stderr
        shown = json.loads(recall.stdout)
        assert shown["games"] == []
        assert shown["in_progress"]["game_number"] == 1
        assert len(shown["in_progress"]["card_names"]["first"]) == 9

        running = turbokiosk("audit", "--data-dir", str(data_dir))
        assert running.returncode == 0, running.stdout
        assert "(a game is in progress)" in running.stdout

        assert main(["recall", "--data-dir", str(data_dir)]) == 0
        assert capsys.readouterr().out.startswith("IN PROGRESS\nGame 1  Stadium Three Card Poker")

        # the readers neither blocked nor disturbed the terminal: it plays on
        rt.execute(c.Decide("fold"))
        rt.cash_out()
        rt.pump()
        assert rt.state.credits == [0]
        after = turbokiosk("audit", "--data-dir", str(data_dir))
        assert after.returncode == 0, after.stdout
        assert main(["events", "--data-dir", str(data_dir), "--last", "1"]) == 0
        assert " VoucherPrinted " in capsys.readouterr().out
    finally:
        rt.close()


def test_audit_and_state_are_consistent_while_the_terminal_writes(tmp_path: Path) -> None:
    """Every read sees one committed state, never rows of one moment and tables of the next."""
    data_dir = tmp_path / "terminal"
    ready, stop = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def play() -> None:  # the terminal, in its own thread (SQLite objects stay in their thread)
        try:
            terminal = build_terminal(data_dir, snapshot_every=2)
            terminal.runtime.power_up()
            robot = Robot(
                terminal.runtime,
                terminal.simulated.validator,
                terminal.simulated.printer,
                random.Random(7),
                fault_rate=0,
            )
            ready.set()
            while not stop.is_set():
                robot.play_game()
            terminal.runtime.close()
        except BaseException as exc:  # reported to the test below
            failures.append(exc)
            ready.set()

    writer = threading.Thread(target=play)
    writer.start()
    try:
        assert ready.wait(30)
        seen: set[int] = set()
        reads = 0
        deadline = time.monotonic() + 120
        # Read until the reads have landed on six different journal heads: how many reads
        # that takes depends on the machine (the writer competes for the GIL), so no count
        # of reads is fixed; only a writer stuck for two minutes fails the test.
        while len(seen) < 6 and time.monotonic() < deadline:
            report = audit(data_dir)
            assert report.ok, report.to_text()
            with open_readonly(data_dir) as journal:  # as the records commands read it
                assert refusal(journal, data_dir) is None
            with open_readonly(data_dir) as journal:
                view = current_state(journal)
                assert view.seq == journal.head()[0]
                seen.add(view.seq)
            reads += 1
            time.sleep(0.02)  # let the writer run between reads
            assert not failures, failures
        assert len(seen) >= 6, f"{reads} reads saw only journal heads {sorted(seen)}"
    finally:
        stop.set()
        writer.join(60)
    assert not failures
    assert audit(data_dir).ok
